/** @module The shape tables of ae_mdw's statistics (render-stats.ts). */
import { asGraphQL, big, id, int, nullable, num, only, optional, shape, type Field } from '../shape-table.ts';

const date: Field = { kind: 'string', pattern: '^\\d{4}-\\d{2}-\\d{2}$' };

/** the fields a height's deltas and its totals share: the coins auctions and channels hold or burned */
const heightStat = {
  height: int,
  locked_in_auctions: big,
  burned_in_auctions: big,
  locked_in_channels: big,
  last_tx_hash: nullable(id('th')),
  accounts: only('openapi', int),
};

export const STAT = shape(
  { openapi: 'Stat', graphql: ['StartEndCountStats'] },
  // ae_mdw's GraphQL declares the count Int
  { count: asGraphQL('Int', big), end_date: date, start_date: date },
);

export const DELTA_STAT = shape(
  { openapi: 'DeltaStat', graphql: ['DeltaStats'] },
  {
    ...heightStat,
    auctions_started: int,
    block_reward: big,
    channels_closed: int,
    channels_opened: int,
    contracts_created: int,
    dev_reward: big,
    names_activated: int,
    names_expired: int,
    names_revoked: int,
    oracles_expired: int,
    oracles_registered: int,
  },
);

export const TOTAL_STAT = shape(
  { openapi: 'TotalStat', graphql: ['TotalStats'] },
  {
    ...heightStat,
    contracts: int,
    active_auctions: int,
    active_names: int,
    inactive_names: int,
    active_oracles: int,
    inactive_oracles: int,
    open_channels: int,
    sum_block_reward: big,
    sum_dev_reward: big,
    total_token_supply: big,
  },
);

export const MINER = shape({ openapi: 'Miner', graphql: ['MinersStats'] }, { miner: id('ak'), total_reward: big });

export const TOP_MINER_STAT = shape(
  { openapi: 'TopMinerStat', graphql: ['TopMinersStats'] },
  { miner: id('ak'), blocks_mined: int, start_date: date, end_date: date },
);

/** /stats/miners/top-24h answers a plain array of these */
export const TOP_MINER_24H = shape({ graphql: ['TopMiners24hStats'] }, { miner: id('ak'), blocks_mined: int });

export const STATS = shape(
  { openapi: 'Stats', graphql: ['Stats'] },
  {
    // one or the other: a hyperchain has validators (the current epoch's), not miners, as ae_mdw answers
    miners_count: optional(int),
    validators_count: optional(int),
    holders_count: only('openapi', int),
    fees_trend: num,
    last_24hs_average_transaction_fees: num,
    last_24hs_transactions: int,
    max_transactions_per_second: num,
    max_transactions_per_second_block_hash: id('kh'),
    transactions_trend: num,
    milliseconds_per_block: nullable(int),
    total_blocks: only('graphql', int),
  },
);
