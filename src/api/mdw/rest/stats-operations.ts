/** @module The statistics' part of the /v3 route table: ae_mdw's stats operations and their resources (stats.ts). */
import { page, type V3Operation } from './operation.ts';
import { getTopMiners24h } from '../resources/top-miners.ts';
import {
  getDeltaStats,
  getMinerStats,
  getStats,
  getTopMinerStats,
  getTotalStats,
  getTotalTransactionsStats,
  seriesStats,
  type SeriesName,
} from '../resources/stats.ts';
import { DELTA_STAT, MINER, STAT, STATS, TOP_MINER_STAT, TOTAL_STAT } from '../../../shapes/v3/shapes-stats.ts';

const SERIES_PARAMS = ['statsLimit', 'cursor', 'direction', 'rev', 'scope', 'query:interval_by'] as const;
const DATES = ['query:min_start_date', 'query:max_start_date'] as const;

/** series is the operation of the time series `/stats/<name>`. */
const series = (
  name: SeriesName,
  operationId: string,
  summary: string,
  extra: V3Operation['params'] = [],
): V3Operation => ({
  path: `/stats/${name}`,
  operationId,
  summary,
  params: [...SERIES_PARAMS, ...DATES, ...extra],
  response: page(STAT),
  resource: seriesStats(name),
});

/** STATS_OPERATIONS: every /v3/stats route. */
export const STATS_OPERATIONS: readonly V3Operation[] = [
  {
    path: '/stats',
    operationId: 'GetStats',
    summary: 'Figures of the last 24 hours and of all time',
    params: [],
    response: STATS,
    resource: getStats,
  },
  {
    path: '/stats/delta',
    operationId: 'GetDeltaStats',
    summary: 'What happened in each generation',
    params: ['statsLimit', 'cursor', 'direction', 'rev', 'scope'],
    response: page(DELTA_STAT),
    resource: getDeltaStats,
  },
  {
    path: '/stats/total',
    operationId: 'GetTotalStats',
    summary: 'Totals at each generation',
    params: ['statsLimit', 'cursor', 'direction', 'rev', 'scope'],
    response: page(TOTAL_STAT),
    resource: getTotalStats,
  },
  {
    path: '/stats/miners',
    operationId: 'GetMinerStats',
    summary: 'Rewards per beneficiary',
    params: ['statsLimit', 'cursor', 'direction', 'rev'],
    response: page(MINER),
    resource: getMinerStats,
  },
  {
    path: '/stats/miners/top',
    operationId: 'GetTopMinerStats',
    summary: 'Key blocks per beneficiary per interval',
    params: [...SERIES_PARAMS, ...DATES, 'query:type'],
    response: page(TOP_MINER_STAT),
    resource: getTopMinerStats,
  },
  {
    path: '/stats/miners/top-24h',
    operationId: 'GetTopMiners24hs',
    summary: 'Key blocks per beneficiary in the last 24 hours',
    params: [],
    response: 'TopMiners24h',
    resource: getTopMiners24h,
  },
  series('transactions', 'GetTransactionsStats', 'Transactions per interval', ['query:tx_type']),
  {
    path: '/stats/transactions/total',
    operationId: 'GetTotalTransactionsStats',
    summary: 'Transactions in a period',
    params: ['scope', ...DATES, 'query:tx_type'],
    response: 'integer',
    resource: getTotalTransactionsStats,
  },
  series('blocks', 'GetBlocksStats', 'Blocks per interval', ['query:type']),
  series('names', 'GetNamesStats', 'Names activated per interval'),
  series('contracts', 'GetContractsStats', 'Contracts created per interval'),
  series('aex9-transfers', 'GetAex9TransfersStats', 'AEX-9 transfers per interval'),
  series('total-accounts', 'GetTotalAccountsStats', 'Accounts seen for the first time per interval'),
  series('active-accounts', 'GetActiveAccountsStats', 'Accounts active per interval'),
  series('difficulty', 'GetDifficultyStats', 'Average key block difficulty per interval'),
  series('hashrate', 'GetHashrateStats', 'Average hashrate per interval'),
];
