/** @module ae_mdw's KeyBlockExtended and MicroBlockExtended from stored rows. Pure. */
import { stringifyJson, type Json } from '../../chain/json.ts';
import type { KeyBlockCounted, MicroBlockCounted } from '../../db/queries/blocks.ts';

/**
 * keyBlockObject is the node's key block with ae_mdw's counts. `beneficiary_reward` is what the key
 * block paid its miners (the sum of its `reward_block` transfers), as ae_mdw sums it.
 */
export function keyBlockObject(k: KeyBlockCounted): { [key: string]: Json } {
  return {
    ...k.data,
    micro_blocks_count: k.microBlocksCount,
    transactions_count: k.transactionsCount,
    beneficiary_reward: BigInt(k.beneficiaryReward),
  };
}

/** microBlockObject is the node's micro block header with ae_mdw's place, count and gas. */
export function microBlockObject(m: MicroBlockCounted): { [key: string]: Json } {
  return {
    ...m.header,
    micro_block_index: m.microIndex,
    transactions_count: m.transactionsCount,
    gas: BigInt(m.gas),
  };
}

/** keyBlockJson is keyBlockObject as JSON text. */
export function keyBlockJson(k: KeyBlockCounted): string {
  return stringifyJson(keyBlockObject(k));
}

/** microBlockJson is microBlockObject as JSON text. */
export function microBlockJson(m: MicroBlockCounted): string {
  return stringifyJson(microBlockObject(m));
}
