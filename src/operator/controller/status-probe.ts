/** @module Reads one data generation's `/middleware/status` through its Service: the operator's only view into the middleware. */
import { EnvHttpProxyAgent, fetch } from 'undici';
import { isJsonObject, parseJson, toSafeNumber } from '../../chain/json.ts';

/** ProbeTarget names the Service that fronts one generation's servers. */
export interface ProbeTarget {
  readonly namespace: string;
  readonly service: string;
  readonly port: number;
}

/** ProbeResult is what the operator learns from a status endpoint; unreachable is never synced. */
export interface ProbeResult {
  readonly reachable: boolean;
  readonly synced: boolean;
  /** Highest generation stored by the populator. */
  readonly height?: number;
  /** Height of the node, as the server read it when it answered (`node_height`). */
  readonly nodeHeight?: number;
  /**
   * nodeHeight - height (negative when the store is ahead of the node), computed here from the two heights and never
   * taken from the body's `lag`: a lag that the populator wrote itself freezes when it dies.
   */
  readonly lag?: number;
  /** The HTTP status of the answer (200 only when the server calls itself healthy). */
  readonly httpStatus?: number;
  /** Every height from 0 to `height` is stored (`contiguous`); false or absent for a sparse or old server. */
  readonly contiguous?: boolean;
  /** The populator's heartbeat is fresh and it has not stopped (`populator.alive`). */
  readonly populatorAlive?: boolean;
  /** Age of the populator's heartbeat in seconds (`populator.seconds_since_heartbeat`). */
  readonly secondsSinceHeartbeat?: number;
  /** Why the probe failed or the status was unusable. */
  readonly error?: string;
}

/** StatusProbe reads a generation's status; it never throws (a failure is an unreachable result). */
export type StatusProbe = (target: ProbeTarget) => Promise<ProbeResult>;

/** FetchLike is the slice of the WHATWG fetch the probe needs, injectable for tests. */
export type FetchLike = (
  url: string,
  init: { signal: AbortSignal; headers: Record<string, string> },
) => Promise<{
  status: number;
  text(): Promise<string>;
}>;

/** StatusProbeOptions: fetch (default: the global one) and the per-request timeout. */
export interface StatusProbeOptions {
  readonly fetch?: FetchLike;
  readonly timeoutMs?: number;
  /** Cluster DNS suffix of Services (default `svc`, i.e. `<service>.<namespace>.svc`). */
  readonly serviceDomain?: string;
}

const DEFAULT_TIMEOUT_MS = 3000;

/** statusUrl is the in-cluster URL of a generation's status endpoint. */
export function statusUrl(target: ProbeTarget, serviceDomain = 'svc'): string {
  return `http://${target.service}.${target.namespace}.${serviceDomain}:${target.port}/middleware/status`;
}

/**
 * proxiedFetch is fetch through the HTTP proxy that HTTP_PROXY / NO_PROXY name, if any: an operator that runs where
 * Service names do not resolve (outside the cluster, or the test cluster, whose node agent resolves them) reaches
 * them through such a proxy. Node's own fetch only does so with NODE_USE_ENV_PROXY.
 */
function proxiedFetch(): FetchLike {
  const dispatcher = new EnvHttpProxyAgent();
  return (url, init) => fetch(url, { ...init, dispatcher });
}

/** createStatusProbe returns a probe that GETs `/middleware/status` with a timeout and parses its body. */
export function createStatusProbe(options: StatusProbeOptions = {}): StatusProbe {
  const fetchFn = options.fetch ?? proxiedFetch();
  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  return async function probeStatus(target) {
    const url = statusUrl(target, options.serviceDomain);
    try {
      const response = await fetchFn(url, {
        signal: AbortSignal.timeout(timeoutMs),
        headers: { accept: 'application/json' },
      });
      const body = await response.text();
      return parseStatusBody(response.status, body);
    } catch (err) {
      return { reachable: false, synced: false, error: describeFailure(err) };
    }
  };
}

/**
 * parseStatusBody turns an HTTP answer into a ProbeResult. A 503 still carries the heights (the
 * server reports "not healthy" with its numbers), so they are kept, but such a generation is never
 * synced whatever its body says. The lag is always derived from `node_height` and `height`.
 */
export function parseStatusBody(httpStatus: number, body: string): ProbeResult {
  if (httpStatus !== 200 && httpStatus !== 503) {
    return { reachable: true, synced: false, httpStatus, error: `status endpoint answered ${httpStatus}` };
  }
  let json: unknown;
  try {
    json = parseJson(body);
  } catch {
    return { reachable: true, synced: false, httpStatus, error: 'status body is not JSON' };
  }
  if (!isJsonObject(json))
    return { reachable: true, synced: false, httpStatus, error: 'status body is not a JSON object' };
  const height = optionalHeight(json.height);
  const nodeHeight = optionalHeight(json.node_height);
  // signed: a store ahead of the node (a node behind, or on another fork) is as far off as one behind it
  const lag = height !== undefined && nodeHeight !== undefined ? nodeHeight - height : undefined;
  const synced = httpStatus === 200 && json.synced === true;
  const populator = isJsonObject(json.populator) ? json.populator : {};
  const heartbeatAge = optionalHeight(populator.seconds_since_heartbeat);
  const reason = typeof json.reason === 'string' ? `: ${json.reason}` : '';
  return {
    reachable: true,
    synced,
    httpStatus,
    ...(height === undefined ? {} : { height }),
    ...(nodeHeight === undefined ? {} : { nodeHeight }),
    ...(lag === undefined ? {} : { lag }),
    ...(typeof json.contiguous === 'boolean' ? { contiguous: json.contiguous } : {}),
    ...(typeof populator.alive === 'boolean' ? { populatorAlive: populator.alive } : {}),
    ...(heartbeatAge === undefined ? {} : { secondsSinceHeartbeat: heartbeatAge }),
    ...(httpStatus === 503 ? { error: `status endpoint answered 503${reason}` } : {}),
  };
}

function optionalHeight(value: unknown): number | undefined {
  if (value === undefined || value === null) return undefined;
  try {
    const n = toSafeNumber(value);
    return n >= 0 ? n : undefined;
  } catch {
    return undefined;
  }
}

function describeFailure(err: unknown): string {
  if (err instanceof Error) {
    if (err.name === 'TimeoutError' || err.name === 'AbortError') return 'status endpoint timed out';
    const cause = (err as { cause?: { code?: string } }).cause;
    return cause?.code ? `${err.message} (${cause.code})` : err.message;
  }
  return String(err);
}
