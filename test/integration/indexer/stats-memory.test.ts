/**
 * @module The statistics a batch counts in memory (indexer/derived/stats-series.ts) against the stored derivation
 * (db/writes/stats-derive.ts, which backfills, -H reloads and `mdw -v` run): the same batch derived both ways
 * gives the same rows in every statistics table, compared with EXCEPT ALL both ways, and the comparison finds a
 * change on either side alone.
 */
import { expect } from 'chai';
import pino from 'pino';
import prom from 'prom-client';
import { createWritePool, type Pool, type PoolClient } from '../../../src/db/connection/pool.ts';
import { storedKeyBlockTargets } from '../../../src/db/writes/derive-backfill.ts';
import { NodeClient } from '../../../src/node/client.ts';
import { fetchGeneration } from '../../../src/indexer/sync/fetch.ts';
import { startPopulator } from '../../../src/indexer/sync/populator.ts';
import type { GenerationRows } from '../../../src/indexer/rows/rows.ts';
import { deriveStats, deriveStatsOfStored } from '../../../src/indexer/derived/stats.ts';
import { transformGeneration } from '../../../src/indexer/rows/transform.ts';
import { compareStoredDerivations } from '../../../src/indexer/maintenance/verify-derived.ts';
import { transferRulesOf, type TransferRules } from '../../../src/indexer/derived/internal-transfers.ts';
import { AccountNumbers } from '../../../src/db/writes/account-numbers.ts';
import type { BatchAppearances } from '../../../src/indexer/derived/stats-accounts.ts';
import { resolveRows } from '../../../src/indexer/rows/writer.ts';
import { startHarness, silent, type Harness } from './support/harness.ts';

/** The statistics' tables with rows per height, and the aggregates their triggers keep. */
const TABLES = [
  'stats_generations',
  'stats_series_counts',
  'stats_accounts',
  'stats_active_accounts',
  'stats_miner_rewards',
  'stats_intervals',
  'stats_miners',
];

/** Every row of every statistics table, as JSON text per table (numbers exact: numeric is written as it is). */
async function snapshot(db: PoolClient): Promise<Map<string, string>> {
  const out = new Map<string, string>();
  for (const t of TABLES) {
    const { rows } = await db.query<{ rows: string }>(`SELECT coalesce(json_agg(x), '[]')::text AS rows FROM ${t} x`);
    out.set(t, rows[0]!.rows);
  }
  return out;
}

/** Rows of each table found on one side only, EXCEPT ALL both ways, against the rows in `other`. */
async function differences(db: PoolClient, other: Map<string, string>): Promise<string[]> {
  const found: string[] = [];
  for (const t of TABLES) {
    const theirs = `SELECT * FROM json_populate_recordset(NULL::${t}, $1::json)`;
    for (const [a, b, side] of [
      [`SELECT * FROM ${t}`, theirs, 'stored path only'],
      [theirs, `SELECT * FROM ${t}`, 'memory path only'],
    ] as const) {
      const { rows } = await db.query<{ row: string }>(
        `SELECT row_to_json(d)::text AS row FROM ((${a}) EXCEPT ALL (${b})) d`,
        [other.get(t)],
      );
      for (const r of rows) found.push(`${t}: ${side}: ${r.row}`);
    }
  }
  return found;
}

describe('statistics counted in memory against the stored derivation', function () {
  this.timeout(120_000);
  let h: Harness;
  let pool: Pool;
  /** the top heights' generations as the populator has them in memory */
  let gens: GenerationRows[];
  /** the chain's transfer rules (the devnode's rewards) */
  let rules: TransferRules;
  /** their account rows as the writer stores them, with the ids' numbers */
  let appearances: BatchAppearances;
  const logged: { area?: string; msg?: string }[] = [];
  const FROM = 30;

  before(async () => {
    // the devnode's rewards (paid at once, where the default mainnet rules pay 180 blocks late): its key blocks pay
    // miners, whose series the batch counts
    h = await startHarness(59, 'stats-memory', {}, { REWARD_RULES: 'devnode' });
    const cfg = h.config();
    rules = await transferRulesOf(cfg, { hyperchain: false });
    // what the populator logs: a batch whose statistics failed would be derived again by its backfill, from the stored rows
    const log = pino(
      { level: 'info' },
      { write: (line: string) => void logged.push(JSON.parse(line) as { area?: string }) },
    );
    const populator = await startPopulator({ cfg, log, registry: new prom.Registry() });
    await populator.synced();
    await populator.stop();
    pool = createWritePool(cfg, 'stats-memory-test', silent, 2);
    const node = new NodeClient({ url: cfg.nodeUrls, timeoutMs: cfg.nodeTimeoutMs, attempts: 6 }, silent);
    gens = [];
    for (let height = FROM; height <= h.devnode.height(); height++)
      gens.push(transformGeneration(await fetchGeneration(node, height)));
    const resolved = await resolveRows(pool, gens);
    const numbers = new AccountNumbers();
    await numbers.resolve(
      pool,
      [...resolved.accountTxs, ...resolved.nameAccountTxs].map((r) => r.account),
    );
    appearances = { rows: [resolved.accountTxs, resolved.nameAccountTxs], numbers };
  });
  after(async () => {
    await pool?.end();
    await h?.close();
  });

  /**
   * bothWays derives the statistics of `batch` (the top heights, their statistics deleted first, so that nothing is
   * stored at or above them: the populator's case; with `below` 0 every height's, so that the batch is the first)
   * once counted in memory and once from the stored rows, each in a savepoint of one transaction that is rolled
   * back; `alter` runs before the stored derivation. Returns the differences of every row.
   */
  async function bothWays({
    batch = gens,
    seen = appearances,
    alter = async () => {},
    below = FROM,
  }: {
    batch?: readonly GenerationRows[];
    seen?: BatchAppearances;
    alter?: (db: PoolClient) => Promise<unknown>;
    below?: number;
  } = {}): Promise<string[]> {
    const db = await pool.connect();
    try {
      await db.query('BEGIN');
      for (const t of TABLES.slice(0, 5)) await db.query(`DELETE FROM ${t} WHERE height >= $1`, [below]);
      await db.query('SAVEPOINT memory');
      await deriveStats(db, batch, seen);
      // the insert trigger adds the intervals again for every later statement (migration 1004)
      const { rows } = await db.query<{ s: string | null }>(
        `SELECT current_setting('mdw.series_intervals', true) AS s`,
      );
      expect(rows[0]!.s ?? '').to.equal('');
      const memory = await snapshot(db);
      await db.query('ROLLBACK TO SAVEPOINT memory');
      await alter(db);
      await deriveStatsOfStored(db, await storedKeyBlockTargets(db, FROM, h.devnode.height()));
      return await differences(db, memory);
    } finally {
      await db.query('ROLLBACK');
      db.release();
    }
  }

  it('derives a batch to the same rows in every statistics table both ways (EXCEPT ALL both ways)', async () => {
    const counted = await pool.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM stats_series_counts WHERE height >= $1 AND series LIKE 'transactions:%'`,
      [FROM],
    );
    expect(counted.rows[0]!.n, 'the batch has transactions to count').to.be.greaterThan(0);
    // and the series counted from what the batch's statements return: its miners, names, contracts and AEX-9 events
    const derived = await pool.query<{ series: string }>(
      `SELECT DISTINCT CASE WHEN series LIKE 'miner:%' THEN 'miner' ELSE series END AS series FROM stats_series_counts
        WHERE height >= $1 AND (series IN ('names', 'contracts', 'aex9_transfers') OR series LIKE 'miner:%')`,
      [FROM],
    );
    expect(derived.rows.map((r) => r.series).sort()).to.deep.equal(['aex9_transfers', 'contracts', 'miner', 'names']);
    const accounts = await pool.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM stats_active_accounts WHERE height >= $1`,
      [FROM],
    );
    expect(accounts.rows[0]!.n, 'the batch has active accounts to count').to.be.greaterThan(0);
    const channels = await pool.query<{ opened: number; locked: string; closed: number }>(
      `SELECT sum(channels_opened)::int AS opened, sum(channels_closed)::int AS closed,
              sum(abs(locked_in_channels))::text AS locked FROM stats_generations WHERE height >= $1`,
      [FROM],
    );
    expect(channels.rows[0]!.opened, 'the batch opens channels').to.be.greaterThan(0);
    expect(channels.rows[0]!.closed, 'the batch closes channels').to.be.greaterThan(0);
    expect(channels.rows[0]!.locked, 'the batch locks amounts in channels').to.not.equal('0');
    // on top of the stored statistics of the heights below (accounts seen before, intervals begun), and as the first
    expect(await bothWays()).to.deep.equal([]);
    expect(await bothWays({ below: 0 })).to.deep.equal([]);
  });

  it("finds a generation's channel transaction missing on either side alone", async () => {
    const g = gens.findIndex((x) => x.transactions.some((t) => t.txType === 'ChannelCreateTx'));
    expect(g, 'a generation of the batch opens a channel').to.be.at.least(0);
    const create = gens[g]!.transactions.find((t) => t.txType === 'ChannelCreateTx')!;
    const fewer = gens.map((x, i) =>
      i === g
        ? {
            ...x,
            transactions: x.transactions.filter((t) => t !== create),
            channelEvents: x.channelEvents.filter((c) => c.txHash !== create.txHash),
          }
        : x,
    );
    const onlyStored = await bothWays({ batch: fewer });
    expect(
      onlyStored.some((d) => d.startsWith(`stats_generations: stored path only: {"height":${create.height},`)),
    ).to.equal(true);
    const onlyMemory = await bothWays({
      alter: (db) => db.query('DELETE FROM channel_events WHERE tx_hash = $1', [create.txHash]),
    });
    expect(
      onlyMemory.some((d) => d.startsWith(`stats_generations: memory path only: {"height":${create.height},`)),
    ).to.equal(true);
  });

  it('finds a change on either side alone: a transaction the memory lacks, a block the stored rows lack', async () => {
    // the memory side without the batch's last transaction (its row stays stored)
    const last = gens.at(-1)!;
    const fewer = [...gens.slice(0, -1), { ...last, transactions: last.transactions.slice(0, -1) }];
    const onlyStored = await bothWays({ batch: fewer });
    expect(
      onlyStored.some((d) => /^stats_series_counts: stored path only: .*"series":"transactions"/.test(d)),
    ).to.equal(true);
    expect(onlyStored.some((d) => /^stats_intervals: stored path only/.test(d))).to.equal(true);
    // the stored side without a micro block's transactions (the memory keeps them)
    const onlyMemory = await bothWays({
      alter: (db) => db.query('DELETE FROM transactions WHERE height = $1 AND micro_index = 0', [FROM + 1]),
    });
    expect(
      onlyMemory.some((d) => /^stats_series_counts: memory path only: .*"series":"transactions"/.test(d)),
    ).to.equal(true);
  });

  it("finds an account's appearances missing on either side alone", async () => {
    // an account the batch shows (the batch as the first: its appearances are the account's first)
    const [row] = appearances.rows[0]!.filter((r) => r.account.startsWith('ak_'));
    const account = appearances.numbers.number(row!.account);
    const without = {
      ...appearances,
      rows: appearances.rows.map((rows) => rows.filter((r) => r.account !== row!.account)),
    };
    const onlyStored = await bothWays({ seen: without, below: 0 });
    expect(onlyStored.some((d) => d.startsWith(`stats_accounts: stored path only: {"account":${account},`))).to.equal(
      true,
    );
    expect(onlyStored.some((d) => d.startsWith('stats_active_accounts: stored path only'))).to.equal(true);
    const onlyMemory = await bothWays({
      below: 0,
      alter: (db) => db.query('DELETE FROM account_transactions WHERE account = $1 AND height >= $2', [account, FROM]),
    });
    expect(onlyMemory.some((d) => d.startsWith(`stats_accounts: memory path only: {"account":${account},`))).to.equal(
      true,
    );
  });

  it("leaves nothing for `mdw -v` to find: what the populator counted in memory equals the stored derivation's", async () => {
    // every batch derived its statistics itself (none was left to the backfill's stored derivation); the balances
    // alone are the backfill's while the populator catches up (gathered: derive-backfill.ts)
    const gathered = new Set(['balances']);
    expect(logged.filter((l) => l.area !== undefined && !gathered.has(String(l.area)))).to.deep.equal([]);
    expect(
      await compareStoredDerivations(pool, 'mdw', rules, {
        shown: 5,
        progress: { log: silent, intervalMs: 10_000 },
      }),
    ).to.deep.equal({ differences: [] });
  });
});
