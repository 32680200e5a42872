/**
 * @module Issue 38: a fork deeper than MAX_FORK_DEPTH is a stop with an error, not a deletion, until the operator
 * allows it (ALLOW_DEEP_FORK); forks within the bound are followed as before.
 */
import { expect } from 'chai';
import prom from 'prom-client';
import { startPopulator, type Populator } from '../../../src/indexer/sync/populator.ts';
import { startHarness, silent, storedTopHash, verifyClean, waitFor, type Harness } from './support/harness.ts';

describe('deep forks (issue 38)', function () {
  this.timeout(120_000);
  let h: Harness;
  let populator: Populator | undefined;
  const bounded = { MAX_FORK_DEPTH: '6' };
  const registry = new prom.Registry();

  before(async () => {
    // 25 generations: the deepest fork replaces 12 (every case below the top's generation 13)
    h = await startHarness(25, 'deep-fork-test');
    populator = await startPopulator({ cfg: h.config(bounded), log: silent, registry });
    await populator.synced();
  });
  after(async () => {
    await populator?.stop();
    await h.close();
  });

  const storedHashes = async (): Promise<string[]> =>
    (await h.query<{ hash: string }>('mdw', 'SELECT hash FROM key_blocks ORDER BY height')).map((r) => r.hash);

  const converged = () =>
    waitFor(
      'the populator to reach the node top',
      async () => (await storedTopHash(h, 'mdw'))?.hash === h.devnode.chain.top.hash,
    );

  it('follows a fork within MAX_FORK_DEPTH as before', async () => {
    await h.devnode.fork(4);
    await converged();
    await verifyClean(h);
  });

  it('stops at a fork deeper than MAX_FORK_DEPTH, deleting nothing and saying why in sync_state', async () => {
    const before = await storedHashes();
    await h.devnode.fork(12);
    let state: { status: string; last_error: string | null } | undefined;
    await waitFor(
      'the refused fork in sync_state',
      async () =>
        ([state] = await h.query<{ status: string; last_error: string | null }>(
          'mdw',
          'SELECT status, last_error FROM sync_state',
        )).length > 0 && state!.status === 'error',
    );
    expect(state!.last_error).to.match(
      /^the node's chain forks from the stored one at height \d+ or below, which would replace \d+ or more stored generations .* more than MAX_FORK_DEPTH \(6\): nothing deleted\. .*ALLOW_DEEP_FORK=true/,
    );
    // steps later still nothing deleted or replaced: the populator retries, refusing each time
    const refusals = async (): Promise<number> =>
      (await registry.getSingleMetric('mdw_populator_failures_total')!.get()).values.find(
        (v) => v.labels.kind === 'MDW_INDEXER_FORK_TOO_DEEP',
      )?.value ?? 0;
    const first = await refusals();
    await waitFor('two more refused steps', async () => (await refusals()) >= first + 2);
    expect(await storedHashes()).to.deep.equal(before);
  });

  it('follows the deep fork once the operator allows it (ALLOW_DEEP_FORK)', async () => {
    await populator!.stop();
    populator = await startPopulator({
      cfg: h.config({ ...bounded, ALLOW_DEEP_FORK: 'true' }),
      log: silent,
      registry: new prom.Registry(),
    });
    await converged();
    await verifyClean(h);
  });

  it('names the heights of a refused fork that covers a FORK_WINDOW wider than MAX_FORK_DEPTH (issue 59)', async () => {
    await populator!.stop();
    const [window, depth] = [10, 12];
    populator = await startPopulator({
      cfg: h.config({ ...bounded, FORK_WINDOW: String(window) }),
      log: silent,
      registry: new prom.Registry(),
    });
    await converged();
    const storedTop = h.devnode.chain.height;
    await h.devnode.fork(depth); // every generation of the window differs: the walk below it starts under the floor
    let error: string | null | undefined;
    await waitFor('the refused fork in sync_state', async () => {
      const rows = await h.query<{ last_error: string | null }>('mdw', 'SELECT last_error FROM sync_state');
      error = rows[0]?.last_error;
      return !!error;
    });
    const [, from, replaced] = /at height (\d+) or below, which would replace (\d+) or more/.exec(error!) ?? [];
    // true of the fork the devnode made: it reaches at least this far down, replacing at least this many
    expect(Number(from)).to.be.within(storedTop - depth, storedTop - window);
    expect(Number(replaced)).to.be.within(Number(bounded.MAX_FORK_DEPTH) + 1, depth);
  });
});
