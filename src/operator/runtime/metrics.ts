/** @module The operator's Prometheus metrics, registered on the registry the caller gives. */
import prom from 'prom-client';

/** OperatorMetrics are the operator's reconcile, work-queue, watch, leadership, managed-object and Middleware series. */
export interface OperatorMetrics {
  readonly reconcileTotal: prom.Counter<'result'>;
  readonly reconcileErrors: prom.Counter;
  readonly reconcileDuration: prom.Histogram;
  readonly queueDepth: prom.Gauge;
  readonly queueAdds: prom.Counter;
  readonly queueRetries: prom.Counter;
  readonly queueLatency: prom.Histogram;
  readonly queueWorkDuration: prom.Histogram;
  readonly watchRestarts: prom.Counter<'kind' | 'reason'>;
  readonly watchRelists: prom.Counter<'kind'>;
  readonly managedResources: prom.Gauge<'kind'>;
  readonly leader: prom.Gauge;
  /** fed by the reconciler (createReconciler's metrics.statusUpdates). */
  readonly statusUpdates: prom.Counter<'result'>;
  /** fed by the reconciler: 1 on the state of each Middleware's last reload, 0 on the others. */
  readonly reloadState: prom.Gauge<'middleware_namespace' | 'middleware' | 'state'>;
  /** fed by the reconciler: 1 on the status of each condition of each Middleware, 0 on the other two. */
  readonly condition: prom.Gauge<'middleware_namespace' | 'middleware' | 'type' | 'status'>;
}

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

/** createOperatorMetrics registers the operator's metrics (never on the default registry). */
export function createOperatorMetrics(registry: prom.Registry): OperatorMetrics {
  const registers = [registry];
  return {
    reconcileTotal: new prom.Counter({
      name: 'mdw_operator_reconcile_total',
      help: 'Reconciles by result',
      labelNames: ['result'],
      registers,
    }),
    reconcileErrors: new prom.Counter({
      name: 'mdw_operator_reconcile_errors_total',
      help: 'Reconciles that threw (requeued with backoff)',
      registers,
    }),
    reconcileDuration: new prom.Histogram({
      name: 'mdw_operator_reconcile_duration_seconds',
      help: 'Time of one reconcile of one Middleware',
      registers,
      buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30],
    }),
    queueDepth: new prom.Gauge({ name: 'mdw_operator_workqueue_depth', help: 'Keys waiting for a worker', registers }),
    queueAdds: new prom.Counter({
      name: 'mdw_operator_workqueue_adds_total',
      help: 'Keys added to the work queue',
      registers,
    }),
    queueRetries: new prom.Counter({
      name: 'mdw_operator_workqueue_retries_total',
      help: 'Keys requeued with backoff after an error',
      registers,
    }),
    queueLatency: new prom.Histogram({
      name: 'mdw_operator_workqueue_queue_duration_seconds',
      help: 'How long a key waited in the work queue before a worker took it',
      registers,
      buckets: QUEUE_BUCKETS,
    }),
    queueWorkDuration: new prom.Histogram({
      name: 'mdw_operator_workqueue_work_duration_seconds',
      help: 'How long processing one key took',
      registers,
      buckets: QUEUE_BUCKETS,
    }),
    watchRestarts: new prom.Counter({
      name: 'mdw_operator_watch_restarts_total',
      help: 'Watches restarted (reason: closed, error, gone, stalled)',
      labelNames: ['kind', 'reason'],
      registers,
    }),
    watchRelists: new prom.Counter({
      name: 'mdw_operator_watch_relists_total',
      help: 'Full lists made to (re)fill an informer cache',
      labelNames: ['kind'],
      registers,
    }),
    managedResources: new prom.Gauge({
      name: 'mdw_operator_managed_resources',
      help: 'Objects in the informer caches: Middlewares and the children they own',
      labelNames: ['kind'],
      registers,
    }),
    leader: new prom.Gauge({
      name: 'mdw_operator_leader',
      help: '1 while this replica holds the leader Lease',
      registers,
    }),
    statusUpdates: new prom.Counter({
      name: 'mdw_operator_status_update_total',
      help: 'Middleware status writes by result',
      labelNames: ['result'],
      registers,
    }),
    reloadState: new prom.Gauge({
      name: 'mdw_operator_middleware_reload_state',
      help: "1 on the state of a Middleware's last reload (status.reload.state), 0 on the others",
      labelNames: ['middleware_namespace', 'middleware', 'state'],
      registers,
    }),
    condition: new prom.Gauge({
      name: 'mdw_operator_middleware_condition',
      help: "1 on the status (True, False, Unknown) of each of a Middleware's conditions (status.conditions), 0 on the others",
      labelNames: ['middleware_namespace', 'middleware', 'type', 'status'],
      registers,
    }),
  };
}
