/**
 * @module Read-side SQL for chain statistics: the original's sizes, fees and counts over the stored chain, and ae_mdw's
 * statistics (/v3/stats*) over the tables of migration 1004.
 */
import type { Queryable } from '../connection/pool.ts';
import { keyset, type KeyWindow, type PageReader } from './positions.ts';
import { rangePage } from './range-page.ts';

/**
 * heightsContiguous is true when every height from 0 to the top is stored: as many key blocks as the top + 1, their
 * count kept by migration 1069's triggers (one row, where counting read key_blocks' whole index); false for an empty
 * database.
 */
export async function heightsContiguous(db: Queryable): Promise<boolean> {
  const { rows } = await db.query<{ contiguous: boolean | null }>(
    'SELECT (SELECT n FROM key_block_count) = (SELECT max(height) + 1 FROM key_blocks) AS contiguous',
  );
  return rows[0]?.contiguous ?? false;
}

/** sizeUpTo is the byte size of every transaction at or below a height. */
export async function sizeUpTo(db: Queryable, height: number): Promise<number> {
  // at or above the top, every stored transaction: the sizes migration 1015 keeps per type; below it, the size below
  // the next generation that migration 1046 keeps beside its first txi; a sum only where a sparse reload left no row
  const { rows } = await db.query<{ size: string | null }>(
    `SELECT CASE WHEN $1 >= (SELECT max(height) FROM key_blocks) THEN (SELECT sum(size) FROM tx_type_totals)
                 ELSE coalesce((SELECT size_before FROM generation_txis WHERE height = $1 + 1),
                               (SELECT sum(size) FROM transactions WHERE height <= $1)) END AS size`,
    [height],
  );
  return Number(rows[0]?.size ?? 0);
}

/** feesAt sums the fees of the transactions of one generation, as an exact decimal string. */
export async function feesAt(db: Queryable, height: number): Promise<string> {
  const { rows } = await db.query<{ fees: string }>(
    'SELECT coalesce(sum(fee), 0)::text AS fees FROM transactions WHERE height = $1',
    [height],
  );
  return rows[0]?.fees ?? '0';
}

/**
 * decodeErrorsSince counts contract calls above a height whose decoding failed: the calls of migration 1068's partial
 * index (those with a decode error) of those heights, never the other calls nor the heights below.
 */
export async function decodeErrorsSince(db: Queryable, height: number): Promise<number> {
  const { rows } = await db.query<{ n: string }>(
    'SELECT count(*) AS n FROM contract_calls WHERE height > $1 AND decode_error IS NOT NULL',
    [height],
  );
  return Number(rows[0]?.n ?? 0);
}

/** ping checks that the database answers. */
export async function ping(db: Queryable): Promise<void> {
  await db.query('SELECT 1');
}

/** A generation's statistics: its DeltaStat, the totals before it (TotalStat) and its last transaction. */
export interface GenerationStatsRow {
  readonly height: number;
  readonly delta: Record<string, string | number>;
  /** running totals through the generation below (null at height 0) */
  readonly before: Record<string, string | number> | null;
  readonly lastTxHash: string | null;
}

const DELTA_FIELDS = [
  'auctions_started',
  'names_activated',
  'names_expired',
  'names_revoked',
  'oracles_registered',
  'oracles_expired',
  'contracts_created',
  'block_reward::text',
  'dev_reward::text',
  'locked_in_auctions::text',
  'burned_in_auctions::text',
  'channels_opened',
  'channels_closed',
  'locked_in_channels::text',
  'accounts',
];
const TOTAL_FIELDS = [
  'active_auctions::int',
  'active_names::int',
  'active_oracles::int',
  'sum_contracts::int',
  'inactive_names::int',
  'inactive_oracles::int',
  'sum_block_reward::text',
  'sum_dev_reward::text',
  'sum_locked_in_auctions::text',
  'sum_burned_in_auctions::text',
  'open_channels::int',
  'sum_locked_in_channels::text',
  'sum_accounts::int',
  'sum_minted::text',
];
const object = (alias: string, fields: readonly string[]): string =>
  `json_build_object(${fields.map((f) => `'${f.split('::')[0]}', ${alias}.${f}`).join(', ')})`;

/** generationStatsPage reads up to n generations' statistics within a range of heights, walking from a height. */
export const generationStatsPage = rangePage<GenerationStatsRow>({
  name: 'mdw_v3_stats_generations',
  select: `SELECT g.height, ${object('g', DELTA_FIELDS)} AS delta,
              (SELECT ${object('b', TOTAL_FIELDS)} FROM stats_generations b WHERE b.height = g.height - 1) AS before,
              (SELECT t.hash FROM transactions t WHERE t.height <= g.height
                ORDER BY t.height DESC, t.micro_index DESC, t.tx_index DESC LIMIT 1) AS "lastTxHash"
             FROM stats_generations g`,
  key: 'g.height',
});

/**
 * statsVersion names the stored chain the statistics were derived from: the top key block, the
 * top generation's last micro block (a new micro block, a new key block or a fork changes it) and
 * the progress of the areas an upgrade derives for stored heights (a backfill's batch changes it).
 */
export async function statsVersion(db: Queryable): Promise<string> {
  const { rows } = await db.query<{ version: string }>({
    name: 'mdw_v3_stats_version',
    text: `SELECT (SELECT k.hash || ':' || coalesce((SELECT m.hash FROM micro_blocks m WHERE m.height = k.height
                                                      ORDER BY m.micro_index DESC LIMIT 1), '')
                     FROM key_blocks k ORDER BY k.height DESC LIMIT 1)
                  || coalesce((SELECT ':' || string_agg(area || '@' || next_height, ',' ORDER BY area)
                                 FROM derive_backfill), '') AS version`,
  });
  return rows[0]?.version ?? '';
}

/** An interval's count as stored (nonzero intervals only). */
export interface IntervalCount {
  readonly start: number;
  readonly count: string;
}

/** seriesIntervals reads every nonzero interval of a series, oldest first. */
export async function seriesIntervals(db: Queryable, series: string, intervalBy: string): Promise<IntervalCount[]> {
  const { rows } = await db.query<IntervalCount>({
    name: 'mdw_v3_stats_series',
    text: `SELECT start, count::text AS count FROM stats_intervals
            WHERE series = $1 AND interval_by = $2 ORDER BY start`,
    values: [series, intervalBy],
  });
  return rows;
}

/** A miner's key blocks in an interval. */
export interface MinerInterval {
  readonly start: number;
  readonly miner: string;
  readonly count: number;
}

/** Which intervals' miners: of one interval type (`day`, `week`, `month`), with starts within first..last. */
export interface MinerIntervalFilter {
  readonly intervalBy: string;
  readonly first: number;
  readonly last: number;
}

/**
 * minerIntervals reads the key blocks per beneficiary of the `n` intervals within first..last nearest the walk's start
 * (the interval starting at `from`, inclusive, else first going forward, last going backward) that hold any: index
 * 1075 finds them, so a page reads its own intervals, not the range's.
 */
export const minerIntervals: PageReader<MinerIntervalFilter, number, MinerInterval> = async (
  db,
  { intervalBy, first, last },
  { walk, from, n },
) => {
  const forward = walk === 'forward';
  const [lo, hi] =
    from === undefined ? [first, last] : forward ? [Math.max(first, from), last] : [first, Math.min(last, from)];
  const { rows } = await db.query<MinerInterval>({
    name: `mdw_v3_stats_miner_intervals_${walk}`,
    // the window's two ends, not `start IN (…)`, which the planner may join to every miner row of the interval type
    text: `WITH w AS (SELECT DISTINCT start FROM stats_intervals
                       WHERE series LIKE 'miner:%' AND interval_by = $1 AND start BETWEEN $2 AND $3
                       ORDER BY start ${forward ? 'ASC' : 'DESC'} LIMIT $4)
           SELECT start, substr(series, 7) AS miner, count::int AS count FROM stats_intervals
            WHERE series LIKE 'miner:%' AND interval_by = $1
              AND start BETWEEN (SELECT min(start) FROM w) AND (SELECT max(start) FROM w)`,
    values: [intervalBy, lo, hi, n],
  });
  return rows;
};

/** The stored chain's first and last block times (ms), or undefined when nothing is stored. */
export async function chainTimeRange(db: Queryable): Promise<{ firstMs: number; lastMs: number } | undefined> {
  const { rows } = await db.query<{ first: string | null; last: string | null }>({
    name: 'mdw_v3_stats_time_range',
    text: `SELECT (SELECT time_ms FROM key_blocks ORDER BY height LIMIT 1)::text AS first,
                  greatest((SELECT time_ms FROM key_blocks ORDER BY height DESC LIMIT 1),
                           (SELECT max(time_ms) FROM micro_blocks
                             WHERE height = (SELECT max(height) FROM key_blocks)))::text AS last`,
  });
  const r = rows[0];
  return r?.first && r.last ? { firstMs: Number(r.first), lastMs: Number(r.last) } : undefined;
}

/** A beneficiary's rewards. */
export interface MinerReward {
  readonly miner: string;
  readonly totalReward: string;
}

/**
 * minersPage reads up to n miners walking from one (inclusive) in ae_mdw's order, that of their
 * public keys: base58 keeps the order of numbers of the same length, so length, then text byte by byte.
 */
export async function minersPage(db: Queryable, { walk, from, n }: KeyWindow<string>): Promise<MinerReward[]> {
  const ks = keyset(
    ['length(m.miner)', 'm.miner COLLATE "C"'],
    walk,
    from === undefined ? undefined : 'length($2), $2',
  );
  const values: unknown[] = [n];
  if (from !== undefined) values.push(from);
  const { rows } = await db.query<MinerReward>({
    name: `mdw_v3_stats_miners_${walk}${from === undefined ? '' : '_from'}`,
    text: `SELECT m.miner, m.total_reward::text AS "totalReward" FROM stats_miners m
            WHERE ${ks.where} ORDER BY ${ks.order} LIMIT $1`,
    values,
  });
  return rows;
}

/** The figures of /v3/stats. */
export interface OverallStats {
  readonly minersCount: number;
  /** the accounts whose AE balance is above 0 (migration 1007) */
  readonly holdersCount: number;
  readonly maxTps: string | null;
  readonly maxTpsBlockHash: string | null;
  /** transactions and their fees in the last 24 hours before `nowMs`, and in the 24 hours before those */
  readonly last: { readonly count: number; readonly fees: string };
  readonly previous: { readonly count: number; readonly fees: string };
}

/**
 * overallStats reads /v3/stats' figures; the 24-hour windows end at `nowMs`. The highest tps is the highest
 * generation's best through it (migration 1155): one probe, during a catch-up too.
 */
export async function overallStats(db: Queryable, nowMs: number): Promise<OverallStats> {
  const window = (from: string, to: string): string =>
    `(SELECT json_build_object('count', count(*), 'fees', coalesce(sum(t.fee), 0)::text)
        FROM micro_blocks m JOIN transactions t ON t.height = m.height AND t.micro_index = m.micro_index
       WHERE m.time_ms >= ${from} AND m.time_ms < ${to})`;
  const { rows } = await db.query<OverallStats>({
    name: 'mdw_v3_stats_overall',
    text: `SELECT (SELECT count(*) FROM stats_miners)::int AS "minersCount",
                  (SELECT holders FROM account_holders)::int AS "holdersCount",
                  best.tps::text AS "maxTps", k.hash AS "maxTpsBlockHash",
                  ${window('$1::bigint - 86400000', '$1::bigint')} AS last,
                  ${window('$1::bigint - 172800000', '$1::bigint - 86400000')} AS previous
             FROM (SELECT 1) one
             LEFT JOIN LATERAL (SELECT g.best_tps AS tps, g.best_tps_height FROM stats_generations g
                                 ORDER BY g.height DESC LIMIT 1) best ON true
             LEFT JOIN key_blocks k ON k.height = best.best_tps_height`,
    values: [nowMs],
  });
  return rows[0]!;
}
