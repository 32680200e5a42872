/**
 * @module What one mined transaction adds to its generation's fees, the part of the block reward split between the
 * miners (block-rewards.ts), as node 7.2.2 counts it. A key block's fees are its generation's transactions' fees
 * (aec_chain_state:apply_micro_block_transactions sums aetx:deep_fee/2) and the gas of every call object the
 * generation left in the calls tree (calculate_gas_fee: gas used × gas price of each, the tree pruned at every key
 * block). Call objects are a contract create's or call's, a GAAttachTx's init call, a GAMetaTx's authentication call
 * (its gas charged even when the inner transaction fails) and a ChannelForceProgressTx's off-chain call (aesc_utils
 * add_call). deep_fee adds a wrapper's inner transaction's fee, a GAMetaTx's only when the inner succeeded
 * (aega_meta_tx:inner_tx_was_succesful): a failed inner transaction is undone (aega_meta_tx:process_inner), its call
 * with it. Pure.
 */
import { isJsonObject, toBigInt, type Json } from './json.ts';
import { innerTx } from './tx-fields.ts';

type TxObject = { [key: string]: Json };

/** What the node's API tells of a transaction's calls, beside its fields (its info: call_info, ga_info). */
export interface RewardFeeFacts {
  /** the gas used by its call object (a contract create's or call's, a force progress's, wrapped ones' too) */
  readonly callGasUsed?: bigint;
  /** a GAAttachTx's init or a GAMetaTx's authentication: its gas used */
  readonly gaGasUsed?: bigint;
  /** a GAMetaTx's inner transaction succeeded (the GA call's `return_type` is `ok`; `error`: it failed) */
  readonly gaOk?: boolean;
}

/** CALL_TXS: the types that leave a call object of their own in the calls tree, whose gas the miners get. */
const CALL_TXS: ReadonlySet<string> = new Set(['ContractCreateTx', 'ContractCallTx', 'ChannelForceProgressTx']);

const int = (v: Json | undefined): bigint => (v === undefined || v === null ? 0n : toBigInt(v));

/**
 * rewardFees is what `tx` (a wrapper with what it wraps) adds to its generation's fees: its fees and its call objects'
 * gas. Gas no info told (a pruned call info, a GA info not read) is counted 0.
 */
export function rewardFees(tx: TxObject, facts: RewardFeeFacts): bigint {
  let fees = 0n;
  for (let own: TxObject | undefined = tx; own !== undefined; own = innerTx(own)) {
    fees += int(own.fee);
    const type = String(own.type);
    if (CALL_TXS.has(type)) fees += (facts.callGasUsed ?? 0n) * callGasPrice(own);
    if (type === 'GAAttachTx' || type === 'GAMetaTx') fees += (facts.gaGasUsed ?? 0n) * int(own.gas_price);
    if (type === 'GAMetaTx' && facts.gaOk === false) break;
  }
  return fees;
}

/** callGasPrice is a call's gas price: a force progress's is its off-chain call's (`update`). */
export function callGasPrice(tx: TxObject): bigint {
  if (tx.type !== 'ChannelForceProgressTx') return int(tx.gas_price);
  return isJsonObject(tx.update) ? int(tx.update.gas_price) : 0n;
}
