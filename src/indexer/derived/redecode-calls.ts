/**
 * @module The call area: the contract calls of its heights decoded again from the stored rows. A batch holding a call
 * stored undecoded because what decodes it was not at hand (the called contract's code, which no node gave for a while;
 * the compiler, away) defers this area for its heights (derive-backfill.ts); an upgrade that changes the decoded form
 * records every height with calls (migration 1009: ae_mdw's typed values). The backfill decodes the calls in chain
 * order and, while one still cannot be decoded, fails, is retried with backoff and reported like any area. No derived
 * row reads a call's decoding (the token rows read its log), so the area holds no other back.
 */
import { isJsonObject } from '../../chain/json.ts';
import type { Queryable } from '../../db/connection/pool.ts';
import { rewriteDecodings, storedCalls, type CallDecoding } from '../../db/writes/contract-calls.ts';
import { contractTx, isTransientDecodeError, type ContractDecoder } from '../contracts/contract-decoder.ts';
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
 * redecodeStoredCalls decodes again every call of heights from..to (a decoding already in the current form comes out
 * the same) and stores their decoding. It throws at the first that cannot be decoded for now (nothing written): the
 * area waits there.
 */
export async function redecodeStoredCalls(
  db: Queryable,
  decoder: ContractDecoder,
  from: number,
  to: number,
): Promise<void> {
  const decoded: CallDecoding[] = [];
  for (const call of await storedCalls(db, from, to)) {
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
