/**
 * @module The upgrade's repair of the failed inner GA transactions (migration 1142, src/indexer/sync/ga-repair.ts)
 * where no node holds one's info any more (410, garbage-collected state): only that info tells whether its inner
 * transaction took effect, and a reload of its height would take it as done (fetch.ts), so its height is left as
 * stored and named once in the log, and the start ends, the others repaired; an `mdw -H` over that height, once a node
 * serves the info again, repairs it. Against the devnode behind a fault proxy: three failed inner claims, whose phantom
 * names an older populator stored (OldFetch), the first one's outcome not stored, the second one's stored as failed
 * (known, but its height no more reloadable than the first's), the third one's info held.
 */
import { expect } from 'chai';
import prom from 'prom-client';
import { createWritePool, type Pool } from '../../../src/db/connection/pool.ts';
import { storedTotals, syncState } from '../../../src/db/queries/sync-state.ts';
import { recordBackfill } from '../../../src/db/writes/derive-backfill.ts';
import { replaceGaCalls } from '../../../src/db/writes/ga-calls.ts';
import { signBuilt } from '../../../src/devnode/index.ts';
import { keyPairFromSeed, parseSecretKey } from '../../../src/devnode/keys.ts';
import type { BuiltTx } from '../../../src/devnode/tx-codec.ts';
import { deriveGaCalls } from '../../../src/indexer/derived/ga-calls.ts';
import { reloadHeights } from '../../../src/indexer/maintenance/reload.ts';
import { heightRange } from '../../../src/indexer/sync/heights.ts';
import { loadBatch, prepareBatch } from '../../../src/indexer/sync/loader.ts';
import { startPopulator, type Populator } from '../../../src/indexer/sync/populator.ts';
import { NodeClient } from '../../../src/node/client.ts';
import { capturedLog } from '../../support/captured-log.ts';
import { fundGa, gaAttachTx, gaMetaTx, innerClaim } from '../../support/ga-txs.ts';
import { migrationSql } from '../../support/migration-sql.ts';
import { waitFor, within } from '../../support/wait.ts';
import { startFaultProxy, type FaultProxy } from './support/fault-proxy.ts';
import { silent, startHarness, verifyClean, type Harness } from './support/harness.ts';
import { loaderDeps } from './support/loader-deps.ts';
import { OldFetch } from './support/old-ga-fetch.ts';

const MIGRATION = '1142_ga_failed_inner_repair';
const GONE_WARNING = 'no node holds the info of these GA transactions (410)';

/** A failed inner claim (no preclaim: the node holds no such name) in a meta transaction of a generation of its own. */
interface FailedClaim {
  readonly name: string;
  hash: string;
  height: number;
}

describe("the upgrade's repair of a failed inner GA transaction whose info no node holds (410)", function () {
  this.timeout(300_000);
  let h: Harness;
  let proxy: FaultProxy;
  let pool: Pool;
  let populator: Populator | undefined;
  /** gone at the start: one whose outcome no stored row tells, one stored as failed; then one whose info is held */
  const unknown: FailedClaim = { name: 'garepairunknown.chain', hash: '', height: 0 };
  const failed: FailedClaim = { name: 'garepairfailed.chain', hash: '', height: 0 };
  const held: FailedClaim = { name: 'garepairheld.chain', hash: '', height: 0 };
  const claims = [unknown, failed, held];

  const infoPath = (...of: FailedClaim[]): RegExp =>
    new RegExp(`/transactions/(${of.map((c) => c.hash).join('|')})/info$`);
  /** the hashes of the name events stored of each claim's name (one query at a time: the harness has one client) */
  const nameEvents = async (...of: FailedClaim[]): Promise<string[][]> => {
    const events: string[][] = [];
    for (const { name } of of)
      events.push(
        (await h.query<{ tx_hash: string }>('mdw', 'SELECT tx_hash FROM name_events WHERE name = $1', [name])).map(
          (r) => r.tx_hash,
        ),
      );
    return events;
  };
  /** each claim's stored GA call's return type (undefined: no row) */
  const gaCalls = async (...of: FailedClaim[]): Promise<Array<string | null | undefined>> => {
    const rows = await h.query<{ hash: string; return_type: string | null }>(
      'mdw',
      `SELECT t.hash, g.return_type FROM ga_calls g JOIN transactions t USING (height, micro_index, tx_index)
        WHERE t.hash = ANY($1)`,
      [of.map((c) => c.hash)],
    );
    return of.map((c) => rows.find((r) => r.hash === c.hash)?.return_type);
  };

  before(async () => {
    h = await startHarness(4, 'ga-repair-gone');
    const chain = h.devnode.chain;
    const owner = parseSecretKey(h.devnode.accounts[0]!.secretKey);
    const gaKey = keyPairFromSeed(Buffer.alloc(32, 95));
    const submit = (built: BuiltTx): string => chain.submit(signBuilt(chain.options.networkId, built)).hash;
    submit(fundGa(owner, gaKey.address, 10n ** 21n, chain.pending.accounts.get(owner.address)!.nonce + 1));
    await h.devnode.mineKeyBlock();
    submit(gaAttachTx(gaKey));
    await h.devnode.mineKeyBlock();
    let auth = 0n;
    for (const claim of claims) {
      claim.hash = submit(gaMetaTx(gaKey.address, ++auth, innerClaim(gaKey.address, claim.name)));
      await h.devnode.mineMicroBlock();
      claim.height = chain.height;
      await h.devnode.mineKeyBlock();
    }

    const cfg = h.config();
    const first = await startPopulator({ cfg, log: silent, registry: new prom.Registry() });
    await first.synced();
    await first.stop();
    proxy = await startFaultProxy(h.devnode.externalUrl);
    pool = createWritePool(cfg, 'repair-gone', silent, 2);
    // the rows an older populator wrote from the first failed height to the top: the phantom claims' names
    const node = new NodeClient({ url: h.devnode.externalUrl, timeoutMs: 60_000 }, silent);
    const deps = { ...(await loaderDeps(cfg, pool, node)), fetchAhead: new OldFetch(node, 0) };
    const heights = heightRange(unknown.height, chain.height - unknown.height + 1);
    const prepared = prepareBatch(deps, heights, false);
    expect((await loadBatch(deps, heights, { replace: true, prepared })).kind).to.equal('written');
    // the `ga` area derived the first height through a node that no longer held its info (no row tells its outcome),
    // and is still to derive the last one
    proxy.gone(infoPath(unknown));
    const pruning = new NodeClient({ url: proxy.url, timeoutMs: 60_000 }, silent);
    await deriveGaCalls(pool, pruning, { from: unknown.height, to: unknown.height, fromMicro: -1 });
    await replaceGaCalls(pool, { from: held.height, to: held.height, fromMicro: -1 }, []);
    await recordBackfill(pool, 'ga', held.height, held.height);
    // the schema as the release before left it, then migration 1142 seeding the three heights
    await h.query('mdw', 'DROP TABLE repair_heights');
    await h.query('mdw', await migrationSql(MIGRATION));
  });

  after(async () => {
    await populator?.stop();
    await pool?.end();
    await proxy?.close();
    await h?.close();
  });

  it('stores the old rows first: the phantom names, the outcomes as the area left them, the heights seeded', async () => {
    for (const { name } of claims) {
      const answer = await fetch(`${h.devnode.externalUrl}/v3/names/${name}`);
      expect(answer.status, `the node holds no ${name}`).to.equal(404);
    }
    expect(await nameEvents(...claims)).to.deep.equal(claims.map((c) => [c.hash]));
    expect(await gaCalls(...claims)).to.deep.equal([undefined, 'error', undefined]);
    expect((await storedTotals(pool)).pendingRepairs).to.deep.equal([
      { repair: 'ga_failed_inner', stage: 'seed', heights: 3, first_height: unknown.height, last_height: held.height },
    ]);
  });

  it("leaves the gone ones' heights as stored, warns once, repairs the other and follows the head", async () => {
    // a node set holding the last info again, not the others
    proxy.gone(infoPath(unknown, failed));
    const asked = proxy.stats.paths.length;
    const { log, lines } = capturedLog();
    populator = await startPopulator({ cfg: h.config({ NODE_URL: proxy.url }), log, registry: new prom.Registry() });
    await within('the start to sync', populator.synced(), 60_000);
    const state = await syncState(pool);
    expect([state.status, state.lastError, state.topHeight]).to.deep.equal(['synced', undefined, h.devnode.height()]);
    const warned = lines.filter((l) => l.msg.startsWith(GONE_WARNING));
    expect(warned.map((l) => [l.level, l.transactions, l.heights])).to.deep.equal([
      [40, [unknown.hash, failed.hash], [unknown.height, failed.height]],
    ]);
    expect(warned[0]!.msg).to.include('mdw -H');
    const infos = proxy.stats.paths.slice(asked).filter((p) => infoPath(...claims).test(p));
    for (const { hash } of claims) expect(infos.join(), `${hash}'s info asked of the node`).to.include(hash);
    expect(lines.filter((l) => l.msg === 'populator step failed; retrying').map((l) => l.err)).to.deep.equal([]);
    expect((await storedTotals(pool)).pendingRepairs, 'the repair forgotten').to.deep.equal([]);
    expect(await nameEvents(...claims), 'the gone ones left as stored').to.deep.equal([
      [unknown.hash],
      [failed.hash],
      [],
    ]);
    expect(await gaCalls(...claims)).to.deep.equal([undefined, 'error', 'error']);
    // the head is followed: a generation mined now is stored
    await h.devnode.mineKeyBlock();
    await waitFor('the new top to be stored', async () => (await syncState(pool)).topHeight === h.devnode.height());
    await populator.stop();
    populator = undefined;
  });

  it('repairs those heights with an mdw -H once a node serves their infos again', async () => {
    proxy.gone(undefined);
    const heights = [unknown.height, failed.height];
    const { reloaded } = await reloadHeights({ cfg: h.config({ NODE_URL: proxy.url }), log: silent }, heights);
    expect(reloaded).to.equal(2);
    expect(await nameEvents(...claims)).to.deep.equal([[], [], []]);
    expect(await gaCalls(...claims)).to.deep.equal(['error', 'error', 'error']);
    await verifyClean(h);
  });
});
