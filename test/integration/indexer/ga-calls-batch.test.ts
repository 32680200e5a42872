/**
 * @module The ga area of a batch derives from the transactions the batch holds (issue 40): it reads no stored
 * transaction back and renders none from its stored bytes, and stores the same rows as the derivation from the
 * stored chain (a backfill's).
 */
import { expect } from 'chai';
import { migrate } from '../../../src/db/schema/migrator.ts';
import { createWritePool, withTransaction, type Pool, type Queryable } from '../../../src/db/connection/pool.ts';
import { deriveBatchGaCalls, deriveGaCalls, GA_TX_TYPES } from '../../../src/indexer/derived/ga-calls.ts';
import type { GenerationRows } from '../../../src/indexer/rows/rows.ts';
import { heightRange } from '../../../src/indexer/sync/heights.ts';
import { loadBatch, prepareBatch } from '../../../src/indexer/sync/loader.ts';
import { NodeClient } from '../../../src/node/client.ts';
import { silent, startHarness, verifyClean, type Harness } from './support/harness.ts';
import { loaderDeps } from './support/loader-deps.ts';

const BATCH = 15;
/** rolledBack runs `fn` in a transaction that is rolled back, and gives its result. */
async function rolledBack<T>(pool: Pool, fn: (db: Queryable) => Promise<T>): Promise<T> {
  const undo = new Error('roll back');
  let result: T | undefined;
  await withTransaction(pool, async (db) => {
    result = await fn(db);
    throw undo;
  }).catch((err: unknown) => {
    if (err !== undo) throw err;
  });
  return result!;
}

const GA_ROWS = `SELECT height, micro_index, tx_index, gas_used::text, return_type, auth_fun_name, args::text
                   FROM ga_calls ORDER BY height, micro_index, tx_index`;

describe("a batch's ga area", function () {
  this.timeout(120_000);
  let h: Harness;
  let pool: Pool;
  let node: NodeClient;
  /** each batch's rows, as the loader derived them */
  const batches: GenerationRows[][] = [];

  before(async () => {
    h = await startHarness(45, 'batch-node-reads');
    const cfg = h.config();
    await migrate({ databaseUrl: cfg.databaseUrl, schema: cfg.databaseSchema }, silent);
    pool = createWritePool(cfg, 'ga-calls-batch', silent, 2);
    node = new NodeClient({ url: h.devnode.externalUrl, timeoutMs: 60_000 }, silent);
    const deps = await loaderDeps(cfg, pool, node);
    const top = h.devnode.height();
    for (let from = 0; from <= top; from += BATCH) {
      const heights = heightRange(from, Math.min(BATCH, top - from + 1));
      const prepared = await prepareBatch(deps, heights, true);
      expect((await loadBatch(deps, heights, { prepared: Promise.resolve(prepared) })).kind).to.equal('written');
      batches.push([...prepared.rows]);
    }
  });
  after(async () => {
    await pool?.end();
    await h?.close();
  });

  it('stores what the derivation from the stored chain stores', async () => {
    const cfg = h.config();
    const fromBatches = await h.query(cfg.databaseSchema, GA_ROWS);
    expect(
      fromBatches.some((r) => r.auth_fun_name !== null && r.args !== null),
      'a GAAttachTx',
    ).to.equal(true);
    expect(
      fromBatches.some((r) => r.auth_fun_name === null && r.gas_used !== null),
      'a GAMetaTx',
    ).to.equal(true);
    const fromStored = await rolledBack(pool, async (db) => {
      await deriveGaCalls(db, node, { from: 0, to: h.devnode.height(), fromMicro: -1 });
      return (await db.query(GA_ROWS)).rows;
    });
    expect(fromStored).to.deep.equal(fromBatches);
    await verifyClean(h);
  });

  it('reads no stored transaction back', async () => {
    const withGa = batches.filter((rows) => rows.some((g) => g.transactions.some((t) => GA_TX_TYPES.has(t.txType))));
    expect(withGa.length).to.be.greaterThan(0);
    for (const rows of withGa) {
      const asked: string[] = [];
      await rolledBack(pool, async (db) => {
        const recording: Queryable = {
          query: ((q: string | { text: string }, values?: unknown[]) => {
            asked.push(typeof q === 'string' ? q : q.text);
            return db.query(q as string, values);
          }) as Queryable['query'],
        };
        await deriveBatchGaCalls(recording, node, rows);
      });
      expect(asked.length).to.be.greaterThan(0);
      expect(asked.filter((text) => /\bFROM transactions\b/i.test(text))).to.deep.equal([]);
    }
  });
});
