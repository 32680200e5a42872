/**
 * @module An AEX-9 token's `balances()` answer, the `map(address, int)` of every holder, as the populator reads it at a
 * token's creation and after a batch that leaves its events unexplained, and `mdw -v --full` at the verified top.
 * Read from its FATE value in one pass, or else by aepp-calldata's decoding by the contract's types
 * (fate-answers.ts). aepp-calldata (1.9.1) copies the rest of the encoded answer at each value it reads, so its cost
 * grows with the square of the holders: 0.95 s for 5 000 and 21 s for 20 000, read so 23 and 62 ms (0.28 s for
 * 100 000); the state check's 18 tokens of a tenth of mainnet, one of 100 000 holders, took 356 s and take 4.9 s. Pure.
 */
import { isKind, type FateValue } from '../../chain/fate.ts';
import type { BytecodeEncoder } from './contract-decoder.ts';
import { readAnswer } from './fate-answers.ts';

/** Holdings: each holder's balance as the contract states it (zero and, for a token breaking the rules, below). */
export type Holdings = ReadonlyMap<string, bigint>;

/**
 * readHoldings reads a `balances()` answer (`cb_…`) of the contract whose code `code` encodes: undefined when it is no
 * `map(address, int)` or aepp-calldata refuses it.
 */
export function readHoldings(code: BytecodeEncoder, answer: string): Holdings | undefined {
  try {
    return readAnswer(code, 'balances', answer, readFateHoldings, readDecodedHoldings);
  } catch {
    return undefined; // aepp-calldata refuses the answer: not the map the code's types declare
  }
}

/** readFateHoldings reads the map's FATE value, or gives undefined for another shape. */
export function readFateHoldings(value: FateValue): Holdings | undefined {
  if (!isKind(value, 'map')) return undefined;
  const holdings = new Map<string, bigint>();
  for (const [holder, amount] of value.entries) {
    if (!isKind(holder, 'address') || typeof amount !== 'bigint') return undefined;
    holdings.set(holder.id, amount);
  }
  return holdings;
}

/**
 * readDecodedHoldings reads aepp-calldata's decoding of the map, or gives undefined for another shape (it decodes a
 * value by the value's own tags, not the types': a map of strings comes back as one). A holder is an account or, as
 * a contract's own address, a contract, as the FATE reading gives it.
 */
export function readDecodedHoldings(value: unknown): Holdings | undefined {
  if (!(value instanceof Map)) return undefined;
  const holdings = new Map<string, bigint>();
  for (const [holder, amount] of value as Map<unknown, unknown>) {
    if (typeof holder !== 'string' || !/^(ak|ct)_/.test(holder) || typeof amount !== 'bigint') return undefined;
    holdings.set(holder, amount);
  }
  return holdings;
}
