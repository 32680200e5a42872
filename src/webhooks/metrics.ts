/** @module Prometheus metrics of the webhook sender (docs/webhooks.md, "Metrics"). */
import type prom from 'prom-client';
import { registerMetrics, type MetricsOf } from '../base/metric-table.ts';

const WEBHOOK_METRICS = {
  deliveries: {
    type: 'counter',
    name: 'mdw_webhook_deliveries_total',
    help: 'Delivery attempts by result: ok (a 2xx), failed (any other answer, a timeout, a refused address), disabled (the last retry failed)',
    labels: ['result'],
  },
  lag: {
    type: 'histogram',
    name: 'mdw_webhook_delivery_lag_seconds',
    help: 'Time from a delivery written (its batch transaction) to its receiver answering 2xx, for hooks with confirmations 0',
    buckets: [0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 300],
  },
  queueDepth: {
    type: 'gauge',
    name: 'mdw_webhook_queue_depth',
    help: 'Deliveries not yet delivered, of hooks not disabled (read every few seconds)',
  },
} as const;

/** WebhookMetrics is the typed set of the sender's metrics on one registry. */
export type WebhookMetrics = MetricsOf<typeof WEBHOOK_METRICS>;

/** createWebhookMetrics registers the sender's metrics on `registry` (never the default one). */
export function createWebhookMetrics(registry: prom.Registry): WebhookMetrics {
  return registerMetrics(registry, WEBHOOK_METRICS);
}
