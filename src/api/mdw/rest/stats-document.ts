/** @module The statistics' part of the /v3/api document: the schemas of ae_mdw's stats answers. Pure. */

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
  TopMiners24h: { type: 'array', items: object({ miner: ak, blocks_mined: int }) },
  /** with `miners_count`, or on a hyperchain `validators_count` instead (ae_mdw's) */
  Stats: countedStats({
    holders_count: int,
    fees_trend: num,
    last_24hs_average_transaction_fees: num,
    last_24hs_transactions: int,
    max_transactions_per_second: num,
    max_transactions_per_second_block_hash: { type: 'string', pattern: '^kh_' },
    transactions_trend: num,
    milliseconds_per_block: { type: 'integer', nullable: true },
  }),
};

/** countedStats is /v3/stats' object: its fields, and either count of block producers. */
function countedStats(properties: Record<string, unknown>): Record<string, unknown> {
  const stats = object(properties);
  return {
    ...stats,
    properties: { ...properties, miners_count: int, validators_count: int },
    oneOf: [{ required: ['miners_count'] }, { required: ['validators_count'] }],
  };
}
