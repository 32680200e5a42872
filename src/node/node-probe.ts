/**
 * @module What a node allows the middleware, asked once at the populator's start (node 7.2.2's configuration, as
 * its answers tell it): its external dry-run's endpoint group (`http.endpoints.dry-run`, off on a node by default),
 * its internal debug endpoints (`http.internal.debug_endpoints`: the debug dry-run and the mempool's pending list),
 * whether its gas cap (`http.external.gas_limit`) admits the middleware's dry-runs, and whether it keeps old state
 * (garbage collection). Its dry-runs' time limit (`http.dry_run.timeout_ms`) no cheap request tells: unknown. Each
 * request is one a real node answered in the recording (test/fixtures/real-node/), and none runs a contract but on
 * the recorded chain. A node that does not answer in time, or answers otherwise, leaves its finding unknown: the
 * probe never fails and never waits for a node.
 */
import type { NodeMeters } from './chain-identity.ts';
import { badResponse, noAnswer } from './errors.ts';
import { HttpGetError, httpGet, httpPostJson, type HttpAnswer } from './http-get.ts';

/** Allowed: whether a node serves something, as its answer told (unknown: no answer, or one that tells nothing). */
export type Allowed = 'on' | 'off' | 'unknown';

/** NodeFindings: what a node allows, as far as its answers told. */
export interface NodeFindings {
  /** its external `POST /v3/dry-run` (the `dry-run` endpoint group) */
  readonly dryRun: Allowed;
  /** its internal `POST /v3/debug/transactions/dry-run` (asked where NODE_INTERNAL_URL names its internal API) */
  readonly internalDryRun: Allowed;
  /** its internal debug endpoints (`/v3/debug/*`: the same gate as the debug dry-run's) */
  readonly debugEndpoints: Allowed;
  /** whether its external dry-run's gas cap admits a request of the middleware (`on`: it does) */
  readonly gasCap: Allowed;
  /** its dry-runs' time limit: no cheap request tells it */
  readonly dryRunTimeLimit: 'unknown';
  /** whether it keeps the state of old blocks (`on`), or garbage-collected it (`off`: 410) */
  readonly stateHistory: Allowed;
}

/** PROBE_TIMEOUT_MS bounds each probe request: a node slower than that is unknown, not waited for. */
export const PROBE_TIMEOUT_MS = 5000;

/** EMPTY_DRY_RUN: a dry-run of nothing, on both endpoints (the recording's `empty txs`: 200 `{"results":[]}`). */
export const EMPTY_DRY_RUN = '{"txs":[]}';

/** the zero account at genesis: its state read where a pruning node has none (the recording: 404 Account not found) */
export const OLD_STATE_PATH = '/v3/accounts/ak_11111111111111111111111111111111273Yts/height/0';

/**
 * GAS_PROBE is a dry-run of as much gas as a request of the middleware's: CALLS_PER_REQUEST (6) `call_req`s without
 * `gas`, each counted 1 000 000 against the cap, which refuses the request whole when it is lower (403). It is the
 * recording's own request of six calls (`6 call_reqs (gas limit)`: a real node answered it, and a replay of its answers
 * can): `balances()` of the recording's token, a contract no other chain holds, where each call is answered
 * `contract_does_not_exist` without running.
 */
export const GAS_PROBE = `{"txs":[${Array.from(
  { length: 6 },
  () =>
    '{"call_req":{"contract":"ct_A4ycGRCFAakB55jDYZXeyQnrwKLqWCxD4VNducHXRfPCSDTbE","calldata":"cb_KxGAJGtHPyQFo+I=","abi_version":3}}',
).join(',')}]}`;

/** A probe answer: what the readers need of it, its status, or undefined when the node gave none in time. */
type Answer = { readonly status: number } | undefined;

/** readDryRun reads a dry-run's answer to EMPTY_DRY_RUN: served (200), or no such route (404). Pure. */
export function readDryRun(answer: Answer): Allowed {
  if (answer?.status === 200) return 'on';
  return answer?.status === 404 ? 'off' : 'unknown';
}

/**
 * readDebugDryRun reads the internal dry-run's answer to EMPTY_DRY_RUN: served (200), refused by the debug gate
 * (403, `http.internal.debug_endpoints` false) or no debug route (404: `http.endpoints.debug` false, or no internal
 * port there). Pure.
 */
export function readDebugDryRun(answer: Answer): Allowed {
  if (answer?.status === 200) return 'on';
  return answer?.status === 403 || answer?.status === 404 ? 'off' : 'unknown';
}

/** readGasCap reads the answer to gasProbeBody: admitted (200) or over the cap (403). Pure. */
export function readGasCap(answer: Answer): Allowed {
  if (answer?.status === 200) return 'on';
  return answer?.status === 403 ? 'off' : 'unknown';
}

/** readStateHistory reads the answer to OLD_STATE_PATH: the state is there (200, 404 no such account) or gone (410). Pure. */
export function readStateHistory(answer: Answer): Allowed {
  if (answer?.status === 200 || answer?.status === 404) return 'on';
  return answer?.status === 410 ? 'off' : 'unknown';
}

/** What probing takes: the node's external URL, its internal one when known, the stop signal and the meters. */
export interface ProbeTarget {
  readonly url: string;
  readonly internalUrl?: string;
  readonly timeoutMs: number;
  readonly signal?: AbortSignal;
  /** the role's node metrics: each request sent, each answer, each failure, as its clients' requests count */
  readonly meters?: NodeMeters;
}

/**
 * answered is the answer to a request to `path` of `target`'s node, or undefined when it got none (it never rejects).
 * It counts as a client's attempt does (docs/metrics.md): an answer under its node, and a failure by its code where
 * none came or the status is not 2xx, although the probe reads a refusal as a finding (the route off, the state gone).
 */
async function answered(request: Promise<HttpAnswer>, path: string, target: ProbeTarget): Promise<Answer> {
  const { url, timeoutMs, meters } = target;
  const started = performance.now();
  let answer: HttpAnswer;
  try {
    answer = await request;
  } catch (err) {
    if (!(err instanceof HttpGetError)) throw err;
    meters?.onError?.(noAnswer(path, err, timeoutMs));
    return undefined;
  }
  meters?.onAnswer?.(url, performance.now() - started);
  if (answer.status < 200 || answer.status >= 300)
    meters?.onError?.(badResponse(path, `node answered ${path}: ${answer.status}`, answer.status));
  return answer;
}

/**
 * probeNode asks a node what it allows: the external dry-run of nothing and the old state at once, then (where the
 * dry-run is served) the gas cap's request, and the internal dry-run where `internalUrl` is given. At most four
 * requests, none retried.
 */
export async function probeNode(target: ProbeTarget): Promise<NodeFindings> {
  const { url, internalUrl, timeoutMs, signal, meters } = target;
  const dryRunOptions = { signal, meter: meters?.metrics?.meter('node', 'dry_run') };
  const read = { signal, meter: meters?.metrics?.meter('node', 'read') };
  const post = (base: string, path: string, body: string): Promise<Answer> =>
    answered(httpPostJson(new URL(`${base}${path}`), body, timeoutMs, dryRunOptions), path, target);
  const [dryRun, stateHistory, debug] = await Promise.all([
    post(url, '/v3/dry-run', EMPTY_DRY_RUN).then(readDryRun),
    answered(httpGet(new URL(`${url}${OLD_STATE_PATH}`), timeoutMs, read), OLD_STATE_PATH, target).then(
      readStateHistory,
    ),
    internalUrl === undefined
      ? ('unknown' as const)
      : post(internalUrl, '/v3/debug/transactions/dry-run', EMPTY_DRY_RUN).then(readDebugDryRun),
  ]);
  const gasCap = dryRun === 'on' ? readGasCap(await post(url, '/v3/dry-run', GAS_PROBE)) : 'unknown';
  return { dryRun, internalDryRun: debug, debugEndpoints: debug, gasCap, dryRunTimeLimit: 'unknown', stateHistory };
}
