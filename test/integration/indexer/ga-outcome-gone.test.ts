/**
 * @module A GAMetaTx's info that a node no longer holds (its 410: garbage-collected state), against the devnode.
 * Only that info tells whether the inner transaction took effect (ga-outcome.ts): a node that answers 410 sends the
 * request on to the next of NODE_URLS, and when no node holds it the batch fails and is retried, the loss and the
 * recovery logged once each, rather than a failed inner claim or call stored as made.
 */
import { expect } from 'chai';
import prom from 'prom-client';
import { encode } from '../../../src/chain/encoding.ts';
import { contractId } from '../../../src/chain/derived-ids.ts';
import { address, some } from '../../../src/chain/fate.ts';
import { callTx, createTx } from '../../../src/devnode/contracts/txs.ts';
import { signBuilt } from '../../../src/devnode/index.ts';
import { keyPairFromSeed, parseSecretKey, type KeyPair } from '../../../src/devnode/keys.ts';
import type { BuiltTx, TxFields } from '../../../src/devnode/tx-codec.ts';
import { verifyChain } from '../../../src/indexer/maintenance/verify.ts';
import { startPopulator, type Populator } from '../../../src/indexer/sync/populator.ts';
import { capturedLog } from '../../support/captured-log.ts';
import { fundGa, gaAttachTx, gaMetaTx, innerClaim, innerSpend } from '../../support/ga-txs.ts';
import { startFaultProxy, type FaultProxy } from './support/fault-proxy.ts';
import { silent, startHarness, storedTopHash, waitFor, type Harness } from './support/harness.ts';

/** more AE than the GA holds: an inner transaction sending it fails */
const TOO_MUCH = 10n ** 22n;
const NAME = 'gaoutcomegone.chain';

describe("a GAMetaTx's info no node holds (410) is not taken as its inner transaction's success", function () {
  this.timeout(300_000);
  let h: Harness;
  /** a node that garbage-collected the infos it is told to, and one that holds them, both the devnode */
  let pruning: FaultProxy;
  let archive: FaultProxy;
  let populator: Populator | undefined;
  let submit: (built: BuiltTx) => string;
  let gaKey: KeyPair;
  let ga: string;
  let recipient: string;
  let token: string;
  let auth = 0n;
  /** the first GAMetaTx mined */
  let firstMeta = '';

  const infoPath = (hash: string): RegExp => new RegExp(`/transactions/${hash}/info$`);
  const nameEvents = async (): Promise<unknown[]> =>
    h.query('mdw', 'SELECT tx_hash FROM name_events WHERE name = $1', [NAME]);
  const gaCall = async (hash: string): Promise<string | undefined> =>
    (
      await h.query<{ return_type: string }>(
        'mdw',
        `SELECT g.return_type FROM ga_calls g JOIN transactions t USING (height, micro_index, tx_index)
          WHERE t.hash = $1`,
        [hash],
      )
    )[0]?.return_type;
  /** mines the meta transaction of `inner` in a generation of its own (none stored yet): its height */
  const mineMeta = async (inner: TxFields): Promise<{ hash: string; height: number }> => {
    await h.devnode.mineKeyBlock();
    const hash = submit(gaMetaTx(ga, ++auth, inner));
    firstMeta ||= hash;
    await h.devnode.mineMicroBlock();
    const height = h.devnode.chain.height;
    await h.devnode.mineKeyBlock();
    return { hash, height };
  };

  before(async () => {
    h = await startHarness(4, 'ga-outcome-gone');
    const chain = h.devnode.chain;
    const owner = parseSecretKey(h.devnode.accounts[0]!.secretKey);
    gaKey = keyPairFromSeed(Buffer.alloc(32, 93));
    ga = gaKey.address;
    recipient = encode('ak', Buffer.alloc(32, 94));
    submit = (built) => chain.submit(signBuilt(chain.options.networkId, built)).hash;
    const nonce = chain.pending.accounts.get(owner.address)!.nonce;
    token = contractId(owner.address, nonce + 1);
    submit(createTx(owner, nonce + 1, 'aex9', ['Gone Outcome', 18n, 'GON', some(10n ** 24n)]));
    submit(fundGa(owner, ga, 10n ** 21n, nonce + 2));
    await h.devnode.mineKeyBlock();
    submit(gaAttachTx(gaKey));
    await h.devnode.mineKeyBlock();
    pruning = await startFaultProxy(h.devnode.externalUrl);
    archive = await startFaultProxy(h.devnode.externalUrl);
  });

  after(async () => {
    await populator?.stop();
    await pruning?.close();
    await archive?.close();
    await h?.close();
  });

  it('fails the batch while no node holds it, logging each loss and the recovery once', async () => {
    // a claim without its preclaim fails inside the meta transaction: the node mines it, its GA call returning error
    const claim = await mineMeta(innerClaim(ga, NAME));
    // a token transfer sending more AE than the GA holds: the call cannot be paid, the inner transaction fails
    const call = await mineMeta(callTx(gaKey, 0, token, 'transfer', [address(ga), 1n], TOO_MUCH).tx);
    pruning.gone(new RegExp(`/transactions/(${claim.hash}|${call.hash})/info$`));
    const { log, lines } = capturedLog();
    populator = await startPopulator({
      cfg: h.config({ NODE_URL: pruning.url }),
      log,
      registry: new prom.Registry(),
    });
    const lastError = async (): Promise<{ status: string; last_error: string | null }> =>
      (
        await h.query<{ status: string; last_error: string | null }>('mdw', 'SELECT status, last_error FROM sync_state')
      )[0]!;
    /** waits for the batch holding `stuck` to fail, then for three more tries, and checks what was stored */
    const stalledAt = async (stuck: { hash: string; height: number }): Promise<void> => {
      await waitFor(
        `a batch to fail at ${stuck.hash}`,
        async () => (await lastError()).last_error?.includes(stuck.hash) ?? false,
        30_000,
      );
      const asked = (): number => pruning.stats.paths.filter((p) => infoPath(stuck.hash).test(p)).length;
      const before = asked();
      await waitFor(
        `the batch of ${stuck.hash} to be tried three times more`,
        async () => asked() >= before + 3,
        30_000,
      );
      const state = await lastError();
      expect(state.status).to.equal('node_unavailable');
      expect(state.last_error).to.include(stuck.hash).and.include('NODE_URLS');
      expect((await storedTopHash(h, 'mdw'))!.height, 'nothing stored from its height on').to.be.below(stuck.height);
      expect(await h.query('mdw', 'SELECT 1 FROM transactions WHERE hash = $1', [stuck.hash])).to.deep.equal([]);
    };
    // a GAMetaTx of no contract call (its info asked for its outcome alone), then one of a call (asked for the call)
    await stalledAt(claim);
    pruning.gone(infoPath(call.hash));
    await stalledAt(call);
    // the state is back (a node that keeps it answers): the sync goes on
    pruning.gone(undefined);
    await waitFor(
      'the top to be stored',
      async () => (await storedTopHash(h, 'mdw'))?.hash === h.devnode.chain.top.hash,
      30_000,
    );
    // one line a loss and one a return (the claim's batch went through before the call's failed), not one a try
    const said = lines
      .filter((l) => l.msg === 'populator step failed; retrying' || l.msg === 'populator recovered')
      .map((l) =>
        l.msg === 'populator recovered' ? 'recovered' : [claim.hash, call.hash].find((x) => String(l.err).includes(x)),
      );
    expect(said).to.deep.equal([claim.hash, 'recovered', call.hash, 'recovered']);
    await populator.stop();
    populator = undefined;
    expect([await gaCall(claim.hash), await gaCall(call.hash)]).to.deep.equal(['error', 'error']);
    expect(await nameEvents(), 'the failed claim names nothing').to.deep.equal([]);
    const calls = await h.query('mdw', 'SELECT 1 FROM contract_calls WHERE tx_hash = $1', [call.hash]);
    expect(calls, 'the failed inner call made none').to.deep.equal([]);
  });

  it('goes on where another node of NODE_URLS holds the info', async () => {
    await populator?.stop();
    const spend = await mineMeta(innerSpend(ga, recipient, TOO_MUCH));
    pruning.gone(infoPath(spend.hash));
    populator = await startPopulator({
      cfg: h.config({ NODE_URL: pruning.url, NODE_URLS: `${pruning.url},${archive.url}` }),
      log: silent,
      registry: new prom.Registry(),
    });
    await populator.synced();
    await populator.stop();
    populator = undefined;
    expect(await gaCall(spend.hash)).to.equal('error');
    // listed under the GA's own ids only: the failed spend names no recipient (ga-outcome.ts listedTx)
    const fields = await h.query<{ fields: string }>(
      'mdw',
      `SELECT a.fields FROM account_transactions a JOIN transactions t USING (height, micro_index, tx_index)
        WHERE t.hash = $1 ORDER BY a.fields`,
      [spend.hash],
    );
    expect(fields.map((f) => f.fields)).to.deep.equal(['ga_id']);
  });

  it('verifies against a pruning node, the re-derivation of the rows said unverifiable', async () => {
    await populator?.stop();
    populator = undefined;
    pruning.gone(/\/transactions\/th_\w+\/info$/);
    const out: string[] = [];
    const report = await verifyChain(
      { cfg: h.config({ NODE_URL: pruning.url }), log: silent, out: (l) => out.push(l) },
      { full: true },
    );
    expect(report.differences, out.join('\n')).to.equal(0);
    expect(report.checked).to.equal(h.devnode.height() + 1);
    // the scratch load stopped at the first GA transaction's outcome: the claim's
    const derived = out.filter((l) => l.startsWith('derived rows not compared: unverifiable: '));
    expect(derived, out.join('\n')).to.have.length(1);
    expect(derived[0]).to.include(`no node holds the info of ${firstMeta}`);
  });
});
