/** @module The shape tables of ae_mdw's blocks (render-blocks.ts renders them): the node's header with ae_mdw's counts. */
import { asGraphQL, big, id, int, list, only, shape, str } from '../shape-table.ts';

/** the header fields both kinds of block have; the REST answer passes the last three on from the node, only GraphQL lists them */
const header = {
  height: int,
  prev_hash: str,
  prev_key_hash: str,
  time: int,
  transactions_count: int,
  flags: only('graphql', str),
  state_hash: only('graphql', str),
  version: only('graphql', int),
};

export const KEY_BLOCK = shape(
  { openapi: 'KeyBlock', graphql: ['KeyBlock'] },
  {
    hash: id('kh'),
    ...header,
    miner: str,
    beneficiary: str,
    micro_blocks_count: int,
    beneficiary_reward: big,
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
    ...header,
    micro_block_index: int,
    // ae_mdw's GraphQL declares it Int
    gas: asGraphQL('Int', big),
    pof_hash: only('graphql', str),
    signature: only('graphql', str),
    txs_hash: only('graphql', str),
  },
);
