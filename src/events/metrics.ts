/**
 * @module Prometheus metrics of the websocket server (connections, messages, slow clients, latency); its polls of the
 * node's mempool count in the process's one outbound metric (node/outbound-metrics.ts).
 */
import prom from 'prom-client';
import { createOutboundMetrics, type OutboundMetrics } from '../node/outbound-metrics.ts';

/** WebsocketMetrics is the typed set of websocket metrics registered on one registry. */
export interface WebsocketMetrics {
  readonly connections: prom.Gauge;
  readonly connectionsRefused: prom.Counter;
  readonly messagesSent: prom.Counter<'subscription'>;
  readonly messagesReceived: prom.Counter<'result'>;
  readonly slowClientsClosed: prom.Counter;
  readonly deadPeersTerminated: prom.Counter;
  readonly deliveryLatency: prom.Histogram;
  readonly listenerReconnects: prom.Counter;
  /** the polls of the node's mempool for tx_update */
  readonly outbound: OutboundMetrics;
}

/** createWebsocketMetrics registers the websocket metrics on `registry` (never the default one). */
export function createWebsocketMetrics(registry: prom.Registry): WebsocketMetrics {
  const registers = [registry];
  return {
    connections: new prom.Gauge({ name: 'mdw_ws_connections', help: 'Open websocket connections', registers }),
    connectionsRefused: new prom.Counter({
      name: 'mdw_ws_connections_refused_total',
      help: 'Websocket connections closed at once because the maximum was reached',
      registers,
    }),
    messagesSent: new prom.Counter({
      name: 'mdw_ws_messages_sent_total',
      help: 'Chain event messages sent to websocket clients, by subscription kind',
      labelNames: ['subscription'],
      registers,
    }),
    messagesReceived: new prom.Counter({
      name: 'mdw_ws_messages_received_total',
      help: 'Messages received from websocket clients, by result (ok or error)',
      labelNames: ['result'],
      registers,
    }),
    slowClientsClosed: new prom.Counter({
      name: 'mdw_ws_slow_clients_closed_total',
      help: 'Websocket clients closed because their send buffer exceeded the limit',
      registers,
    }),
    deadPeersTerminated: new prom.Counter({
      name: 'mdw_ws_dead_peers_terminated_total',
      help: 'Websocket clients terminated for not answering a ping',
      registers,
    }),
    deliveryLatency: new prom.Histogram({
      name: 'mdw_ws_delivery_latency_seconds',
      help: 'Time from the populator notification (after commit) to the event handed to every subscriber',
      buckets: [0.001, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
      registers,
    }),
    listenerReconnects: new prom.Counter({
      name: 'mdw_ws_listener_reconnects_total',
      help: 'Times the LISTEN connection to the database was re-established',
      registers,
    }),
    outbound: createOutboundMetrics(registry),
  };
}
