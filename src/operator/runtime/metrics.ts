/** @module The operator's Prometheus metrics, registered on the registry the caller gives. */
import type prom from 'prom-client';
import { registerMetrics, type MetricTable, type MetricsOf } from '../../base/metric-table.ts';

/**
 * clearLeaderSeries drops the series only the leader may export: one per Middleware (a standby's stale reload state
 * would fire MiddlewareReloadFailed from it) and the counts of its informer caches, which a standby does not have.
 */
export function clearLeaderSeries(metrics: OperatorMetrics): void {
  metrics.reloadState.reset();
  metrics.condition.reset();
  metrics.managedResources.reset();
  metrics.queueDepth.set(0);
}

/** ReconcileResult labels mdw_operator_reconcile_total: done, requeued on purpose, or failed. */
export const ReconcileResult = { SUCCESS: 'success', REQUEUE: 'requeue', ERROR: 'error' } as const;

const QUEUE_BUCKETS = [0.001, 0.005, 0.01, 0.05, 0.1, 0.5, 1, 5, 10, 60];

/** the operator's reconcile, work-queue, watch, leadership, managed-object and Middleware series */
export const OPERATOR_METRICS = {
  reconcileTotal: {
    type: 'counter',
    name: 'mdw_operator_reconcile_total',
    help: 'Reconciles by result',
    labels: ['result'],
  },
  reconcileErrors: {
    type: 'counter',
    name: 'mdw_operator_reconcile_errors_total',
    help: 'Reconciles that threw (requeued with backoff)',
  },
  reconcileDuration: {
    type: 'histogram',
    name: 'mdw_operator_reconcile_duration_seconds',
    help: 'Time of one reconcile of one Middleware',
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30],
  },
  queueDepth: { type: 'gauge', name: 'mdw_operator_workqueue_depth', help: 'Keys waiting for a worker' },
  queueAdds: { type: 'counter', name: 'mdw_operator_workqueue_adds_total', help: 'Keys added to the work queue' },
  queueRetries: {
    type: 'counter',
    name: 'mdw_operator_workqueue_retries_total',
    help: 'Keys requeued with backoff after an error',
  },
  queueLatency: {
    type: 'histogram',
    name: 'mdw_operator_workqueue_queue_duration_seconds',
    help: 'How long a key waited in the work queue before a worker took it',
    buckets: QUEUE_BUCKETS,
  },
  queueWorkDuration: {
    type: 'histogram',
    name: 'mdw_operator_workqueue_work_duration_seconds',
    help: 'How long processing one key took',
    buckets: QUEUE_BUCKETS,
  },
  watchRestarts: {
    type: 'counter',
    name: 'mdw_operator_watch_restarts_total',
    help: 'Watches restarted (reason: closed, error, gone, stalled)',
    labels: ['kind', 'reason'],
  },
  watchRelists: {
    type: 'counter',
    name: 'mdw_operator_watch_relists_total',
    help: 'Full lists made to (re)fill an informer cache',
    labels: ['kind'],
  },
  managedResources: {
    type: 'gauge',
    name: 'mdw_operator_managed_resources',
    help: 'Objects in the informer caches: Middlewares and the children they own',
    labels: ['kind'],
  },
  leader: { type: 'gauge', name: 'mdw_operator_leader', help: '1 while this replica holds the leader Lease' },
  /** fed by the reconciler (createReconciler's metrics.statusUpdates). */
  statusUpdates: {
    type: 'counter',
    name: 'mdw_operator_status_update_total',
    help: 'Middleware status writes by result',
    labels: ['result'],
  },
  /** fed by the reconciler: 1 on the state of each Middleware's last reload, 0 on the others. */
  reloadState: {
    type: 'gauge',
    name: 'mdw_operator_middleware_reload_state',
    help: "1 on the state of a Middleware's last reload (status.reload.state), 0 on the others",
    labels: ['middleware_namespace', 'middleware', 'state'],
  },
  /** fed by the reconciler: 1 on the status of each condition of each Middleware, 0 on the other two. */
  condition: {
    type: 'gauge',
    name: 'mdw_operator_middleware_condition',
    help: "1 on the status (True, False, Unknown) of each of a Middleware's conditions (status.conditions), 0 on the others",
    labels: ['middleware_namespace', 'middleware', 'type', 'status'],
  },
} as const satisfies MetricTable;

export type OperatorMetrics = MetricsOf<typeof OPERATOR_METRICS>;

/** createOperatorMetrics registers the operator's metrics (never on the default registry). */
export function createOperatorMetrics(registry: prom.Registry): OperatorMetrics {
  return registerMetrics(registry, OPERATOR_METRICS);
}
