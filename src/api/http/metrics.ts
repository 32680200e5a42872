/**
 * @module Prometheus metrics of the HTTP API: requests, cache answers, database pool, sync progress; and its requests
 * to the node and the compiler, in the process's one outbound metric (node/outbound-metrics.ts).
 */
import type prom from 'prom-client';
import { registerMetrics, type Collectors, type MetricsOf } from '../../base/metric-table.ts';
import type { Pool } from '../../db/connection/pool.ts';
import type { ReadReplicas } from '../../db/connection/read-replicas.ts';
import type { ReplicaState } from '../../db/connection/replica-watch.ts';
import { createOutboundMetrics, type OutboundMetrics } from '../../node/outbound-metrics.ts';
import { syncState } from '../../db/queries/sync-state.ts';
import type { Admission } from './admission.ts';
import type { HeapTrim } from './heap-trim.ts';
import type { NodeHeight } from './node-height.ts';
import type { ResponseCache } from './response-cache.ts';

const API_METRICS = {
  requests: {
    type: 'counter',
    name: 'mdw_api_http_requests_total',
    help: 'HTTP requests by method, route and status (499: the client closed its connection before the answer began).',
    labels: ['method', 'route', 'status'],
  },
  duration: {
    type: 'histogram',
    name: 'mdw_api_http_request_duration_seconds',
    help: 'HTTP request duration by method and route.',
    labels: ['method', 'route'],
    // 5: the admission's bound (admission.ts): what an answer should come within, under overload too
    buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
  },
  /** answers of the cached node routes (/v2, /v3): `hit` from the database, `forward` to the node */
  cacheAnswers: {
    type: 'counter',
    name: 'mdw_api_cache_answers_total',
    help: 'Cached node routes answered from the database (hit) or forwarded to the node (forward).',
    labels: ['result'],
  },
  /** requests refused as overload: 503 with Retry-After, the database pool full */
  shed: {
    type: 'counter',
    name: 'mdw_api_shed_requests_total',
    help: 'Requests refused with 503 and Retry-After because the database pool and its queue were full (overload).',
  },
  /** the readiness pings of the database (kept-readiness.ts): a slow database shows here, the server staying ready */
  readinessPingSeconds: {
    type: 'gauge',
    name: 'mdw_api_readiness_ping_seconds',
    help: 'How long the last readiness ping of the database took (/readyz answers from the last pings at once).',
  },
  readinessDatabase: {
    type: 'gauge',
    name: 'mdw_api_readiness_database',
    help: 'The database as the readiness pings see it: 1 for its state now (answers, busy, slow, failing, unreachable), 0 for the others.',
    labels: ['state'],
  },
} as const;

/** The metrics read at scrape time from the parts the server watches. */
const WATCHED_METRICS = {
  pool: {
    type: 'gauge',
    name: 'mdw_api_db_pool_connections',
    help: 'Database pool connections by state (total, idle, waiting requests).',
    labels: ['state'],
  },
  sync: {
    type: 'gauge',
    name: 'mdw_api_sync_height',
    help: "Heights as this server sees them: the database top, the node's height now, and the lag.",
    labels: ['kind'],
  },
  admission: {
    type: 'gauge',
    name: 'mdw_api_admission_requests',
    help: "ae_mdw's requests that read the database: running, and waiting for a turn (beyond its limits: 503).",
    labels: ['state'],
  },
  heapTrims: {
    type: 'counter',
    name: 'mdw_api_heap_trims_total',
    help: "Collections run once a burst was over to give its memory back (V8's pooled pages).",
  },
  heapTrimSeconds: {
    type: 'counter',
    name: 'mdw_api_heap_trim_seconds_total',
    help: 'Time the event loop spent in those collections.',
  },
  cacheEvents: {
    type: 'counter',
    name: 'mdw_api_response_cache_events_total',
    help: 'In-memory cache of final cached node answers (/v2, /v3): hits, misses (read from the database), evictions (size bounds), invalidations (rollbacks).',
    labels: ['event'],
  },
  cacheSize: {
    type: 'gauge',
    name: 'mdw_api_response_cache_size',
    help: 'In-memory cache of final cached node answers (/v2, /v3): entries and bytes held.',
    labels: ['unit'],
  },
  replicaLagSeconds: {
    type: 'gauge',
    name: 'mdw_api_read_replica_lag_seconds',
    help: 'Seconds since the primary was first seen beyond what the read replica has replayed (0: caught up).',
    labels: ['replica'],
  },
  replicaLagBytes: {
    type: 'gauge',
    name: 'mdw_api_read_replica_lag_bytes',
    help: "WAL bytes the read replica has still to replay of the primary's position at the last look.",
    labels: ['replica'],
  },
  replicaServing: {
    type: 'gauge',
    name: 'mdw_api_read_replica_serving',
    help: 'Whether reads go to the read replica: 1 when it answers, is a standby and has replayed what this server acted on.',
    labels: ['replica'],
  },
} as const;

/** What the readiness (kept-readiness.ts) shows in the metrics: the last ping's duration and the state it judges. */
export interface ReadinessGauges {
  readonly pingSeconds: prom.Gauge;
  readonly state: prom.Gauge<'state'>;
}

/** ApiMetrics is what the API middleware and handlers record into. */
export type ApiMetrics = MetricsOf<typeof API_METRICS> & {
  /** the readiness pings' gauges, as KeptReadiness sets them */
  readonly readiness: ReadinessGauges;
  /** every request the server sends to the node (forwarded or its own) and to the compiler */
  readonly outbound: OutboundMetrics;
  /** watch adds the pool gauges and the sync gauges (the database's top and the node's height now, read at scrape time) */
  watch(pool: Pool, nodeHeight: NodeHeight): void;
  /** watchAdmission adds the requests running and waiting for a turn to read the database, read at scrape time */
  watchAdmission(admission: Admission): void;
  /** watchHeapTrim adds the trims after bursts and the event loop's time they took, read at scrape time */
  watchHeapTrim(trim: HeapTrim): void;
  /** watchCache adds the response cache's counters (hit, miss, eviction, invalidation) and size, read at scrape time */
  watchCache(cache: ResponseCache): void;
  /** watchReplicas adds each read replica's lag and whether reads go there, read at scrape time */
  watchReplicas(replicas: ReadReplicas): void;
};

/** counted sets a counter read at scrape time to the total it counts. */
function counted(counter: prom.Counter, total: number): void {
  counter.reset();
  counter.inc(total);
}

/** createApiMetrics registers the API's metrics in the given registry (never the default one). */
export function createApiMetrics(registry: prom.Registry): ApiMetrics {
  const watched: Watched = { pools: [], nodeHeights: [], admissions: [], trims: [], caches: [], replicaSets: [] };
  registerMetrics(registry, WATCHED_METRICS, watchedCollectors(watched));
  const metrics = registerMetrics(registry, API_METRICS);
  return {
    ...metrics,
    readiness: { pingSeconds: metrics.readinessPingSeconds, state: metrics.readinessDatabase },
    outbound: createOutboundMetrics(registry),
    watch(pool, nodeHeight) {
      watched.pools.push(pool);
      watched.nodeHeights.push(nodeHeight);
    },
    watchAdmission(admission) {
      watched.admissions.push(admission);
    },
    watchHeapTrim(trim) {
      watched.trims.push(trim);
    },
    watchCache(cache) {
      watched.caches.push(cache);
    },
    watchReplicas(replicas) {
      watched.replicaSets.push(replicas);
    },
  };
}

/** What the API's metrics read at scrape time, as the server hands it over (ApiMetrics' `watch…`). */
interface Watched {
  readonly pools: Pool[];
  readonly nodeHeights: NodeHeight[];
  readonly admissions: Admission[];
  readonly trims: HeapTrim[];
  readonly caches: ResponseCache[];
  readonly replicaSets: ReadReplicas[];
}

/** watchedCollectors are WATCHED_METRICS' collectors: each reads what is watched when the registry is scraped. */
function watchedCollectors(watched: Watched): Collectors<typeof WATCHED_METRICS> {
  const { pools, nodeHeights, admissions, trims, caches, replicaSets } = watched;
  const sum = <T>(parts: readonly T[], value: (part: T) => number): number =>
    parts.reduce((n, part) => n + value(part), 0);
  const replicaCollector =
    (value: (s: ReplicaState) => number | null) =>
    (gauge: prom.Gauge<'replica'>): void => {
      gauge.reset();
      for (const state of replicaSets.flatMap((r) => r.states())) {
        const v = value(state);
        if (v !== null) gauge.set({ replica: state.url }, v);
      }
    };
  return {
    pool(gauge) {
      gauge.set(
        { state: 'total' },
        sum(pools, (p) => p.totalCount),
      );
      gauge.set(
        { state: 'idle' },
        sum(pools, (p) => p.idleCount),
      );
      gauge.set(
        { state: 'waiting' },
        sum(pools, (p) => p.waitingCount),
      );
    },
    async sync(gauge) {
      const pool = pools[0];
      if (!pool) return;
      try {
        // the node's height as /middleware/status reads it (not the populator's last write, stale when it is down)
        const [s, node] = await Promise.all([syncState(pool), nodeHeights[0]?.current() ?? null]);
        if (s.topHeight !== undefined) gauge.set({ kind: 'database' }, s.topHeight);
        if (node !== null) gauge.set({ kind: 'node' }, node);
        if (s.topHeight !== undefined && node !== null) gauge.set({ kind: 'lag' }, Math.max(0, node - s.topHeight));
      } catch {
        // The database is down: /readyz reports it; the gauge keeps its last values.
      }
    },
    admission(gauge) {
      for (const state of ['running', 'waiting'] as const)
        gauge.set(
          { state },
          sum(admissions, (a) => a.counts[state]),
        );
    },
    heapTrims: (counter) =>
      counted(
        counter,
        sum(trims, (t) => t.counts.trims),
      ),
    heapTrimSeconds: (counter) =>
      counted(
        counter,
        sum(trims, (t) => t.counts.pauseSeconds),
      ),
    cacheEvents(counter) {
      counter.reset();
      for (const s of caches.map((c) => c.stats())) {
        counter.inc({ event: 'hit' }, s.hits);
        counter.inc({ event: 'miss' }, s.misses);
        counter.inc({ event: 'eviction' }, s.evictions);
        counter.inc({ event: 'invalidation' }, s.invalidations);
      }
    },
    cacheSize(gauge) {
      gauge.set(
        { unit: 'entries' },
        sum(caches, (c) => c.stats().entries),
      );
      gauge.set(
        { unit: 'bytes' },
        sum(caches, (c) => c.stats().bytes),
      );
    },
    replicaLagSeconds: replicaCollector((s) => s.lagSeconds),
    replicaLagBytes: replicaCollector((s) => s.lagBytes),
    replicaServing: replicaCollector((s) => (s.serving ? 1 : 0)),
  };
}
