/** @module The shape tables of ae_mdw's blocks (render-blocks.ts renders them): the node's header with ae_mdw's counts. */
import { asGraphQL, big, id, int, list, only, shape, str } from '../shape-table.ts';

/** the header fields the REST answer passes on from the node and only GraphQL lists */
const nodeHeader = { flags: only('graphql', str), state_hash: only('graphql', str), version: only('graphql', int) };

export const KEY_BLOCK = shape(
  { openapi: 'KeyBlock', graphql: ['KeyBlock'] },
  {
    hash: id('kh'),
    height: int,
    prev_hash: str,
    prev_key_hash: str,
    miner: str,
    beneficiary: str,
    time: int,
    micro_blocks_count: int,
    transactions_count: int,
    beneficiary_reward: big,
    ...nodeHeader,
    info: only('graphql', str),
    nonce: only('graphql', big),
    pow: only('graphql', list(int)),
    target: only('graphql', int),
  },
);

export const MICRO_BLOCK = shape(
  { openapi: 'MicroBlock', graphql: ['MicroBlock'] },
  {
    hash: id('mh'),
    height: int,
    prev_hash: str,
    prev_key_hash: str,
    time: int,
    micro_block_index: int,
    transactions_count: int,
    // ae_mdw's GraphQL declares it Int
    gas: asGraphQL('Int', big),
    ...nodeHeader,
    pof_hash: only('graphql', str),
    signature: only('graphql', str),
    txs_hash: only('graphql', str),
  },
);
