/**
 * @module The node's dry-run (`POST /v2/dry-run`) for AEX-N meta info and balances at a contract's
 * creation block and AEX-141 metadata, as ae_mdw reads them: several read-only calls on top of one block in one
 * request. The request, the reading of each node's answer and of a round's end, used by both askers: the
 * populator's NodeClient.dryRun (in its node set's slots) and the server's `dryRun` over the URLs.
 */
import { isJsonObject, parseJson, stringifyJson, type Json } from '../chain/json.ts';
import {
  badResponse,
  collectedState,
  isCollectedState,
  isOverTimeLimit,
  isUnknownTop,
  noAnswer,
  NodeError,
  overTimeLimit,
  unknownTop,
} from './errors.ts';
import { httpPostJson, type RequestOptions } from './http-get.ts';
import type { OutboundMetrics } from './outbound-metrics.ts';
import { ErrorCode, errorMessage } from '../base/errors.ts';
import { retry, type RetryOptions } from '../base/retry.ts';

/**
 * FATE_ABI: the ABI of FATE contracts (`abi_version` 3). A `call_req` names the ABI of its calldata: the node runs one
 * without as AEVM's (1) and refuses a FATE contract then, per call, `Internal error:\n  wrong_abi_version\n`
 * (aec_dry_run; so the recorded 7.2.2 node). Every call here is FATE calldata (aepp-calldata's encoders), the only
 * code AEX-N, hyperchain and DEX contracts have; AEVM_ABI is there for a caller of an AEVM contract.
 */
export const FATE_ABI = 3;
/** AEVM_ABI: the ABI of AEVM contracts (Sophia before Lima), the ABI the node assumes when a `call_req` names none. */
export const AEVM_ABI = 1;

/** DryRunCall is one call: the contract, its calldata (`cb_`) and the calldata's ABI. */
export interface DryRunCall {
  readonly contract: string;
  readonly calldata: string;
  readonly abiVersion: typeof FATE_ABI | typeof AEVM_ABI;
}

/** fateCall is a call of a FATE contract with FATE calldata. Pure. */
export const fateCall = (contract: string, calldata: string): DryRunCall => ({
  contract,
  calldata,
  abiVersion: FATE_ABI,
});

/** DryRunResult is a call's return value (`cb_`) when it returned, else why not. */
export type DryRunResult =
  { readonly ok: true; readonly value: string } | { readonly ok: false; readonly reason: string };

/**
 * PRUNED: every node said it keeps no state at that block (a pruning node below its GC height): the dry-run's 400
 * naming a garbage-collected state (isCollectedState), or a 410; or some did and the others do not know the block yet
 * (isUnknownTop).
 */
export const PRUNED = 'pruned';

/**
 * REFUSED: every node refused the request itself (another 4xx: no dry-run on its external API, or no such
 * block). The caller tells these apart by asking at the node's top.
 */
export const REFUSED = 'refused';

/**
 * CRASHED: every node answered a replay 500 in LASTING_ROUNDS rounds in a row: a request no node can ever answer. The
 * node's HTTP dispatcher answers 500 `Internal server error` when its handler crashes (aehttp_dispatch_ext run), as
 * it does for the dry-run with `tx_events` of a call that creates a contract: it records `Call.clone`/`Call.create`
 * with no transaction (aefa_chain_api tx_event_data) and its serialiser expects one (aehttp_helpers serialize_event).
 * Only a replay is counted so (countLasting); any other 5xx, a 429 or no answer stays a transient failure.
 */
export const CRASHED = 'crashed';

/**
 * OVER_TIME_LIMIT: every node gave a dry-run up at its time limit (errors.ts isOverTimeLimit) in LASTING_ROUNDS rounds
 * in a row, each after a backoff: a request too heavy for these nodes' `http.dry_run.timeout_ms` (a micro block's heavy
 * calls run again, a token's `balances()` walking a great many holders), which asking again cannot change. The
 * populator's dry-runs are counted so (countLasting); a round some node answered otherwise starts the count again.
 */
export const OVER_TIME_LIMIT = 'over time limit';

/** LASTING_ROUNDS: the rounds in a row every node must fail a dry-run alike before it is CRASHED or OVER_TIME_LIMIT. */
export const LASTING_ROUNDS = 3;

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

/** DryRunOutcome is what a dry-run gives: the calls' results, or that every node pruned or refused the request. */
export type DryRunOutcome<T = DryRunResult[]> = T | typeof PRUNED | typeof REFUSED;

/**
 * dryRunBody is the request's JSON: `calls` on top of block `top` (the node's top block when undefined), each
 * `call_req` naming its ABI (FATE_ABI's doc). The one place a dry-run's body is built. Pure.
 */
export function dryRunBody(top: string | undefined, calls: readonly DryRunCall[]): string {
  const txs = calls.map((c) => ({
    call_req: { contract: c.contract, calldata: c.calldata, abi_version: c.abiVersion },
  }));
  return stringifyJson(top === undefined ? { txs } : { top, txs });
}

/**
 * CALLS_PER_REQUEST: the calls one request carries. The node caps an external dry-run's gas (`http.external.gas_limit`,
 * 6 000 000 by default) and counts a `call_req` without `gas` as 1 000 000: a request of more calls is refused, 403
 * `Over the gas limit`. The calls run each on the state at the block, so several requests answer as one would.
 */
export const CALLS_PER_REQUEST = 6;

/**
 * inChunks asks `calls` in requests of CALLS_PER_REQUEST calls at most (`ask`, at once) and joins their results in
 * order; PRUNED, REFUSED (or OVER_TIME_LIMIT) when a request gave that.
 */
export async function inChunks<X extends string = never>(
  calls: readonly DryRunCall[],
  ask: (chunk: readonly DryRunCall[]) => Promise<DryRunOutcome<DryRunResult[] | X>>,
): Promise<DryRunOutcome<DryRunResult[] | X>> {
  const chunks: DryRunCall[][] = [];
  for (let i = 0; i < calls.length; i += CALLS_PER_REQUEST) chunks.push(calls.slice(i, i + CALLS_PER_REQUEST));
  const outcomes = await Promise.all((chunks.length === 0 ? [[]] : chunks).map(ask));
  return outcomes.find((o) => !Array.isArray(o)) ?? outcomes.flatMap((o) => o as DryRunResult[]);
}

/** DRY_RUN_PATH: the dry-run's path under the node's `/v2`, as its errors name it. */
export const DRY_RUN_PATH = '/dry-run';

/**
 * roundOutcome ends a round in which no node gave results (`failures`: each node's, in the order asked): PRUNED when
 * every node said the state is garbage-collected or did not know the block, one at least the former; REFUSED when every
 * node refused the request (another 4xx but 429 and the time limit's 400); else it throws the transient NodeError that
 * has the round asked again (a node could not answer, or none was asked), with the soonest wait a node asked for, every
 * node's own code when they agree (MDW_NODE_BUSY: every node refused it for load), the node's status 500 when every
 * node answered that (a crash), and overTimeLimit when every node gave it up at its time limit (countLasting counts
 * both). Pure.
 */
export function roundOutcome(top: string | undefined, failures: readonly NodeError[]): typeof PRUNED | typeof REFUSED {
  // as the node client's GETs (a 410 over a 404): a node that does not know the block, behind the others, says
  // nothing of its state where another said it is gone; asked again, the round would wait for it to catch up
  if (failures.some((f) => f.gone) && failures.every((f) => f.gone || f.unknownBlock)) return PRUNED;
  if (failures.length > 0 && failures.every((f) => !f.transient)) return REFUSED;
  const last = failures.at(-1);
  const why = `dry-run at ${top ?? 'the top'} failed: ${last?.message ?? 'no node'}`;
  // the soonest any node asked to be asked again (its 503's Retry-After)
  const asked = failures.flatMap((f) => (f.retryAfterMs === undefined ? [] : [f.retryAfterMs]));
  const retryAfterMs = asked.length === 0 ? undefined : Math.min(...asked);
  const crashed = failures.length > 0 && failures.every((f) => f.nodeStatus === 500);
  const overLimit = failures.length > 0 && failures.every((f) => f.overTimeLimit);
  // every node refused it for load, or none could be reached: that is what the asker hears (the server's 503)
  const code =
    last !== undefined && failures.every((f) => f.code === last.code) ? last.code : ErrorCode.NODE_BAD_RESPONSE;
  throw new NodeError(code, why, {
    path: DRY_RUN_PATH,
    transient: true,
    cause: last,
    ...(retryAfterMs === undefined ? {} : { retryAfterMs }),
    ...(crashed ? { nodeStatus: 500 } : {}),
    ...(overLimit ? { nodeStatus: 400, overTimeLimit: true } : {}),
  });
}

/** Lasting is what a dry-run's rounds may end in for good, which no round will change. */
export type Lasting = typeof CRASHED | typeof OVER_TIME_LIMIT;

/** lastingFailure is the outcome a round's error says no round will change, if any. */
function lastingFailure(err: unknown): Lasting | undefined {
  if (!(err instanceof NodeError)) return undefined;
  if (err.overTimeLimit) return OVER_TIME_LIMIT;
  return err.nodeStatus === 500 ? CRASHED : undefined;
}

/**
 * countLasting wraps a dry-run's `round` (one round over the nodes): one of `kinds` (CRASHED, OVER_TIME_LIMIT) once
 * LASTING_ROUNDS rounds in a row ended with every node failing it that same way (roundOutcome), instead of the error
 * that has it asked again; a round that ended otherwise starts the count again.
 */
export function countLasting<T, K extends Lasting>(
  round: () => Promise<DryRunOutcome<T>>,
  kinds: readonly K[],
): () => Promise<DryRunOutcome<T | K>> {
  let inARow = 0;
  let last: Lasting | undefined;
  return async () => {
    try {
      return await round();
    } catch (err) {
      const lasting = lastingFailure(err);
      inARow = lasting !== undefined && lasting === last ? inARow + 1 : lasting === undefined ? 0 : 1;
      last = lasting;
      const counted = kinds.find((k) => k === lasting);
      if (counted !== undefined && inARow >= LASTING_ROUNDS) return counted;
      throw err;
    }
  };
}

/**
 * askNode posts a dry-run (`body`) to one node's `/v2/dry-run` (`target`; `options`: the caller's signal and meter):
 * its answer as `read` reads it (throwing for a malformed one), or why it gave none as a NodeError (never rejects):
 * gone for a 410 or the 400 naming a garbage-collected state, not transient for another 4xx but 429 (a refusal),
 * transient for a 5xx or 429, the 400 of its time limit, a malformed answer, a timeout or no connection (errors.ts).
 */
export async function askNode<T>(
  target: Parameters<typeof httpPostJson>[0],
  body: string,
  read: (answer: Json) => T,
  timeoutMs: number,
  options: RequestOptions,
): Promise<T | NodeError> {
  let status: number;
  let text: string;
  let retryAfter: string | undefined;
  try {
    ({ status, text, retryAfter } = await httpPostJson(target, body, timeoutMs, options));
  } catch (err) {
    return noAnswer(DRY_RUN_PATH, err, timeoutMs);
  }
  if (status >= 400) {
    const why = `node answered the dry-run: ${status} ${text.slice(0, 200)}`;
    // a garbage-collected state, or a block the node does not know, is the dry-run's 400, where its GETs answer
    // 410 or 404
    if (isCollectedState(status, text)) return collectedState(DRY_RUN_PATH, why);
    if (isUnknownTop(status, text)) return unknownTop(DRY_RUN_PATH, why);
    if (isOverTimeLimit(status, text)) return overTimeLimit(DRY_RUN_PATH, why);
    return badResponse(DRY_RUN_PATH, why, status, retryAfter);
  }
  if (status < 200 || status >= 300)
    return badResponse(DRY_RUN_PATH, `node answered the dry-run with status ${status}`);
  try {
    return read(parseJson(text));
  } catch (err) {
    return badResponse(DRY_RUN_PATH, `node answered the dry-run with ${errorMessage(err)}`);
  }
}

/** nodeAnswered says whether a node answered at all (results, or an error status or malformed body), for metrics. */
export function nodeAnswered<T>(answer: T | NodeError): boolean {
  return (
    !(answer instanceof NodeError) ||
    (answer.code !== ErrorCode.NODE_UNREACHABLE && answer.code !== ErrorCode.NODE_TIMEOUT)
  );
}

/**
 * inRounds runs `round` (one round of a dry-run over the nodes) until it gives an outcome, again after a backoff
 * while it throws a transient NodeError, up to `retries.attempts` rounds: a node's passing 503 must not cost the
 * whole batch its fetch again.
 */
export function inRounds<T>(round: () => Promise<DryRunOutcome<T>>, retries: DryRunRetries): Promise<DryRunOutcome<T>> {
  return retry(round, {
    ...retries,
    jitter: 0.2,
    retryable: (err) => err instanceof NodeError && err.transient && !retries.signal?.aborted,
    // a round whose nodes asked for a wait (503 with Retry-After) is not asked again before it
    retryAfter: (err) => (err instanceof NodeError ? err.retryAfterMs : undefined),
  });
}

/**
 * dryRun runs `calls` on top of block `top` (a key or micro block hash; the node's top block when undefined),
 * asking each of `urls` in turn until one answers, straight, outside any NodeSet's slots: for a caller without one
 * (the server's AEX-141 metadata); the populator asks through its node set (NodeClient.dryRun). Resolves to PRUNED
 * when every node said the state is garbage-collected, to REFUSED when every node answered another 4xx. When some node could not answer at
 * all it asks every node again after a backoff, up to `retries.attempts` rounds, then throws a transient NodeError.
 * `metrics` counts each request.
 */
export function dryRun(
  urls: readonly string[],
  top: string | undefined,
  calls: readonly DryRunCall[],
  timeoutMs: number,
  retries: DryRunRetries = ONCE,
  metrics?: OutboundMetrics,
): Promise<DryRunOutcome> {
  const options = { signal: retries.signal, meter: metrics?.meter('node', 'dry_run') };
  return inChunks<never>(calls, (chunk) => {
    const body = dryRunBody(top, chunk);
    const read = (answer: Json): DryRunResult[] => readResults(answer, chunk.length);
    return inRounds(async () => {
      const failures: NodeError[] = [];
      for (const url of urls) {
        const answer = await askNode(new URL(`${url}/v2${DRY_RUN_PATH}`), body, read, timeoutMs, options);
        if (!(answer instanceof NodeError)) return answer;
        failures.push(answer);
      }
      return roundOutcome(top, failures);
    }, retries);
  });
}
