/**
 * @module The node's dry-run (`POST /v2/dry-run`) for AEX-N meta info and balances at a contract's
 * creation block and AEX-141 metadata, as ae_mdw reads them: several read-only calls on top of one block in one
 * request. A node client, so the indexer and the API both use it.
 */
import { isJsonObject, parseJson, stringifyJson, type Json } from '../chain/json.ts';
import { NodeError } from './errors.ts';
import { httpPostJson } from './http-get.ts';
import { ErrorCode } from '../errors.ts';
import { retry, type RetryOptions } from '../retry.ts';

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

/**
 * REFUSED: every node refused the request itself (another 4xx: no dry-run on its external API, or no such
 * block). The caller tells these apart by asking at the node's top.
 */
export const REFUSED = 'refused';

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
 * DryRunRetries: how often a dry-run that some node could not answer (5xx, 429, no answer) is asked again: `attempts`
 * rounds over the nodes, the first included (1: no retry); `signal` ends the waits when the caller stops.
 */
export type DryRunRetries = Pick<RetryOptions, 'attempts' | 'initialMs' | 'maxMs' | 'signal'>;

const ONCE: DryRunRetries = { attempts: 1, initialMs: 0, maxMs: 0 };

/**
 * dryRun runs `calls` on top of block `top` (a key or micro block hash; the node's top block when undefined),
 * asking each node in turn until one answers. Resolves to PRUNED when every node answered 410, to REFUSED when
 * every node answered another 4xx. When some node could not answer at all it asks every node again after a
 * backoff, up to `retries.attempts` rounds, then throws a transient NodeError (the batch is prepared again): a
 * node's passing 503 must not cost the whole batch its fetch again.
 */
export function dryRun(
  urls: readonly string[],
  top: string | undefined,
  calls: readonly DryRunCall[],
  timeoutMs: number,
  retries: DryRunRetries = ONCE,
): Promise<DryRunResult[] | typeof PRUNED | typeof REFUSED> {
  const txs = calls.map((c) => ({ call_req: { contract: c.contract, calldata: c.calldata } }));
  const body = stringifyJson(top === undefined ? { txs } : { top, txs });
  return retry(() => askEachNode(urls, top, body, calls.length, timeoutMs, retries.signal), {
    ...retries,
    jitter: 0.2,
    retryable: (err) => err instanceof NodeError && err.transient && !retries.signal?.aborted,
  });
}

/** askEachNode is one round of dryRun: each node in turn until one answers. */
async function askEachNode(
  urls: readonly string[],
  top: string | undefined,
  body: string,
  calls: number,
  timeoutMs: number,
  stop: AbortSignal | undefined,
): Promise<DryRunResult[] | typeof PRUNED | typeof REFUSED> {
  let gone = 0;
  let refused = 0;
  let failure = 'no node';
  for (const url of urls) {
    try {
      const { status, text } = await httpPostJson(new URL(`${url}/v2/dry-run`), body, timeoutMs, stop);
      if (status >= 200 && status < 300) return readResults(parseJson(text), calls);
      if (status === 410) gone++;
      else if (status >= 400 && status < 500 && status !== 429) refused++;
      failure = `${status} ${text.slice(0, 200)}`;
    } catch (err) {
      failure = err instanceof Error ? err.message : String(err);
    }
  }
  if (gone === urls.length) return PRUNED;
  if (gone + refused === urls.length) return REFUSED;
  throw new NodeError(ErrorCode.NODE_BAD_RESPONSE, `dry-run at ${top ?? 'the top'} failed: ${failure}`, {
    path: '/dry-run',
    transient: true,
  });
}
