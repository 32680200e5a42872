/**
 * @module The populator's Prometheus metrics, registered on the registry the caller gives; its requests to the node
 * and the compiler count in the process's one outbound metric (node/outbound-metrics.ts).
 */
import type prom from 'prom-client';
import { registerMetrics, type MetricsOf } from '../base/metric-table.ts';
import { createOutboundMetrics, type OutboundMetrics } from '../node/outbound-metrics.ts';

const INDEXER_METRICS = {
  syncHeight: { type: 'gauge', name: 'mdw_sync_height', help: 'Highest height stored in the database' },
  nodeHeight: { type: 'gauge', name: 'mdw_node_height', help: 'Top height reported by the node' },
  lag: {
    type: 'gauge',
    name: 'mdw_sync_lag_blocks',
    help: "Node top minus stored top; NaN (unknown) while the node's top cannot be asked",
  },
  /** with time(): the age of mdw_node_height (a node that stopped answering leaves it at its last answer) */
  lastPoll: {
    type: 'gauge',
    name: 'mdw_node_last_poll_timestamp_seconds',
    help: "When the node last answered the populator's poll of its top height (Unix time, seconds)",
  },
  /** with time(): the age of the last commit, which grows while nothing is stored */
  lastCommit: {
    type: 'gauge',
    name: 'mdw_indexer_last_commit_timestamp_seconds',
    help: 'When the populator last committed a batch (Unix time, seconds; the start of the process until its first)',
  },
  /** the populator's own view of its dependencies (the server's is mdw_dependency_up, api/http/outage.ts) */
  dependencyUp: {
    type: 'gauge',
    name: 'mdw_populator_dependency_up',
    help: "1 while the populator's last use of the dependency succeeded (node: the poll of its top; database: taking the writer lock), 0 since one failed",
    labels: ['dependency'],
  },
  batches: { type: 'counter', name: 'mdw_indexer_batches_total', help: 'Batches committed' },
  transactions: { type: 'counter', name: 'mdw_indexer_transactions_total', help: 'Transactions written' },
  generations: { type: 'counter', name: 'mdw_indexer_generations_total', help: 'Generations written' },
  batchSeconds: {
    type: 'histogram',
    name: 'mdw_indexer_batch_duration_seconds',
    help: 'Time to fetch, decode and commit one batch',
    buckets: [0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60],
  },
  nodeErrors: {
    type: 'counter',
    name: 'mdw_node_request_errors_total',
    help: 'Failed node requests (each attempt)',
    labels: ['code'],
  },
  rollbacks: { type: 'counter', name: 'mdw_indexer_rollbacks_total', help: 'Forks handled by deleting heights' },
  /** real forks only: growth of the top generation is not one */
  forks: {
    type: 'counter',
    name: 'mdw_sync_forks_total',
    help: 'Forks detected (stored blocks the node replaced); new micro blocks at the top are not counted',
  },
  /** failed steps and lock takes, by kind (an error code, a SQLSTATE, an error name) */
  failures: {
    type: 'counter',
    name: 'mdw_populator_failures_total',
    help: 'Failed populator steps and writer-lock takes (each retried), by kind',
    labels: ['kind'],
  },
  /** answers per node (each attempt that got one, error statuses included) */
  nodeRequests: {
    type: 'counter',
    name: 'mdw_node_requests_total',
    help: 'Answers from each node (every attempt that got one)',
    labels: ['node'],
  },
  /** times a node left the set for being on another fork than the most advanced node */
  nodeForks: {
    type: 'counter',
    name: 'mdw_node_forks_total',
    help: 'Times a node left the set of NODE_URLS for being on another fork than the most advanced node',
    labels: ['node'],
  },
  /** stored heights whose rows of a derived area are still to derive (derive_backfill) */
  derivePendingHeights: {
    type: 'gauge',
    name: 'mdw_derive_pending_heights',
    help: 'Stored heights whose rows of a derived area (transfers, stats) are still to derive from the stored rows',
    labels: ['area'],
  },
  /** 1 while a derived area's derivation fails (its heights wait in derive_backfill) */
  deriveFailing: {
    type: 'gauge',
    name: 'mdw_derive_failing',
    help: "1 while a derived area's derivation fails (retried with backoff; the chain is followed meanwhile)",
    labels: ['area'],
  },
  /** transactions stored whose type this version does not know, by the node's name of the type */
  unknownTransactions: {
    type: 'counter',
    name: 'mdw_unknown_transactions_total',
    help: 'Transactions stored whose type this version does not know (stored, served and counted under their name)',
    labels: ['type'],
  },
  /** AEX-9 tokens whose events took a balance or the supply below zero: their balances are read from their state */
  aex9StateTokens: {
    type: 'counter',
    name: 'mdw_aex9_state_tokens_total',
    help: "AEX-9 tokens whose events took a balance or the supply below zero: their balances read from the contract's state from then on, by reason",
    labels: ['reason'],
  },
  /** accounts whose balance derived from the chain's rules was not the node's at a batch's end (issue 76) */
  balanceDifferences: {
    type: 'counter',
    name: 'mdw_balance_differences_total',
    help: "Accounts whose AE balance derived from the chain's rules was not the node's at a batch's end: each stored as an 'unexplained' balance change",
  },
  /** contract calls stored without call info because every node had garbage-collected it (410) */
  callInfoPruned: {
    type: 'counter',
    name: 'mdw_indexer_call_info_pruned_total',
    help: 'Contract calls stored without call info: every node answered 410 (state garbage-collected)',
  },
} as const;

/** the protocol of the newest key block stored, and 1 per stored protocol this middleware does not know */
const PROTOCOL_METRICS = {
  version: {
    type: 'gauge',
    name: 'mdw_protocol_version',
    help: 'Consensus protocol of the newest key block the populator stored',
  },
  unknown: {
    type: 'gauge',
    name: 'mdw_unknown_protocol',
    help: 'A stored consensus protocol this middleware does not know (followed with the last known rules)',
    labels: ['protocol'],
  },
} as const;

export type IndexerMetrics = MetricsOf<typeof INDEXER_METRICS> & {
  readonly protocol: MetricsOf<typeof PROTOCOL_METRICS>;
  /** every request to the node and the compiler, by target, operation and outcome */
  readonly outbound: OutboundMetrics;
  /** answered counts an answer of `node` in mdw_node_requests_total */
  readonly answered: (node: string) => void;
};

/**
 * createIndexerMetrics registers the indexer's metrics (never on the default registry). The answers per node are
 * tallied here and added to their counter when it is read: prom-client checks and hashes the labels of every `inc`
 * (2.0k instructions, valgrind), and every request the populator sends has an answer.
 */
export function createIndexerMetrics(registry: prom.Registry): IndexerMetrics {
  const answers = new Map<string, number>();
  return {
    ...registerMetrics(registry, INDEXER_METRICS, {
      nodeRequests: (counter) => {
        for (const [node, count] of answers) counter.inc({ node }, count);
        answers.clear();
      },
    }),
    protocol: registerMetrics(registry, PROTOCOL_METRICS),
    outbound: createOutboundMetrics(registry),
    answered: (node) => answers.set(node, (answers.get(node) ?? 0) + 1),
  };
}
