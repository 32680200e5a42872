/**
 * @module The call area: contract calls stored undecoded because what decodes them was not at hand (the called
 * contract's code, which no node gave for a while; the compiler, away) are decoded again from the stored rows once it
 * is. A batch holding such a call defers this area for its heights (derive-backfill.ts), whose backfill decodes them in
 * chain order and, while one still cannot be decoded, fails, is retried with backoff and reported like any area. No
 * derived row reads a call's decoding (the token rows read its log), so the area holds no other back.
 */
import { isJsonObject } from '../../chain/json.ts';
import type { Queryable } from '../../db/pool.ts';
import { callsUndecoded, rewriteDecodings, type CallDecoding } from '../../db/writes/contract-calls.ts';
import {
  contractTx,
  isTransientDecodeError,
  TRANSIENT_DECODE_ERRORS,
  type ContractDecoder,
} from '../contracts/contract-decoder.ts';
import type { FetchedGeneration } from '../rows/rows.ts';

/** undecodedForNow says why the first call of decoded generations that is undecoded for now is, if one is. Pure. */
export function undecodedForNow(gens: readonly FetchedGeneration[]): string | undefined {
  for (const gen of gens)
    for (const [hash, call] of gen.decodedCalls)
      if (isTransientDecodeError(call.decodeError))
        return `contract call ${hash} stored undecoded: ${call.decodeError}`;
  return undefined;
}

/**
 * redecodeStoredCalls decodes again the calls of heights from..to stored undecoded for now and stores their decoding.
 * It throws at the first that still cannot be decoded (one lookup per try, nothing written): the area waits there.
 */
export async function redecodeStoredCalls(
  db: Queryable,
  decoder: ContractDecoder,
  from: number,
  to: number,
): Promise<void> {
  const decoded: CallDecoding[] = [];
  for (const call of await callsUndecoded(db, from, to, TRANSIENT_DECODE_ERRORS)) {
    const tx = isJsonObject(call.tx) ? contractTx(call.tx) : undefined;
    if (tx === undefined) continue;
    const decoding = await decoder.decode(tx, isJsonObject(call.callInfo) ? call.callInfo : undefined);
    if (isTransientDecodeError(decoding.decodeError))
      throw new Error(
        `contract call ${call.txHash} to ${String(tx.contract_id ?? 'a new contract')} at height ${call.height} ` +
          `cannot be decoded yet: ${decoding.decodeError}`,
      );
    decoded.push({ txHash: call.txHash, ...decoding });
  }
  await rewriteDecodings(db, decoded);
}
