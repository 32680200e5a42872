/**
 * @module What a mined transaction of the devnode adds to its generation's fees, as the node counts them
 * (chain/reward-fees.ts), from the call and GA infos the devnode's rules gave it. Pure.
 */
import { isJsonObject, toBigInt, type Json } from '../../chain/json.ts';
import { rewardFees } from '../../chain/reward-fees.ts';
import type { TxFields } from '../tx-codec.ts';

type Info = { readonly [k: string]: Json };

const gasOf = (info: Info | undefined): bigint | undefined =>
  info?.gas_used === undefined ? undefined : toBigInt(info.gas_used);

/**
 * recordRewardFees is `tx`'s fees and its call objects' gas: a contract tx's call (a GA's inner one's is in its GA
 * info), a GAAttachTx's init call, a GAMetaTx's authentication, whose failed inner transaction counts nothing.
 */
export function recordRewardFees(r: {
  readonly tx: TxFields;
  readonly callInfo?: Info;
  readonly gaInfo?: Info;
}): bigint {
  const inner = isJsonObject(r.gaInfo?.inner_object) ? r.gaInfo.inner_object.call_info : undefined;
  const call = r.callInfo ?? (isJsonObject(inner) ? inner : undefined);
  const ga = r.gaInfo ?? (r.tx.type === 'GAAttachTx' ? r.callInfo : undefined);
  return rewardFees(r.tx, {
    callGasUsed: gasOf(call),
    gaGasUsed: gasOf(ga),
    ...(r.gaInfo === undefined ? {} : { gaOk: r.gaInfo.return_type === 'ok' }),
  });
}
