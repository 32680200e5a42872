/** @module ae_mdw's DexSwap: a pair's swap with its tokens' symbols and decimals, the amounts in and out, and the action. Pure. */
import type { Json } from '../../chain/json.ts';
import type { SwapRow } from '../../db/queries/dex.ts';
import type { ShapeValue } from '../shape-table.ts';
import type { DEX_SWAP } from './shapes-dex.ts';

/** SwapAction is ae_mdw's `action`: wrapped AE as the pair's first token is a BUY, as its second a SELL. */
export type SwapAction = 'BUY' | 'SELL' | 'SWAP';

/** swapAction names a swap of the pair (token0, token1) given the wrapped AE token. */
export function swapAction(token0: string, token1: string, wrappedAe: string): SwapAction {
  if (token0 === wrappedAe) return 'BUY';
  if (token1 === wrappedAe) return 'SELL';
  return 'SWAP';
}

/**
 * swapObject renders a swap as ae_mdw does: `from_*` is always the pair's first token and `to_*`
 * its second (whichever way the swap went), `from_amount` = amount0_in + amount1_in, `to_amount` =
 * amount0_out + amount1_out; exact integers throughout.
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
    action: swapAction(s.token0, s.token1, wrappedAe),
    tx_hash: s.txHash,
    log_idx: s.logIdx,
    micro_time: Number(s.microTime),
    height: s.height,
  } satisfies ShapeValue<typeof DEX_SWAP>;
}
