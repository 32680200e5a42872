/**
 * @module The DEX's two events (dex-contracts-v2):
 * `PairCreated` from a factory (topics token0, token1, pair; data the pair count) and `SwapTokens`
 * from a pair (topics sender, to; data `"a0in|a1in|a0out|a1out"`). Pure.
 */
import { eventTopic, topicId, type CallEvent } from '../rows/call-events.ts';

export const PAIR_CREATED = eventTopic('PairCreated');
export const SWAP_TOKENS = eventTopic('SwapTokens');

/** A pair a factory announced: the factory is the event's emitter, kept so that the configured one is chosen when read. */
export interface PairCreated {
  readonly factory: string;
  readonly pair: string;
  readonly token0: string;
  readonly token1: string;
}

/** readPairCreated decodes `PairCreated(token0, token1, pair, count)` (the order AedexV2Factory emits). */
export function readPairCreated(event: CallEvent): PairCreated | undefined {
  if (event.topics[0] !== PAIR_CREATED || event.topics.length !== 4) return undefined;
  const [token0, token1, pair] = event.topics.slice(1).map((t) => topicId(t, 'ct'));
  if (!token0 || !token1 || !pair) return undefined;
  return { factory: event.address, pair, token0, token1 };
}

/** The four amounts of a swap, in the pair's token order (decimal texts: they exceed 2^53). */
export interface SwapAmounts {
  readonly amount0In: string;
  readonly amount1In: string;
  readonly amount0Out: string;
  readonly amount1Out: string;
}

/** parseSwapAmounts reads `"a0in|a1in|a0out|a1out"`; undefined when it is not four non-negative integers. */
export function parseSwapAmounts(text: string): SwapAmounts | undefined {
  const parts = text.split('|');
  if (parts.length !== 4 || parts.some((p) => !/^\d{1,80}$/.test(p))) return undefined;
  const [amount0In, amount1In, amount0Out, amount1Out] = parts.map((p) => BigInt(p).toString()) as [
    string,
    string,
    string,
    string,
  ];
  return { amount0In, amount1In, amount0Out, amount1Out };
}

/** A swap a pair reported: the pair is the event's emitter. */
export interface SwapTokens extends SwapAmounts {
  readonly pair: string;
  readonly caller: string;
  readonly to: string;
}

/** readSwapTokens decodes `SwapTokens(sender, to, "a0in|a1in|a0out|a1out")`. */
export function readSwapTokens(event: CallEvent): SwapTokens | undefined {
  if (event.topics[0] !== SWAP_TOKENS || event.topics.length !== 3) return undefined;
  const caller = topicId(event.topics[1]!, 'ak');
  const to = topicId(event.topics[2]!, 'ak');
  const amounts = parseSwapAmounts(event.data.toString('latin1'));
  if (!caller || !to || !amounts) return undefined;
  return { pair: event.address, caller, to, ...amounts };
}
