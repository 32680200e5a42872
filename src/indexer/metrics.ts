/**
 * @module The populator's Prometheus metrics, registered on the registry the caller gives; its requests to the node
 * and the compiler count in the process's one outbound metric (node/outbound-metrics.ts).
 */
import prom from 'prom-client';
import { createOutboundMetrics, type OutboundMetrics } from '../node/outbound-metrics.ts';

export interface IndexerMetrics {
  readonly syncHeight: prom.Gauge;
  readonly nodeHeight: prom.Gauge;
  readonly lag: prom.Gauge;
  /** the protocol of the newest key block stored, and 1 per stored protocol this middleware does not know */
  readonly protocol: { readonly version: prom.Gauge; readonly unknown: prom.Gauge<'protocol'> };
  readonly batches: prom.Counter;
  readonly transactions: prom.Counter;
  readonly generations: prom.Counter;
  readonly batchSeconds: prom.Histogram;
  readonly nodeErrors: prom.Counter<'code'>;
  readonly rollbacks: prom.Counter;
  /** real forks only: growth of the top generation is not one */
  readonly forks: prom.Counter;
  /** failed steps and lock takes, by kind (an error code, a SQLSTATE, an error name) */
  readonly failures: prom.Counter<'kind'>;
  /** contract calls stored without call info because every node had garbage-collected it (410) */
  readonly callInfoPruned: prom.Counter;
  /** every request to the node and the compiler, by target, operation and outcome */
  readonly outbound: OutboundMetrics;
  /** answers per node (each attempt that got one, error statuses included) */
  readonly nodeRequests: prom.Counter<'node'>;
  /** times a node left the set for being on another fork than the most advanced node */
  readonly nodeForks: prom.Counter<'node'>;
  /** stored heights whose rows of a derived area are still to derive (derive_backfill) */
  readonly derivePendingHeights: prom.Gauge<'area'>;
  /** 1 while a derived area's derivation fails (its heights wait in derive_backfill) */
  readonly deriveFailing: prom.Gauge<'area'>;
  /** transactions stored whose type this version does not know, by the node's name of the type */
  readonly unknownTransactions: prom.Counter<'type'>;
}

/** createIndexerMetrics registers the indexer's metrics (never on the default registry). */
export function createIndexerMetrics(registry: prom.Registry): IndexerMetrics {
  const registers = [registry];
  return {
    syncHeight: new prom.Gauge({ name: 'mdw_sync_height', help: 'Highest height stored in the database', registers }),
    nodeHeight: new prom.Gauge({ name: 'mdw_node_height', help: 'Top height reported by the node', registers }),
    lag: new prom.Gauge({ name: 'mdw_sync_lag_blocks', help: 'Node top minus stored top', registers }),
    protocol: {
      version: new prom.Gauge({
        name: 'mdw_protocol_version',
        help: 'Consensus protocol of the newest key block the populator stored',
        registers,
      }),
      unknown: new prom.Gauge({
        name: 'mdw_unknown_protocol',
        help: 'A stored consensus protocol this middleware does not know (followed with the last known rules)',
        labelNames: ['protocol'],
        registers,
      }),
    },
    batches: new prom.Counter({ name: 'mdw_indexer_batches_total', help: 'Batches committed', registers }),
    transactions: new prom.Counter({ name: 'mdw_indexer_transactions_total', help: 'Transactions written', registers }),
    generations: new prom.Counter({ name: 'mdw_indexer_generations_total', help: 'Generations written', registers }),
    batchSeconds: new prom.Histogram({
      name: 'mdw_indexer_batch_duration_seconds',
      help: 'Time to fetch, decode and commit one batch',
      registers,
      buckets: [0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60],
    }),
    nodeErrors: new prom.Counter({
      name: 'mdw_node_request_errors_total',
      help: 'Failed node requests (each attempt)',
      labelNames: ['code'],
      registers,
    }),
    rollbacks: new prom.Counter({
      name: 'mdw_indexer_rollbacks_total',
      help: 'Forks handled by deleting heights',
      registers,
    }),
    forks: new prom.Counter({
      name: 'mdw_sync_forks_total',
      help: 'Forks detected (stored blocks the node replaced); new micro blocks at the top are not counted',
      registers,
    }),
    failures: new prom.Counter({
      name: 'mdw_populator_failures_total',
      help: 'Failed populator steps and writer-lock takes (each retried), by kind',
      labelNames: ['kind'],
      registers,
    }),
    outbound: createOutboundMetrics(registry),
    nodeRequests: new prom.Counter({
      name: 'mdw_node_requests_total',
      help: 'Answers from each node (every attempt that got one)',
      labelNames: ['node'],
      registers,
    }),
    nodeForks: new prom.Counter({
      name: 'mdw_node_forks_total',
      help: 'Times a node left the set of NODE_URLS for being on another fork than the most advanced node',
      labelNames: ['node'],
      registers,
    }),
    derivePendingHeights: new prom.Gauge({
      name: 'mdw_derive_pending_heights',
      help: 'Stored heights whose rows of a derived area (transfers, stats) are still to derive from the stored rows',
      labelNames: ['area'],
      registers,
    }),
    deriveFailing: new prom.Gauge({
      name: 'mdw_derive_failing',
      help: "1 while a derived area's derivation fails (retried with backoff; the chain is followed meanwhile)",
      labelNames: ['area'],
      registers,
    }),
    unknownTransactions: new prom.Counter({
      name: 'mdw_unknown_transactions_total',
      help: 'Transactions stored whose type this version does not know (stored, served and counted under their name)',
      labelNames: ['type'],
      registers,
    }),
    callInfoPruned: new prom.Counter({
      name: 'mdw_indexer_call_info_pruned_total',
      help: 'Contract calls stored without call info: every node answered 410 (state garbage-collected)',
      registers,
    }),
  };
}
