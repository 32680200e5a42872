/**
 * @module Prometheus metrics of the websocket server (connections, messages, slow clients, latency); its polls of the
 * node's mempool count in the process's one outbound metric (node/outbound-metrics.ts).
 */
import type prom from 'prom-client';
import { registerMetrics, type MetricsOf } from '../base/metric-table.ts';
import { createOutboundMetrics, type OutboundMetrics } from '../node/outbound-metrics.ts';

const WEBSOCKET_METRICS = {
  connections: { type: 'gauge', name: 'mdw_ws_connections', help: 'Open websocket connections' },
  connectionsRefused: {
    type: 'counter',
    name: 'mdw_ws_connections_refused_total',
    help: 'Websocket connections closed at once because the maximum was reached',
  },
  messagesSent: {
    type: 'counter',
    name: 'mdw_ws_messages_sent_total',
    help: 'Chain event messages sent to websocket clients, by subscription kind',
    labels: ['subscription'],
  },
  messagesReceived: {
    type: 'counter',
    name: 'mdw_ws_messages_received_total',
    help: 'Messages received from websocket clients, by result (ok or error)',
    labels: ['result'],
  },
  slowClientsClosed: {
    type: 'counter',
    name: 'mdw_ws_slow_clients_closed_total',
    help: 'Websocket clients closed because their send buffer exceeded the limit',
  },
  deadPeersTerminated: {
    type: 'counter',
    name: 'mdw_ws_dead_peers_terminated_total',
    help: 'Websocket clients terminated for not answering a ping',
  },
  deliveryLatency: {
    type: 'histogram',
    name: 'mdw_ws_delivery_latency_seconds',
    help: 'Time from the populator notification (after commit) to the event handed to every subscriber',
    buckets: [0.001, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
  },
  listenerReconnects: {
    type: 'counter',
    name: 'mdw_ws_listener_reconnects_total',
    help: 'Times the LISTEN connection to the database was re-established',
  },
} as const;

/** WebsocketMetrics is the typed set of websocket metrics registered on one registry. */
export type WebsocketMetrics = MetricsOf<typeof WEBSOCKET_METRICS> & {
  /** the polls of the node's mempool for tx_update */
  readonly outbound: OutboundMetrics;
};

/** createWebsocketMetrics registers the websocket metrics on `registry` (never the default one). */
export function createWebsocketMetrics(registry: prom.Registry): WebsocketMetrics {
  return { ...registerMetrics(registry, WEBSOCKET_METRICS), outbound: createOutboundMetrics(registry) };
}
