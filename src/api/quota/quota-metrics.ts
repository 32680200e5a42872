/** @module Prometheus metrics of API keys and quotas, per key id and tier (never the key itself, never an address). */
import type prom from 'prom-client';
import { registerMetrics, type MetricsOf } from '../../base/metric-table.ts';

const QUOTA_METRICS = {
  requests: {
    type: 'counter',
    name: 'mdw_api_key_requests_total',
    help: 'Requests by key id (`anonymous` for every address without a key), tier and result: allowed, over_quota (429), unknown_key or revoked (401).',
    labels: ['key_id', 'tier', 'result'],
  },
  units: {
    type: 'counter',
    name: 'mdw_api_key_units_total',
    help: 'Quota units let in by key id and tier (a plain request is 1; exports, long pages and GraphQL documents more).',
    labels: ['key_id', 'tier'],
  },
  held: {
    type: 'gauge',
    name: 'mdw_api_key_held',
    help: 'Websocket connections, subscriptions and exports held now on this server, by key id, tier and kind.',
    labels: ['key_id', 'tier', 'kind'],
  },
  flushDuration: {
    type: 'histogram',
    name: 'mdw_api_quota_flush_duration_seconds',
    help: "Duration of a flush of this server's quota counts to the shared ones in PostgreSQL.",
    buckets: [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 1],
  },
  flushFailures: {
    type: 'counter',
    name: 'mdw_api_quota_flush_failures_total',
    help: 'Flushes of the quota counts that failed (the server counts alone until one succeeds).',
  },
} as const;

export type QuotaMetrics = MetricsOf<typeof QUOTA_METRICS>;

/** createQuotaMetrics registers the quota metrics on `registry`. */
export function createQuotaMetrics(registry: prom.Registry): QuotaMetrics {
  return registerMetrics(registry, QUOTA_METRICS);
}
