/** @module The statistics' part of the /v3 route table: ae_mdw's stats operations and their resources (stats.ts). */
import type { V3Operation } from './operation.ts';
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
  resource: seriesStats(name),
});

/** STATS_OPERATIONS: every /v3/stats route. */
export const STATS_OPERATIONS: readonly V3Operation[] = [
  {
    path: '/stats',
    operationId: 'GetStats',
    summary: 'Figures of the last 24 hours and of all time',
    params: [],
    resource: getStats,
  },
  {
    path: '/stats/delta',
    operationId: 'GetDeltaStats',
    summary: 'What happened in each generation',
    params: ['statsLimit', 'cursor', 'direction', 'rev', 'scope'],
    resource: getDeltaStats,
  },
  {
    path: '/stats/total',
    operationId: 'GetTotalStats',
    summary: 'Totals at each generation',
    params: ['statsLimit', 'cursor', 'direction', 'rev', 'scope'],
    resource: getTotalStats,
  },
  {
    path: '/stats/miners',
    operationId: 'GetMinerStats',
    summary: 'Rewards per beneficiary',
    params: ['statsLimit', 'cursor', 'direction', 'rev'],
    resource: getMinerStats,
  },
  {
    path: '/stats/miners/top',
    operationId: 'GetTopMinerStats',
    summary: 'Key blocks per beneficiary per interval',
    params: [...SERIES_PARAMS, ...DATES, 'query:type'],
    resource: getTopMinerStats,
  },
  {
    path: '/stats/miners/top-24h',
    operationId: 'GetTopMiners24hs',
    summary: 'Key blocks per beneficiary in the last 24 hours',
    params: [],
    resource: getTopMiners24h,
  },
  series('transactions', 'GetTransactionsStats', 'Transactions per interval', ['query:tx_type']),
  {
    path: '/stats/transactions/total',
    operationId: 'GetTotalTransactionsStats',
    summary: 'Transactions in a period',
    params: ['scope', ...DATES, 'query:tx_type'],
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
