/**
 * @module A populator never stalls silently (issue 27.5): a contract whose code no node gives is loaded past (its calls
 * stored undecoded, the token and call areas of its heights deferred to the backfill, which derives them once the code
 * comes: the calls decoded as a load that never missed it), so are `-H` reloads of its heights; and a populator that cannot advance, for any reason, says so within a poll in the
 * lag metric, sync_state, /middleware/status and /mdw/v3/status.
 */
import { expect } from 'chai';
import prom from 'prom-client';
import { startServer } from '../../../src/api/server.ts';
import { contractId } from '../../../src/chain/derived-ids.ts';
import { startPopulator, type Populator } from '../../../src/indexer/sync/populator.ts';
import { reloadHeights } from '../../../src/indexer/maintenance/reload.ts';
import { verifyChain } from '../../../src/indexer/maintenance/verify.ts';
import { startFaultProxy, type FaultProxy } from './support/fault-proxy.ts';
import { tokenStandards } from '../../support/devnode-contracts.ts';
import { startHarness, silent, storedTopHash, verifyClean, waitFor, type Harness } from './support/harness.ts';

const CODE = /\/contracts\/[^/]+\/code/;

describe('a populator that cannot get what it needs', function () {
  this.timeout(300_000);
  let h: Harness;
  let proxy: FaultProxy;
  let populator: Populator | undefined;

  before(async () => {
    // the seed of the AEX-N detection test with half its transactions token traffic: its DEX factory clones pairs
    // inside calls, whose code only the node knows, by height 40, and 5 calls to them follow by 60 (the first case
    // asserts both), where the default share (a tenth) clones them only after height 100 (the 160 generations it took)
    h = await startHarness(60, 'aexn-detection', { tokenShare: 0.5 });
    proxy = await startFaultProxy(h.devnode.externalUrl);
  });
  after(async () => {
    await populator?.stop();
    await proxy.close();
    await h?.close();
  });

  const converged = (what: string, timeoutMs = 120_000): Promise<void> =>
    waitFor(
      what,
      async () => (await storedTopHash(h, 'mdw'))?.hash === h.devnode.chain.keyBlocks.at(-1)!.hash,
      timeoutMs,
    );

  /** The contracts the devnode runs as tokens, AEX-9 or AEX-141 (as the AEX-N detection test reads them). */
  const tokens = (): Map<string, string> => tokenStandards(h.devnode);
  const storedTokens = async (): Promise<Map<string, string>> =>
    new Map(
      (
        await h.query<{ contract_id: string; aexn_type: string }>(
          'mdw',
          'SELECT contract_id, aexn_type FROM aexn_contracts ORDER BY contract_id',
        )
      ).map((r) => [r.contract_id, r.aexn_type]),
    );
  const tokenArea = async (): Promise<{ next_height: number; last_error: string | null } | undefined> =>
    (
      await h.query<{ next_height: number; last_error: string | null }>(
        'mdw',
        "SELECT next_height, last_error FROM derive_backfill WHERE area = 'tokens'",
      )
    )[0];

  it('loads past a contract whose code no node gives: its calls undecoded, its token and call areas deferred and failing', async () => {
    proxy.notFound(CODE);
    populator = await startPopulator({
      cfg: h.config({ NODE_URL: proxy.url }),
      log: silent,
      registry: new prom.Registry(),
    });
    await converged('the populator to reach the top while no node gives a cloned contract’s code', 90_000);
    const area = await tokenArea();
    expect(area?.last_error, 'the token area waits, failing').to.match(/code of ct_/);
    const undecoded = await h.query<{ n: number }>(
      'mdw',
      "SELECT count(*)::int AS n FROM contract_calls WHERE decode_error = 'contract bytecode unknown'",
    );
    expect(undecoded[0]!.n, 'calls stored undecoded').to.be.greaterThan(0);
    const [calls] = await h.query<{ last_error: string | null }>(
      'mdw',
      "SELECT last_error FROM derive_backfill WHERE area = 'calls'",
    );
    expect(calls?.last_error, 'the call area waits, failing').to.match(/contract bytecode unknown/);
    const createdByTx = new Set<string>();
    for (const { tx } of h.devnode.chain.txs.values())
      if (tx.type === 'ContractCreateTx') createdByTx.add(contractId(String(tx.owner_id), BigInt(String(tx.nonce))));
    const cloned = [...tokens().keys()].filter((id) => !createdByTx.has(id));
    expect(cloned, 'pairs the factory cloned inside calls').to.not.deep.equal([]);
    const stored = await storedTokens();
    for (const id of cloned) expect(stored.has(id), `${id} is not stored before its code is known`).to.equal(false);
  });

  it('reloads such heights with -H (stored, token area deferred) instead of failing', async () => {
    await populator!.stop();
    populator = undefined;
    const area = await tokenArea();
    const from = area!.next_height;
    const before = await h.query<{ hash: string }>('mdw', 'SELECT hash FROM key_blocks WHERE height = $1', [from]);
    const result = await reloadHeights({ cfg: h.config({ NODE_URL: proxy.url }), log: silent }, [from, from + 1]);
    expect(result.reloaded).to.equal(2);
    const after = await h.query<{ hash: string }>('mdw', 'SELECT hash FROM key_blocks WHERE height = $1', [from]);
    expect(after).to.deep.equal(before);
    expect((await tokenArea())?.next_height).to.be.at.most(from);
    const [calls] = await h.query<{ next_height: number }>(
      'mdw',
      "SELECT next_height FROM derive_backfill WHERE area = 'calls'",
    );
    expect(calls?.next_height, 'the reloaded calls wait for the call area too').to.be.at.most(from);
    // mdw -v names each call stored undecoded for now, and what repairs it
    const lines: string[] = [];
    const report = await verifyChain(
      { cfg: h.config({ NODE_URL: proxy.url }), log: silent, out: (l) => lines.push(l) },
      {},
    );
    const undecoded = lines.filter((l) => / stored undecoded \(contract bytecode unknown\): /.test(l));
    expect(undecoded, 'undecoded calls reported').to.not.deep.equal([]);
    expect(undecoded[0]).to.match(
      /^height \d+: contract call th_\w+ stored undecoded .*: the populator decodes it again/,
    );
    expect(report.differences).to.be.at.least(undecoded.length);
  });

  it('derives the deferred token area once the node gives the code again', async () => {
    proxy.notFound(undefined);
    populator = await startPopulator({
      cfg: h.config({ NODE_URL: proxy.url }),
      log: silent,
      registry: new prom.Registry(),
    });
    await waitFor('the token area to be derived', async () => (await tokenArea()) === undefined, 120_000);
    expect(await storedTokens()).to.deep.equal(tokens());
  });

  it('decodes the calls stored undecoded once the node gives the code again, as a load that never missed it', async () => {
    const areas = async (): Promise<string[]> =>
      (await h.query<{ area: string }>('mdw', 'SELECT area FROM derive_backfill ORDER BY area')).map((r) => r.area);
    await waitFor('every deferred area to be derived', async () => (await areas()).length === 0, 60_000);
    const [calls] = await h.query<{ decoded: number; undecoded: number }>(
      'mdw',
      `SELECT count(*) FILTER (WHERE function IS NOT NULL)::int AS decoded,
              count(*) FILTER (WHERE decode_error = 'contract bytecode unknown')::int AS undecoded
         FROM contract_calls`,
    );
    expect(calls, 'calls decoded, none left undecoded').to.deep.include({ undecoded: 0 });
    expect(calls!.decoded, 'calls decoded').to.be.greaterThan(0);
    // as a load that never missed the code: -v --full loads every height into a scratch schema and compares every
    // table with it, the calls' decodings included
    await verifyClean(h);
  });

  it('says within a poll that it cannot advance: lag metric, sync_state, /middleware/status and /mdw/v3/status', async () => {
    await populator!.stop();
    const registry = new prom.Registry();
    populator = await startPopulator({ cfg: h.config({ NODE_URL: proxy.url }), log: silent, registry });
    await converged('the populator to follow again');
    const server = await startServer({
      cfg: h.config({ PORT: '0', WEBSOCKET_ADDRESS: '127.0.0.1:0', STATUS_MAX_BLOCK_AGE: String(10 ** 9) }),
      log: silent,
      registry: new prom.Registry(),
      version: 't',
    });
    const get = async (path: string): Promise<{ status: number; body: Record<string, unknown> }> => {
      const res = await fetch(`${server.httpUrl}${path}`);
      return { status: res.status, body: (await res.json()) as Record<string, unknown> };
    };
    const lag = async (): Promise<number> =>
      (await (registry.getSingleMetric('mdw_sync_lag_blocks') as prom.Gauge).get()).values[0]?.value ?? NaN;
    try {
      const stored = h.devnode.height();
      await waitFor('synced', async () => (await get('/middleware/status')).body.synced === true);
      // the node answers its top but no generation: the populator cannot load the heights the node adds
      proxy.notFound(/\/generations\/height\//);
      for (let i = 0; i < 4; i++) await h.devnode.mineKeyBlock();
      const top = h.devnode.height();
      await waitFor(
        'the lag metric to count the heights not loaded',
        async () => (await lag()) === top - stored,
        10_000,
      );
      await waitFor(
        'the server to read the node’s new top',
        async () => (await get('/middleware/status')).body.lag === top - stored,
      );
      // a poll apart, every reading says so: no retry clears the error before it succeeds
      for (let i = 0; i < 10; i++) {
        const [state] = await h.query<{ status: string; last_error: string | null }>(
          'mdw',
          'SELECT status, last_error FROM sync_state',
        );
        expect(state!.last_error, `reading ${i}`).to.be.a('string');
        expect(state!.status, `reading ${i}`).to.be.oneOf(['node_unavailable', 'error']);
        const status = await get('/middleware/status');
        expect(status.status, `reading ${i}`).to.equal(503);
        expect(status.body, `reading ${i}`).to.include({ synced: false, lag: top - stored });
        expect(String(status.body.reason), `reading ${i}`).to.match(/^the populator cannot advance: /);
        const v3 = await get('/mdw/v3/status');
        expect(v3.body, `reading ${i}`).to.include({ mdw_synced: false, mdw_syncing: false, node_height: top });
        expect(await lag(), `reading ${i}`).to.equal(top - stored);
        await new Promise((r) => setTimeout(r, 50));
      }
      proxy.notFound(undefined);
      await converged('the populator to load the heights again');
      await waitFor('synced again', async () => (await get('/middleware/status')).status === 200);
      await waitFor('the lag metric back at 0', async () => (await lag()) === 0);
      // /v3/status answers from memory refreshed at most once a second
      await waitFor('/mdw/v3/status synced again', async () => (await get('/mdw/v3/status')).body.mdw_synced === true);
      expect((await get('/mdw/v3/status')).body).to.include({ mdw_syncing: false });
    } finally {
      await server.stop();
    }
  });
});
