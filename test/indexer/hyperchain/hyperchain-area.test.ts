/**
 * @module Unknown is data (issue 45): a hyperchain whose consensus contracts answer in a shape this version does not
 * read, or whose node fails a boundary's dry-run, is loaded to its top all the same; its hyperchain area is reported
 * failing with the reason (`/mdw/v3/status`'s `mdw_failed_areas`) and derived from the stored key blocks by the
 * backfill once the reader reads again, after which `-v --full` is clean and the rows equal the devnode's state.
 */
import { expect } from 'chai';
import pino from 'pino';
import prom from 'prom-client';
import type { Config } from '../../../src/config/middleware.ts';
import { migrate } from '../../../src/db/schema/migrator.ts';
import { createWritePool, type Pool } from '../../../src/db/connection/pool.ts';
import { pendingBackfills } from '../../../src/db/queries/pending-backfills.ts';
import { storedTotals } from '../../../src/db/queries/sync-state.ts';
import { contractReaders } from '../../../src/indexer/contracts/aexn-detector.ts';
import type { BytecodeEncoder } from '../../../src/indexer/contracts/contract-decoder.ts';
import { DeriveBackfill } from '../../../src/indexer/derived/derive-backfill.ts';
import { transferRulesOf } from '../../../src/indexer/derived/internal-transfers.ts';
import { detectHyperchain } from '../../../src/indexer/hyperchain/detect.ts';
import { HyperchainReader, type HyperchainReaderDeps } from '../../../src/indexer/hyperchain/reader.ts';
import { guardSchema } from '../../../src/indexer/identity/guard.ts';
import { verifyChain } from '../../../src/indexer/maintenance/verify.ts';
import { createIndexerMetrics } from '../../../src/indexer/metrics.ts';
import { SyncGauges } from '../../../src/indexer/sync/sync-gauges.ts';
import { Follower } from '../../../src/indexer/sync/follower.ts';
import { NodeClient } from '../../../src/node/client.ts';
import { PRUNED } from '../../../src/node/dry-run.ts';
import { startHyperchain, type TestHyperchain } from '../../support/hyperchain.ts';
import { rowsApart } from '../../integration/indexer/support/schema-rows.ts';
import { FULL_VERIFY_BATCH } from '../../support/verify-batch.ts';
import { expectDevnodeState } from './oracle.ts';

const silent = pino({ level: 'silent' });

/** A schema of the test's hyperchain, migrated and guarded as the populator does, with the node and its readers. */
interface Loaded {
  readonly cfg: Config;
  readonly pool: Pool;
  readonly node: NodeClient;
  readonly readers: ReturnType<typeof contractReaders>;
}

describe('the hyperchain area: a consensus read this version cannot make does not stop the chain', function () {
  this.timeout(300_000);
  let hc: TestHyperchain;
  const pools: Pool[] = [];

  before(async () => {
    // 4 epochs and 3 heights: the dry-run case fails at epoch 3's end and still has an epoch after it to derive later
    hc = await startHyperchain({ epochs: 4, extra: 3, seed: 'hyperchain-area' });
  });
  after(async () => {
    for (const pool of pools) await pool.end();
    await hc?.close();
  });

  async function open(schema: string): Promise<Loaded> {
    const cfg = hc.config({ DATABASE_SCHEMA: schema });
    await guardSchema(cfg, silent, {
      writes: true,
      waitForNodes: true,
      migrate: () => migrate({ databaseUrl: cfg.databaseUrl, schema }, silent),
    });
    const pool = createWritePool(cfg, 'hyperchain-area', silent, 3);
    pools.push(pool);
    const node = new NodeClient({ url: cfg.nodeUrls[0]!, timeoutMs: 30_000 }, silent);
    return { cfg, pool, node, readers: contractReaders(cfg, pool, node) };
  }

  /** reader is a hyperchain reader asking through `node` and `decoder` (the test's wrappers of the real ones). */
  const reader = (
    { cfg }: Loaded,
    node: HyperchainReaderDeps['node'],
    decoder: HyperchainReaderDeps['decoder'],
  ): HyperchainReader =>
    new HyperchainReader({
      node,
      decoder,
      detect: () => detectHyperchain({ urls: cfg.nodeUrls, timeoutMs: 30_000 }),
    });

  /** followToTop loads the chain as the populator's follower does, until it stored the node's top. */
  async function followToTop({ cfg, pool, node, readers }: Loaded, hyperchain: HyperchainReader): Promise<void> {
    const metrics = createIndexerMetrics(new prom.Registry());
    const follower = new Follower({
      cfg,
      log: silent,
      poll: node,
      loader: {
        pool,
        node,
        ...readers,
        schema: cfg.databaseSchema,
        concurrency: 4,
        log: silent,
        metrics,
        transferRules: await transferRulesOf(cfg, { hyperchain: true }),
        hyperchain,
      },
      gauges: new SyncGauges(metrics),
      signal: new AbortController().signal,
    });
    while ((await follower.step()) === 'busy');
  }

  /**
   * backfill runs the populator's backfill of derived areas until it has nothing left or an area fails: the hyperchain
   * area, and the balances and internal calls a catch-up leaves to it
   */
  async function backfill({ cfg, pool, node }: Loaded, hyperchain: HyperchainReader): Promise<void> {
    const derive = new DeriveBackfill({
      pool,
      log: silent,
      rules: await transferRulesOf(cfg, { hyperchain: true }),
      balances: node,
      internalCalls: node,
      hyperchain,
      batchHeights: cfg.batchSize,
      schema: cfg.databaseSchema,
    });
    while (await derive.step());
  }

  /** the schema the first expectClean verified with `-v --full`: the other load is compared with it */
  let verifiedFull: string | undefined;

  /**
   * expectClean checks a load against the node: the first with `-v --full`, the other load of the same chain row by
   * row against that one as `-v --full` compares (rowsApart), its balances too (which `-v --full` checks against the
   * node's) — and each against the devnode's hyperchain state
   */
  async function expectClean({ cfg, pool }: Loaded): Promise<void> {
    const schema = cfg.databaseSchema;
    if (verifiedFull === undefined) {
      const lines: string[] = [];
      const full = hc.config({ ...FULL_VERIFY_BATCH, DATABASE_SCHEMA: schema });
      const report = await verifyChain({ cfg: full, log: silent, out: (l) => lines.push(l) }, { full: true });
      expect(lines).to.deep.equal([]);
      expect(report.differences).to.equal(0);
      expect(report.checked).to.equal(hc.devnode.height() + 1);
      verifiedFull = schema;
    } else {
      expect(await rowsApart(cfg.databaseUrl, verifiedFull, schema)).to.deep.equal([]);
      // the balances rowsApart leaves to the node's answers, both ways (their ids are keys, not numbers)
      for (const [table, columns] of [
        ['account_balances', 'height, account_id, balance'],
        ['account_balance_changes', 'account_id, height, micro_index, tx_index, seq, kind, tx_hash, delta, balance'],
      ])
        for (const [from, to] of [
          [verifiedFull, schema],
          [schema, verifiedFull],
        ])
          expect(
            await hc.query(
              schema,
              `SELECT ${columns} FROM "${from}".${table} EXCEPT SELECT ${columns} FROM "${to}".${table} LIMIT 3`,
            ),
            `${table} only in ${from}`,
          ).to.deep.equal([]);
      const { rows } = await pool.query<{ n: number }>('SELECT count(*)::int AS n FROM account_balance_changes');
      expect(rows[0]!.n, 'balance changes stored').to.be.above(0);
    }
    await expectDevnodeState(hc, schema);
  }

  async function count(schema: string, table: string): Promise<number> {
    return (await hc.query<{ n: number }>(schema, `SELECT count(*)::int AS n FROM ${table}`))[0]!.n;
  }

  it('loads to the top past an epoch_info of another shape, says why, and derives the epochs once it reads them', async () => {
    const loaded = await open('newer_contract');
    const real = loaded.readers.decoder;
    // a newer election contract: its epoch_info record has a fifth field
    let newer = true;
    const encoder = (code: string): BytecodeEncoder => {
      const encoding = real.encoder(code);
      return {
        encodeCall: (fn, args) => encoding.encodeCall(fn, args),
        decodeCall: (data) => encoding.decodeCall(data),
        decodeResult(fn, data, type) {
          const value = encoding.decodeResult(fn, data, type);
          if (!newer || fn !== 'epoch_info') return value;
          const [epoch, info] = value as [unknown, unknown[]];
          return [epoch, [...info, 'a field this version does not know']];
        },
      };
    };
    const hyperchain = reader(loaded, loaded.node, { encoder });

    await followToTop(loaded, hyperchain);
    const schema = loaded.cfg.databaseSchema;
    expect(await count(schema, 'key_blocks')).to.equal(hc.devnode.height() + 1);
    expect(await count(schema, 'hc_epochs')).to.equal(0);
    expect(await count(schema, 'hc_produced')).to.equal(0);
    expect((await storedTotals(loaded.pool)).failedAreas.map(({ since: _, ...a }) => a)).to.deep.equal([
      { area: 'hyperchain', from: 0, error: 'heights 0-9: epoch_info record: expected a tuple of 4' },
    ]);
    const pending = (await pendingBackfills(loaded.pool)).find((p) => p.area === 'hyperchain');
    expect(pending).to.include({ next: 0, to: hc.devnode.height() });

    // a version that reads the newer contract
    newer = false;
    await backfill(loaded, hyperchain);
    expect(await pendingBackfills(loaded.pool)).to.deep.equal([]);
    await expectClean(loaded);
  });

  it('loads to the top past a boundary whose dry-run failed, and derives that epoch and those after it later', async () => {
    const loaded = await open('dry_run_failed');
    // batches of BATCH_SIZE 10 heights, an epoch each: the end of epoch 3 opens the batch of heights 30-39
    const at = 3 * hc.epochLength;
    const boundary = hc.devnode.chain.keyBlocks[at]!.hash;
    // the node keeps no state at the end of epoch 3, once (another node, or the same after a restore, answers later)
    let failures = 1;
    const node: HyperchainReaderDeps['node'] = {
      dryRun: (top, calls) =>
        top === boundary && failures-- > 0 ? Promise.resolve(PRUNED) : loaded.node.dryRun(top, calls),
      contractCode: (id) => loaded.node.contractCode(id),
    };
    const hyperchain = reader(loaded, node, loaded.readers.decoder);

    await followToTop(loaded, hyperchain);
    const schema = loaded.cfg.databaseSchema;
    expect(await count(schema, 'key_blocks')).to.equal(hc.devnode.height() + 1);
    // the epochs whose boundaries came before are written with their batches; from the failed one on, none
    const epochs = await hc.query<{ epoch: number }>(schema, 'SELECT epoch FROM hc_epochs ORDER BY epoch');
    expect(epochs.map((e) => e.epoch)).to.deep.equal([1, 2, 3]);
    expect(await count(schema, 'hc_produced')).to.equal(at);
    expect((await storedTotals(loaded.pool)).failedAreas.map(({ since: _, ...a }) => a)).to.deep.equal([
      {
        area: 'hyperchain',
        from: at,
        error: `heights ${at}-${at + 9}: the node keeps no state at block ${boundary} (hyperchain epoch)`,
      },
    ]);
    // `mdw -v` counts the failing area as a difference, naming it
    const lines: string[] = [];
    const report = await verifyChain({ cfg: loaded.cfg, log: silent, out: (l) => lines.push(l) }, {});
    expect(report.differences).to.equal(1);
    expect(lines.filter((l) => l.startsWith('derived area hyperchain fails'))).to.have.length(1);

    await backfill(loaded, hyperchain);
    expect(await pendingBackfills(loaded.pool)).to.deep.equal([]);
    const derived = await hc.query<{ epoch: number }>(schema, 'SELECT epoch FROM hc_epochs ORDER BY epoch');
    expect(derived.map((e) => e.epoch).at(-1), 'an epoch after the failed one derived').to.be.above(4);
    await expectClean(loaded);
  });
});
