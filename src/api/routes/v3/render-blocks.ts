/** @module ae_mdw's KeyBlockExtended and MicroBlockExtended from stored rows. Pure. */
import { blockReward } from '../../../chain/block-reward.ts';
import { stringifyJson } from '../../../chain/json.ts';
import type { KeyBlockCounted, MicroBlockCounted } from '../../../db/queries/v3/blocks.ts';

/**
 * keyBlockJson is the node's key block with ae_mdw's counts. `beneficiary_reward` is the reward
 * of this generation (chain/block-reward.ts), equal to its `/v3/stats/delta` block reward.
 */
export function keyBlockJson(k: KeyBlockCounted): string {
  return stringifyJson({
    ...k.data,
    micro_blocks_count: k.microBlocksCount,
    transactions_count: k.transactionsCount,
    beneficiary_reward: blockReward(k.height, BigInt(k.previousFees), BigInt(k.fees)),
  });
}

/** microBlockJson is the node's micro block header with ae_mdw's place, count and gas. */
export function microBlockJson(m: MicroBlockCounted): string {
  return stringifyJson({
    ...m.header,
    micro_block_index: m.microIndex,
    transactions_count: m.transactionsCount,
    gas: BigInt(m.gas),
  });
}
