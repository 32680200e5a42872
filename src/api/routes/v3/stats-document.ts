/** @module The statistics' part of the /v3/api document: ae_mdw's stats operations and their answers. Pure. */
import type { V3Operation } from './api-document.ts';

const SERIES_PARAMS = ['statsLimit', 'cursor', 'direction', 'rev', 'scope', 'query:interval_by'] as const;
const DATES = ['query:min_start_date', 'query:max_start_date'] as const;

const series = (
  path: string,
  operationId: string,
  summary: string,
  extra: V3Operation['params'] = [],
): V3Operation => ({
  path,
  operationId,
  summary,
  params: [...SERIES_PARAMS, ...DATES, ...extra],
  response: 'Page<Stat>',
});

/** STATS_OPERATIONS: every /v3/stats route. */
export const STATS_OPERATIONS: readonly V3Operation[] = [
  {
    path: '/stats',
    operationId: 'GetStats',
    summary: 'Figures of the last 24 hours and of all time',
    params: [],
    response: 'Stats',
  },
  {
    path: '/stats/delta',
    operationId: 'GetDeltaStats',
    summary: 'What happened in each generation',
    params: ['statsLimit', 'cursor', 'direction', 'rev', 'scope'],
    response: 'Page<DeltaStat>',
  },
  {
    path: '/stats/total',
    operationId: 'GetTotalStats',
    summary: 'Totals at each generation',
    params: ['statsLimit', 'cursor', 'direction', 'rev', 'scope'],
    response: 'Page<TotalStat>',
  },
  {
    path: '/stats/miners',
    operationId: 'GetMinerStats',
    summary: 'Rewards per beneficiary',
    params: ['statsLimit', 'cursor', 'direction', 'rev'],
    response: 'Page<Miner>',
  },
  {
    path: '/stats/miners/top',
    operationId: 'GetTopMinerStats',
    summary: 'Key blocks per beneficiary per interval',
    params: [...SERIES_PARAMS, ...DATES, 'query:type'],
    response: 'Page<TopMinerStat>',
  },
  series('/stats/transactions', 'GetTransactionsStats', 'Transactions per interval', ['query:tx_type']),
  {
    path: '/stats/transactions/total',
    operationId: 'GetTotalTransactionsStats',
    summary: 'Transactions in a period',
    params: ['scope', ...DATES, 'query:tx_type'],
    response: 'integer',
  },
  series('/stats/blocks', 'GetBlocksStats', 'Blocks per interval', ['query:type']),
  series('/stats/names', 'GetNamesStats', 'Names activated per interval'),
  series('/stats/contracts', 'GetContractsStats', 'Contracts created per interval'),
  series('/stats/aex9-transfers', 'GetAex9TransfersStats', 'AEX-9 transfers per interval'),
  series('/stats/total-accounts', 'GetTotalAccountsStats', 'Accounts seen for the first time per interval'),
  series('/stats/active-accounts', 'GetActiveAccountsStats', 'Accounts active per interval'),
  series('/stats/difficulty', 'GetDifficultyStats', 'Average key block difficulty per interval'),
  series('/stats/hashrate', 'GetHashrateStats', 'Average hashrate per interval'),
];

const int = { type: 'integer' } as const;
const num = { type: 'number' } as const;
const date = { type: 'string', pattern: '^\\d{4}-\\d{2}-\\d{2}$' } as const;
const big = { oneOf: [int, { type: 'string', pattern: '^-?[0-9]+$' }] } as const;
const txHash = { type: 'string', pattern: '^th_', nullable: true } as const;
const ak = { type: 'string', pattern: '^ak_' } as const;

function object(properties: Record<string, unknown>): Record<string, unknown> {
  return { type: 'object', required: Object.keys(properties), properties, additionalProperties: true };
}

/** STATS_SCHEMAS: the answers' shapes. */
export const STATS_SCHEMAS: Record<string, unknown> = {
  Stat: object({ count: big, end_date: date, start_date: date }),
  DeltaStat: object({
    height: int,
    auctions_started: int,
    block_reward: big,
    burned_in_auctions: big,
    channels_closed: int,
    channels_opened: int,
    contracts_created: int,
    dev_reward: big,
    names_activated: int,
    names_expired: int,
    names_revoked: int,
    oracles_expired: int,
    oracles_registered: int,
    last_tx_hash: txHash,
    locked_in_auctions: big,
    locked_in_channels: big,
    accounts: int,
  }),
  TotalStat: object({
    height: int,
    contracts: int,
    locked_in_auctions: big,
    burned_in_auctions: big,
    locked_in_channels: big,
    active_auctions: int,
    active_names: int,
    inactive_names: int,
    active_oracles: int,
    inactive_oracles: int,
    open_channels: int,
    sum_block_reward: big,
    sum_dev_reward: big,
    total_token_supply: big,
    last_tx_hash: txHash,
    accounts: int,
  }),
  Miner: object({ miner: ak, total_reward: big }),
  TopMinerStat: object({ miner: ak, blocks_mined: int, start_date: date, end_date: date }),
  Stats: object({
    miners_count: int,
    fees_trend: num,
    last_24hs_average_transaction_fees: num,
    last_24hs_transactions: int,
    max_transactions_per_second: num,
    max_transactions_per_second_block_hash: { type: 'string', pattern: '^kh_' },
    transactions_trend: num,
  }),
};
