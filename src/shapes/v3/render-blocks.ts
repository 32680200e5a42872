/** @module ae_mdw's KeyBlockExtended and MicroBlockExtended from stored rows. Pure. */
import { stringifyJson } from '../../chain/json.ts';
import type { KeyBlockCounted, MicroBlockCounted } from '../../db/queries/blocks.ts';

/**
 * keyBlockJson is the node's key block with ae_mdw's counts. `beneficiary_reward` is what the key
 * block paid its miners (the sum of its `reward_block` transfers), as ae_mdw sums it.
 */
export function keyBlockJson(k: KeyBlockCounted): string {
  return stringifyJson({
    ...k.data,
    micro_blocks_count: k.microBlocksCount,
    transactions_count: k.transactionsCount,
    beneficiary_reward: BigInt(k.beneficiaryReward),
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
