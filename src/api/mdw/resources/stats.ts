/**
 * @module /v3/stats and every series under it: per-generation deltas and totals paged by height,
 * time series per day, week or month (from memory per stored chain), miners and top miners.
 */
import { isEncoded } from '../../../chain/encoding.ts';
import type { Json } from '../../../chain/json.ts';
import { intervalOf, type IntervalBy } from '../../../chain/stats-intervals.ts';
import type { Pool } from '../../../db/connection/pool.ts';
import { keyBlockDays, keyBlockTimes, topHeight } from '../../../db/queries/blocks.ts';
import { generationStatsPage, minerIntervals, minersPage, overallStats } from '../../../db/queries/stats.ts';
import { INDEX_CURSOR, cursorCodec, type CursorCodec } from './cursors.ts';
import { itemsPage } from './list.ts';
import { page, resource, type Answers, type Item, type Resource } from './resource.ts';
import { v3BadRequest, v3NotFound } from './mdw-errors.ts';
import { notOnHyperchain } from './hyperchain-guard.ts';
import { currentValidatorsCount } from './hyperchain-validators.ts';
import { paginate, type Fetch, type Query } from './page.ts';
import { parseId, parsePaging, type Paging } from './mdw-params.ts';
import { parseSeriesQuery, type SeriesQuery } from './stats-params.ts';
import { deltaStatObject, totalStatObject } from '../../../shapes/v3/render-stats.ts';
import { arrayFetch, averageSeries, seriesFetch, statJson, trends } from './stats-series.ts';
import type { StatsSnapshot } from './stats-source.ts';
import { DELTA_STAT, TOTAL_STAT, MINER, TOP_MINER_STAT, STATS, STAT } from '../../../shapes/v3/shapes-stats.ts';

/** ae_mdw's page sizes of the statistics. */
const STATS_LIMIT = { maxLimit: 1000 } as const;
/** ae_mdw's dates when nothing is stored: the day of mainnet's genesis. */
const EMPTY_CHAIN_DAY = 17876;
const MAX_HEIGHT = 2 ** 31 - 1;

/** The time series and what each counts; `average` ones are per key block. */
interface SeriesSpec {
  readonly name: (q: SeriesQuery) => string;
  readonly extra?: readonly ('tx_type' | 'type')[];
  readonly average?: boolean;
}
const SERIES = {
  transactions: { name: (q) => (q.txType ? `transactions:${q.txType}` : 'transactions'), extra: ['tx_type'] },
  blocks: { name: (q) => `blocks:${q.blockType ?? 'all'}`, extra: ['type'] },
  names: { name: () => 'names' },
  contracts: { name: () => 'contracts' },
  'aex9-transfers': { name: () => 'aex9_transfers' },
  'total-accounts': { name: () => 'total_accounts' },
  'active-accounts': { name: () => 'active_accounts' },
  difficulty: { name: () => 'difficulty', average: true },
  hashrate: { name: () => 'hashrate', average: true },
} as const satisfies Record<string, SeriesSpec>;

/** SeriesName: a time series, `/stats/<name>`. */
export type SeriesName = keyof typeof SERIES;

/**
 * getStats: figures of the last 24 hours and of all time; on a hyperchain `validators_count` (the current epoch's
 * validators) instead of `miners_count`, as ae_mdw.
 */
export const getStats = resource(STATS, async ({ pool, hyperchain }) => {
  const s = await overallStats(pool, Date.now());
  if (s.maxTpsBlockHash === null) throw v3NotFound('no stats');
  const top = (await topHeight(pool)) ?? -1;
  // two key blocks by height, not the range between them
  const times = await keyBlockTimes(pool, [1, top]);
  return {
    ...trends(s),
    max_transactions_per_second: Number(s.maxTps),
    max_transactions_per_second_block_hash: s.maxTpsBlockHash,
    ...((await hyperchain.isHyperchain())
      ? { validators_count: await currentValidatorsCount(pool) }
      : { miners_count: s.minersCount }),
    holders_count: s.holdersCount,
    milliseconds_per_block: millisecondsPerBlock(top, times.get(1), times.get(top)),
  };
});

/** millisecondsPerBlock is ae_mdw's: the time from key block 1 to the top over the top's height, whole ms. Pure. */
export function millisecondsPerBlock(
  top: number,
  firstMs: number | undefined,
  topMs: number | undefined,
): number | null {
  if (top < 1 || firstMs === undefined || topMs === undefined) return null;
  return Math.floor((topMs - firstMs) / top);
}

/** generationStats answers a page of per-generation statistics, each rendered by `render`. */
function generationStats(answers: Answers, render: typeof deltaStatObject): Resource {
  return resource(answers, async function getGenerationStats({ pool }, req) {
    const paging = parsePaging(req.query, STATS_LIMIT);
    // ae_mdw's generation statistics start at height 1
    const range = { first: Math.max(1, paging.scope?.first ?? 1), last: paging.scope?.last ?? MAX_HEIGHT };
    const page = await paginate(
      async (window) =>
        (await generationStatsPage(pool, range, window)).map((g) => ({ key: g.height, item: render(g) })),
      { ...paging, cursor: INDEX_CURSOR.decode(paging.cursor) },
    );
    return itemsPage(page, INDEX_CURSOR.encode, withLimit(req.query, paging));
  });
}

/** getDeltaStats: what happened in each generation. */
export const getDeltaStats = generationStats(page(DELTA_STAT), deltaStatObject);
/** getTotalStats: totals at each generation. */
export const getTotalStats = generationStats(page(TOTAL_STAT), totalStatObject);

/** getMinerStats: rewards per beneficiary (a hyperchain has validators instead: ae_mdw's 400 there). */
export const getMinerStats = notOnHyperchain(page(MINER), async function getMinerStats({ pool }, req) {
  const paging = parsePaging(req.query, STATS_LIMIT);
  const cursor = paging.cursor === undefined ? undefined : cursorId(paging.cursor);
  const page = await paginate(
    async (window) =>
      (await minersPage(pool, window)).map((m) => ({
        key: m.miner,
        item: { miner: m.miner, total_reward: BigInt(m.totalReward) },
      })),
    { ...paging, cursor },
  );
  return itemsPage(page, (miner) => miner);
});

/** getTopMinerStats: key blocks per beneficiary per interval (ae_mdw's 400 on a hyperchain). */
export const getTopMinerStats = notOnHyperchain(
  page(TOP_MINER_STAT),
  async function getTopMinerStats({ pool, stats: source }, req) {
    const paging = parsePaging(req.query, STATS_LIMIT);
    const q = parseSeriesQuery(req.query, ['type']);
    const { first, last } = await intervalRange(await source.snapshot(), q, paging, pool);
    // n items from a cursor lie in the n + 1 intervals nearest it that hold any (each holds one or more; the cursor's
    // own may hold only items behind it): those are read and sorted, not the whole range
    const filter = { intervalBy: q.by, first, last };
    const fetch: Fetch<TopMinerKey, Item> = async (window) => {
      const { walk, from, n } = window;
      const items = (await minerIntervals(pool, filter, { walk, from: from?.start, n: n + 1 }))
        .map((r) => ({ key: r, item: topMinerJson(r, q.by) }))
        .sort((a, b) => compareTopMiner(a.key, b.key));
      return arrayFetch(items, compareTopMiner)(window);
    };
    const page = await paginate(fetch, { ...paging, cursor: TOP_MINER_CURSOR.decode(paging.cursor) });
    return itemsPage(page, TOP_MINER_CURSOR.encode);
  },
);

/** getTotalTransactionsStats: transactions in a period. */
export const getTotalTransactionsStats = resource('integer', async ({ pool, stats: source }, req) => {
  const paging = parsePaging(req.query, STATS_LIMIT);
  const q = parseSeriesQuery(req.query, ['tx_type']);
  const snapshot = await source.snapshot();
  const { first, last } = await intervalRange(snapshot, { ...q, by: 'day' }, paging, pool);
  const counts = await snapshot.series(q.txType ? `transactions:${q.txType}` : 'transactions', 'day');
  let total = 0n;
  for (const [start, count] of counts) if (start >= first && start <= last) total += count;
  return total;
});

/** seriesStats answers the time series `/stats/<path>`. */
export function seriesStats(path: SeriesName): Resource {
  const series: SeriesSpec = SERIES[path];
  return resource(page(STAT), async function getSeriesStats({ pool, stats: source }, req) {
    const paging = parsePaging(req.query, STATS_LIMIT);
    const q = parseSeriesQuery(req.query, series.extra);
    const snapshot = await source.snapshot();
    const { first, last } = await intervalRange(snapshot, q, paging, pool);
    const name = series.name(q);
    // the stored counts are kept per stored chain; only the page's intervals are rendered, whatever the range
    const counts = series.average
      ? await snapshot.memo(`average ${q.by} ${name}`, async () =>
          averageSeries(await snapshot.series(name, q.by), await snapshot.series('blocks:key', q.by)),
        )
      : await snapshot.series(name, q.by);
    const page = await paginate(
      seriesFetch(counts, first, last, (p) => statJson(p, q.by)),
      { ...paging, cursor: INDEX_CURSOR.decode(paging.cursor) },
    );
    return itemsPage(page, INDEX_CURSOR.encode);
  });
}

/**
 * intervalRange is the first and last interval a series request covers: its dates, else the stored
 * chain's first and last days, narrowed to a `gen:` scope's key block times as ae_mdw narrows them.
 */
async function intervalRange(
  snapshot: StatsSnapshot,
  q: SeriesQuery,
  paging: Paging,
  pool: Pool,
): Promise<{ first: number; last: number }> {
  const days = await snapshot.days();
  let first = q.minDay ?? days?.first ?? EMPTY_CHAIN_DAY;
  let last = q.maxDay ?? days?.last ?? EMPTY_CHAIN_DAY;
  const scope = paging.scope;
  if (scope) {
    const times = await keyBlockDays(pool, scope.first, scope.last);
    if (times) {
      first = Math.max(first, times.firstDay);
      last = Math.min(last, times.lastDay);
    }
  }
  return { first: intervalOf(first, q.by), last: intervalOf(last, q.by) };
}

/** withLimit is the request's parameters with its page size: ae_mdw's generation statistics' links always carry it. */
function withLimit(query: Query, paging: Paging): Query {
  return { ...query, limit: String(paging.limit) };
}

function cursorId(text: string): string {
  try {
    return parseId(text, ['ak']);
  } catch {
    throw v3BadRequest(`invalid cursor: ${text}`);
  }
}

type TopMinerKey = Awaited<ReturnType<typeof minerIntervals>>[number];

function topMinerJson(r: TopMinerKey, by: IntervalBy): Record<string, Json> {
  const { count, ...dates } = statJson({ start: r.start, count: BigInt(r.count) }, by);
  return { blocks_mined: count, end_date: dates.end_date, miner: r.miner, start_date: dates.start_date };
}

/** ae_mdw's order of top miners: interval, blocks mined, then the miner's key. */
function compareTopMiner(a: TopMinerKey, b: TopMinerKey): number {
  return (
    a.start - b.start ||
    a.count - b.count ||
    a.miner.length - b.miner.length ||
    (a.miner < b.miner ? -1 : a.miner > b.miner ? 1 : 0)
  );
}

export const TOP_MINER_CURSOR: CursorCodec<TopMinerKey> = cursorCodec({
  encode: (k) => `${k.start}-${k.count}-${k.miner}`,
  decode(text) {
    if (text === undefined) return undefined;
    const m = /^(\d{1,9})-(\d{1,9})-(ak_\w+)$/.exec(text);
    if (!m || !isEncoded(m[3], ['ak'])) throw v3BadRequest(`invalid cursor: ${text}`);
    return { start: Number(m[1]), count: Number(m[2]), miner: m[3] };
  },
});
