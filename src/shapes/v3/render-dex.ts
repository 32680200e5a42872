/** @module ae_mdw's DexSwap: a pair's swap with its tokens' symbols and decimals, the amounts in and out, and the action. Pure. */
import type { Json } from '../../chain/json.ts';
import type { SwapRow } from '../../db/queries/dex.ts';
import type { ShapeValue } from '../shape-table.ts';
import type { DEX_SWAP } from './shapes-dex.ts';

/** SwapAction is ae_mdw's `action`: wrapped AE as the pair's first token is a BUY, as its second a SELL. */
export type SwapAction = 'BUY' | 'SELL' | 'SWAP';

/** swapAction names a swap of a pair given which of its tokens is a wrapped AE. */
export function swapAction(wrapped0: boolean, wrapped1: boolean): SwapAction {
  if (wrapped0) return 'BUY';
  if (wrapped1) return 'SELL';
  return 'SWAP';
}

/**
 * swapObject renders a swap as ae_mdw does: `from_*` is always the pair's first token and `to_*`
 * its second (whichever way the swap went), `from_amount` = amount0_in + amount1_in, `to_amount` =
 * amount0_out + amount1_out; exact integers throughout. A token is a wrapped AE when its code says so (the row's
 * flags) or DEX_WRAPPED_AE names it.
 */
export function swapObject(s: SwapRow, wrappedAe: string): Record<string, Json> {
  const [in0, in1, out0, out1] = [s.amount0In, s.amount1In, s.amount0Out, s.amount1Out].map(BigInt) as [
    bigint,
    bigint,
    bigint,
    bigint,
  ];
  return {
    caller: s.callerId,
    to_account: s.toId,
    from_token: s.symbol0,
    to_token: s.symbol1,
    from_contract: s.token0,
    to_contract: s.token1,
    from_amount: in0 + in1,
    to_amount: out0 + out1,
    from_decimals: s.decimals0,
    to_decimals: s.decimals1,
    amounts: { amount0_in: in0, amount1_in: in1, amount0_out: out0, amount1_out: out1 },
    action: swapAction(s.wrapped0 || s.token0 === wrappedAe, s.wrapped1 || s.token1 === wrappedAe),
    tx_hash: s.txHash,
    log_idx: s.logIdx,
    micro_time: Number(s.microTime),
    height: s.height,
  } satisfies ShapeValue<typeof DEX_SWAP>;
}
