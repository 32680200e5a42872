/** @module ae_mdw's KeyBlockExtended and MicroBlockExtended from stored rows. Pure. */
import { coinbaseAt } from '../../../chain/coinbase.ts';
import { stringifyJson } from '../../../chain/json.ts';
import type { KeyBlockCounted, MicroBlockCounted } from '../../../db/queries/v3/blocks.ts';
import { feeShare } from '../chain.ts';

/**
 * keyBlockJson is the node's key block with ae_mdw's counts. `beneficiary_reward` is the reward
 * of this generation as /middleware/reward computes it (coinbase plus 60 % of the previous
 * generation's fees and 40 % of its own), in whole aettos.
 */
export function keyBlockJson(k: KeyBlockCounted): string {
  const fees = BigInt(feeShare(k.previousFees, k.fees).split('.')[0]!);
  return stringifyJson({
    ...k.data,
    micro_blocks_count: k.microBlocksCount,
    transactions_count: k.transactionsCount,
    beneficiary_reward: coinbaseAt(k.height) + fees,
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
