/**
 * @module Prometheus metrics of the HTTP API: requests, cache answers, database pool, sync progress; and its requests
 * to the node and the compiler, in the process's one outbound metric (node/outbound-metrics.ts).
 */
import prom from 'prom-client';
import type { Pool } from '../../db/pool.ts';
import type { ReadReplicas } from '../../db/read-replicas.ts';
import type { ReplicaState } from '../../db/replica-watch.ts';
import { createOutboundMetrics, type OutboundMetrics } from '../../node/outbound-metrics.ts';
import { syncState } from '../../db/queries/sync-state.ts';
import type { Admission } from './admission.ts';
import type { HeapTrim } from './heap-trim.ts';
import type { NodeHeight } from './node-height.ts';
import type { ResponseCache } from './response-cache.ts';

/** ApiMetrics is what the API middleware and handlers record into. */
export interface ApiMetrics {
  readonly requests: prom.Counter<'method' | 'route' | 'status'>;
  readonly duration: prom.Histogram<'method' | 'route'>;
  /** answers of the cached node routes (/v2, /v3): `hit` from the database, `forward` to the node */
  readonly cacheAnswers: prom.Counter<'result'>;
  /** every request the server sends to the node (forwarded or its own) and to the compiler */
  readonly outbound: OutboundMetrics;
  /** requests refused as overload: 503 with Retry-After, the database pool full */
  readonly shed: prom.Counter;
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
}

/** createApiMetrics registers the API's metrics in the given registry (never the default one). */
export function createApiMetrics(registry: prom.Registry): ApiMetrics {
  const registers = [registry];
  const pools: Pool[] = [];
  const nodeHeights: NodeHeight[] = [];
  new prom.Gauge({
    name: 'mdw_api_db_pool_connections',
    help: 'Database pool connections by state (total, idle, waiting requests).',
    labelNames: ['state'] as const,
    registers,
    collect() {
      for (const [state, n] of [
        ['total', 0],
        ['idle', 0],
        ['waiting', 0],
      ] as const)
        this.set({ state }, n);
      for (const p of pools) {
        this.inc({ state: 'total' }, p.totalCount);
        this.inc({ state: 'idle' }, p.idleCount);
        this.inc({ state: 'waiting' }, p.waitingCount);
      }
    },
  });
  new prom.Gauge({
    name: 'mdw_api_sync_height',
    help: "Heights as this server sees them: the database top, the node's height now, and the lag.",
    labelNames: ['kind'] as const,
    registers,
    async collect() {
      const pool = pools[0];
      if (!pool) return;
      try {
        // the node's height as /middleware/status reads it (not the populator's last write, stale when it is down)
        const [s, node] = await Promise.all([syncState(pool), nodeHeights[0]?.current() ?? null]);
        if (s.topHeight !== undefined) this.set({ kind: 'database' }, s.topHeight);
        if (node !== null) this.set({ kind: 'node' }, node);
        if (s.topHeight !== undefined && node !== null) this.set({ kind: 'lag' }, Math.max(0, node - s.topHeight));
      } catch {
        // The database is down: /readyz reports it; the gauge keeps its last values.
      }
    },
  });
  const admissions: Admission[] = [];
  new prom.Gauge({
    name: 'mdw_api_admission_requests',
    help: "ae_mdw's requests that read the database: running, and waiting for a turn (beyond its limits: 503).",
    labelNames: ['state'] as const,
    registers,
    collect() {
      for (const state of ['running', 'waiting'] as const)
        this.set(
          { state },
          admissions.reduce((n, a) => n + a.counts[state], 0),
        );
    },
  });
  const trims: HeapTrim[] = [];
  new prom.Counter({
    name: 'mdw_api_heap_trims_total',
    help: "Collections run once a burst was over to give its memory back (V8's pooled pages).",
    registers,
    collect() {
      this.reset();
      this.inc(trims.reduce((n, t) => n + t.counts.trims, 0));
    },
  });
  new prom.Counter({
    name: 'mdw_api_heap_trim_seconds_total',
    help: 'Time the event loop spent in those collections.',
    registers,
    collect() {
      this.reset();
      this.inc(trims.reduce((n, t) => n + t.counts.pauseSeconds, 0));
    },
  });
  const caches: ResponseCache[] = [];
  new prom.Counter({
    name: 'mdw_api_response_cache_events_total',
    help: 'In-memory cache of final cached node answers (/v2, /v3): hits, misses (read from the database), evictions (size bounds), invalidations (rollbacks).',
    labelNames: ['event'] as const,
    registers,
    collect() {
      this.reset();
      for (const s of caches.map((c) => c.stats())) {
        this.inc({ event: 'hit' }, s.hits);
        this.inc({ event: 'miss' }, s.misses);
        this.inc({ event: 'eviction' }, s.evictions);
        this.inc({ event: 'invalidation' }, s.invalidations);
      }
    },
  });
  new prom.Gauge({
    name: 'mdw_api_response_cache_size',
    help: 'In-memory cache of final cached node answers (/v2, /v3): entries and bytes held.',
    labelNames: ['unit'] as const,
    registers,
    collect() {
      this.set(
        { unit: 'entries' },
        caches.reduce((n, c) => n + c.stats().entries, 0),
      );
      this.set(
        { unit: 'bytes' },
        caches.reduce((n, c) => n + c.stats().bytes, 0),
      );
    },
  });
  const replicaSets: ReadReplicas[] = [];
  const replicaGauge = (name: string, help: string, value: (s: ReplicaState) => number | null): void => {
    new prom.Gauge({
      name,
      help,
      labelNames: ['replica'] as const,
      registers,
      collect() {
        this.reset();
        for (const state of replicaSets.flatMap((r) => r.states())) {
          const v = value(state);
          if (v !== null) this.set({ replica: state.url }, v);
        }
      },
    });
  };
  replicaGauge(
    'mdw_api_read_replica_lag_seconds',
    'Seconds since the primary was first seen beyond what the read replica has replayed (0: caught up).',
    (s) => s.lagSeconds,
  );
  replicaGauge(
    'mdw_api_read_replica_lag_bytes',
    "WAL bytes the read replica has still to replay of the primary's position at the last look.",
    (s) => s.lagBytes,
  );
  replicaGauge(
    'mdw_api_read_replica_serving',
    'Whether reads go to the read replica: 1 when it answers, is a standby and has replayed what this server acted on.',
    (s) => (s.serving ? 1 : 0),
  );
  return {
    requests: new prom.Counter({
      name: 'mdw_api_http_requests_total',
      help: 'HTTP requests by method, route and status.',
      labelNames: ['method', 'route', 'status'] as const,
      registers,
    }),
    duration: new prom.Histogram({
      name: 'mdw_api_http_request_duration_seconds',
      help: 'HTTP request duration by method and route.',
      labelNames: ['method', 'route'] as const,
      registers,
      // 5: the admission's bound (admission.ts): what an answer should come within, under overload too
      buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
    }),
    cacheAnswers: new prom.Counter({
      name: 'mdw_api_cache_answers_total',
      help: 'Cached node routes answered from the database (hit) or forwarded to the node (forward).',
      labelNames: ['result'] as const,
      registers,
    }),
    outbound: createOutboundMetrics(registry),
    shed: new prom.Counter({
      name: 'mdw_api_shed_requests_total',
      help: 'Requests refused with 503 and Retry-After because the database pool and its queue were full (overload).',
      registers,
    }),
    watch(pool, nodeHeight) {
      pools.push(pool);
      nodeHeights.push(nodeHeight);
    },
    watchAdmission(admission) {
      admissions.push(admission);
    },
    watchHeapTrim(trim) {
      trims.push(trim);
    },
    watchCache(cache) {
      caches.push(cache);
    },
    watchReplicas(replicas) {
      replicaSets.push(replicas);
    },
  };
}
