/**
 * @module Dry-run answers read straight from their FATE value (chain/fate.ts), in one pass, where aepp-calldata's
 * decoding by the code's types costs too much for how often or how large they come:
 * - the consensus contracts' answers that name every validator, `get_validator_state(owner)`, asked of each validator
 *   at every epoch boundary, and `sorted_validators()`. aepp-calldata held the populator's main thread about 0.2 ms a
 *   validator state (0.64 of its 10.7 busy seconds loading a hyperchain of 32 validators) and 0.3-1.8 ms the sorted
 *   validators (38, by hand), in bursts that left the node's slots idle; read so, 6 µs and 30-45 µs;
 * - an AEX-9 token's `balances()`, every holder (aex9-holdings.ts).
 * An answer that does not decode so, or whose value has another shape, is read through aepp-calldata as before: an
 * answer this version does not know is never misread.
 */
import { decodeValue, FateDecodeError, type FateValue } from '../../chain/fate.ts';
import type { BytecodeEncoder } from './contract-decoder.ts';

/**
 * readAnswer reads `fn`'s answer (`cb_…`) with `fast` from its FATE value or, when chain/fate.ts does not read the
 * bytes or `fast` not the value (undefined), with `slow` from aepp-calldata's decoding by the code's types.
 */
export function readAnswer<T>(
  code: BytecodeEncoder,
  fn: string,
  answer: string,
  fast: (value: FateValue) => T | undefined,
  slow: (decoded: unknown) => T,
): T {
  return fastRead(answer, fast) ?? slow(code.decodeResult(fn, answer, 'ok'));
}

function fastRead<T>(answer: string, fast: (value: FateValue) => T | undefined): T | undefined {
  let value: FateValue;
  try {
    value = decodeValue(answer);
  } catch (err) {
    if (err instanceof FateDecodeError) return undefined;
    throw err;
  }
  return fast(value);
}
