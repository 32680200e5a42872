/**
 * @module The one metric of every request this process sends out (the node's API, its mempool, dry-runs, the
 * /v2 and /v3 forwarding, the Sophia compiler): one histogram by whom it asked, for what, and how it ended; and the
 * waits a server asked for with Retry-After (a node's 503), which this process kept before asking again.
 */
import type prom from 'prom-client';
import { LeanHistogram, type LeanHistogramChild } from '../base/lean-histogram.ts';
import { registerMetrics } from '../base/metric-table.ts';

/** OutboundTarget: who is asked. */
export type OutboundTarget = 'node' | 'compiler';

/**
 * OutboundOperation: what for. The node's: `read` (chain data: the populator's, the status's height, a contract's
 * code), `status` (its `/v2/status`: the outage probe, `/mdw/v3/status`), `dry_run`, `mempool` (its pending list),
 * `forward` (a client's request passed on); the compiler's: `version`, `compile`, `decode`.
 */
export type OutboundOperation =
  'read' | 'status' | 'dry_run' | 'mempool' | 'forward' | 'version' | 'compile' | 'decode';

/**
 * OutboundOutcome: an answer's status class, or why there was none: `timeout` (no answer within NODE_TIMEOUT_MS),
 * `unreachable` (refused, reset, no route), `aborted` (this process stopped asking).
 */
export type OutboundOutcome = '1xx' | '2xx' | '3xx' | '4xx' | '5xx' | 'timeout' | 'unreachable' | 'aborted';

/** Meter records how one kind of request (a target and an operation) ended and how long it took. */
export type Meter = (outcome: OutboundOutcome, seconds: number) => void;

export const OUTBOUND_METRIC = 'mdw_outbound_request_duration_seconds';

/** The histogram of every request: a LeanHistogram, observed at each request's end. */
const REQUESTS = {
  name: OUTBOUND_METRIC,
  help: 'Requests this process sent (node, compiler) by target, operation and outcome (status class, timeout, unreachable, aborted).',
  labels: ['target', 'operation', 'outcome'],
  buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30],
} as const;

const OUTBOUND_METRICS = {
  retryAfter: {
    type: 'histogram',
    name: 'mdw_outbound_retry_after_wait_seconds',
    help: 'Waits before asking again that a server asked for with Retry-After (a node overloaded or starting), by target.',
    labels: ['target'],
    buckets: [1, 3, 10, 30, 60],
  },
} as const;

/** OutboundMetrics is the histogram on one registry, handing out a Meter per kind of request. */
export class OutboundMetrics {
  readonly #histogram: LeanHistogram<'target' | 'operation' | 'outcome'>;
  readonly #retryAfter: prom.Histogram<'target'>;

  constructor(registry: prom.Registry) {
    this.#histogram = new LeanHistogram(registry, REQUESTS);
    this.#retryAfter = registerMetrics(registry, OUTBOUND_METRICS).retryAfter;
  }

  /** waitedAsAsked records a wait of `seconds` kept because `target` answered with a Retry-After. */
  waitedAsAsked(target: OutboundTarget, seconds: number): void {
    this.#retryAfter.observe({ target }, seconds);
  }

  /** meter is the Meter of requests to `target` for `operation` (a label set per outcome, looked up once). */
  meter(target: OutboundTarget, operation: OutboundOperation): Meter {
    const children = new Map<OutboundOutcome, LeanHistogramChild>();
    return (outcome, seconds) => {
      let child = children.get(outcome);
      if (child === undefined) {
        child = this.#histogram.labels({ target, operation, outcome });
        children.set(outcome, child);
      }
      child.observe(seconds);
    };
  }
}

/** One per registry: a process with both roles (`mdw -p -s`) has the populator and the server count in the same one. */
const BY_REGISTRY = new WeakMap<prom.Registry, OutboundMetrics>();

/** createOutboundMetrics is the OutboundMetrics of `registry`, registered on it the first time. */
export function createOutboundMetrics(registry: prom.Registry): OutboundMetrics {
  let metrics = BY_REGISTRY.get(registry);
  if (metrics === undefined) {
    metrics = new OutboundMetrics(registry);
    BY_REGISTRY.set(registry, metrics);
  }
  return metrics;
}
