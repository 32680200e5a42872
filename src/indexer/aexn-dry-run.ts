/**
 * @module The node's dry-run (`POST /v2/dry-run`) for AEX-N meta info and balances at a contract's
 * creation block, as ae_mdw reads them: several read-only calls on top of one block in one request.
 */
import { isJsonObject, parseJson, stringifyJson, type Json } from '../chain/json.ts';
import { NodeError } from '../node/errors.ts';
import { ErrorCode } from '../errors.ts';

/** DryRunCall is one call: the contract and its calldata (`cb_`). */
export interface DryRunCall {
  readonly contract: string;
  readonly calldata: string;
}

/** DryRunResult is a call's return value (`cb_`) when it returned, else why not. */
export type DryRunResult =
  { readonly ok: true; readonly value: string } | { readonly ok: false; readonly reason: string };

/** PRUNED: every node answered 410, it keeps no state at that block (a pruning node below its GC height). */
export const PRUNED = 'pruned';

/** readResults reads DryRunResults, one per call, in order. Pure. */
export function readResults(body: Json, calls: number): DryRunResult[] {
  const results = isJsonObject(body) && Array.isArray(body.results) ? body.results : [];
  if (results.length !== calls) throw new Error(`dry-run sent ${results.length} results for ${calls} calls`);
  return results.map((r): DryRunResult => {
    if (!isJsonObject(r)) return { ok: false, reason: 'malformed result' };
    const call = isJsonObject(r.call_obj) ? r.call_obj : undefined;
    if (r.result === 'ok' && call?.return_type === 'ok' && typeof call.return_value === 'string')
      return { ok: true, value: call.return_value };
    return { ok: false, reason: String(r.reason ?? call?.return_type ?? r.result ?? 'failed') };
  });
}

/**
 * dryRun runs `calls` on top of block `top` (a key or micro block hash), asking each node in turn until one
 * answers. Resolves to PRUNED when every node answered 410; throws a transient NodeError when none answered
 * (the batch is prepared again, and a block no node knows any more means a fork the next step finds).
 */
export async function dryRun(
  urls: readonly string[],
  top: string,
  calls: readonly DryRunCall[],
  timeoutMs: number,
): Promise<DryRunResult[] | typeof PRUNED> {
  const body = stringifyJson({
    top,
    txs: calls.map((c) => ({ call_req: { contract: c.contract, calldata: c.calldata } })),
  });
  let gone = 0;
  let failure = 'no node';
  for (const url of urls) {
    try {
      const res = await fetch(`${url}/v2/dry-run`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body,
        signal: AbortSignal.timeout(timeoutMs),
      });
      const text = await res.text();
      if (res.status === 410) {
        gone++;
        continue;
      }
      if (!res.ok) {
        failure = `${res.status} ${text.slice(0, 200)}`;
        continue;
      }
      return readResults(parseJson(text), calls.length);
    } catch (err) {
      failure = err instanceof Error ? err.message : String(err);
    }
  }
  if (gone === urls.length) return PRUNED;
  throw new NodeError(ErrorCode.NODE_BAD_RESPONSE, `dry-run at ${top} failed: ${failure}`, {
    path: '/dry-run',
    transient: true,
  });
}
