/** @module runOperator: informers → work queue → reconcile, gated by leader election, with metrics and probes. */
import type { Registry } from 'prom-client';
import type { Logger } from '../../log.ts';
import { startOpsServer } from '../../ops-server.ts';
import type { Role } from '../../roles.ts';
import { API_VERSION, KIND } from '../api/middleware-types.ts';
import type { KubeClient, KubeObject } from '../kube/client.ts';
import { LEADER_LEASE_NAME } from '../specs/rbac.ts';
import { ownedHandlers, primaryHandlers } from './handlers.ts';
import { createInformer } from './informer.ts';
import type { Informer, InformerHandlers } from './informer.ts';
import { createLeaderElector } from './leader.ts';
import type { LeaderElector } from './leader.ts';
import { ReconcileResult, createOperatorMetrics } from './metrics.ts';
import type { OperatorMetrics } from './metrics.ts';
import { createWorkQueue } from './queue.ts';
import type { WorkQueue } from './queue.ts';

/** KindRef names a watched kind. */
export interface KindRef {
  apiVersion: string;
  kind: string;
}

/** LeaderElectionTimings override the 15 s / 10 s / 2 s defaults (tests use shorter ones). */
export interface LeaderElectionTimings {
  leaseDurationMs?: number;
  renewDeadlineMs?: number;
  retryPeriodMs?: number;
}

/** RunOperatorOptions: the port, the reconcile function (OP-CTRL's createReconciler) and the runtime knobs. */
export interface RunOperatorOptions {
  kube: KubeClient;
  log: Logger;
  registry: Registry;
  /** this replica's name in the leader Lease (the pod name). */
  identity: string;
  reconcile: (key: string) => Promise<{ requeueAfterMs?: number }>;
  /** watch one namespace, or all namespaces when undefined. */
  namespace?: string;
  /** the leader Lease (default LEADER_LEASE_NAME, which RBAC names); its namespace defaults to `namespace`, else "default". */
  leaseName?: string;
  leaseNamespace?: string;
  /** false: act as leader at once (single replica, tests). Default: elect with the default timings. */
  leaderElection?: boolean | LeaderElectionTimings;
  /** kinds whose changes enqueue their controlling Middleware. Default: Deployment, Job, Service. */
  ownedKinds?: KindRef[];
  /** re-enqueue every Middleware this often (safety net). Default 5 min. */
  resyncPeriodMs?: number;
  /** restart a watch silent for this long. Default 10 min. */
  watchTimeoutMs?: number;
  /** Middlewares reconciled at the same time (never one twice). Default 4. */
  concurrency?: number;
  queue?: { baseDelayMs?: number; maxDelayMs?: number; qps?: number; burst?: number };
  /** serve /metrics, /healthz and /readyz on this port (0: any free port); absent: no listener. */
  metricsPort?: number;
  metricsHost?: string;
  /** metrics made by the caller (to share statusUpdates with the reconciler); default: created on registry. */
  metrics?: OperatorMetrics;
}

/** OperatorRole is the running operator: a Role that can say whether it leads, and where its probes listen. */
export interface OperatorRole extends Role {
  isLeader(): boolean;
  readonly metrics: OperatorMetrics;
  /** base URL of the /metrics and /healthz listener, when metricsPort was given. */
  readonly url: string | undefined;
}

/** DEFAULT_OWNED_KINDS are the children whose status the reconcile waits on. */
export const DEFAULT_OWNED_KINDS: readonly KindRef[] = [
  { apiVersion: 'apps/v1', kind: 'Deployment' },
  { apiVersion: 'batch/v1', kind: 'Job' },
  { apiVersion: 'v1', kind: 'Service' },
];

interface Session {
  queue: WorkQueue;
  informers: Array<Informer<KubeObject>>;
  stopped: boolean;
}

/** runOperator starts the operator role; stop() ends work, releases the Lease and closes the listener. */
export async function runOperator(opts: RunOperatorOptions): Promise<OperatorRole> {
  const log = opts.log.child({ component: 'operator' });
  const metrics = opts.metrics ?? createOperatorMetrics(opts.registry);
  const ops =
    opts.metricsPort === undefined
      ? undefined
      : await startOpsServer({ port: opts.metricsPort, host: opts.metricsHost, registry: opts.registry, log });
  let session: Session | undefined;
  let sessionChange: Promise<void> = Promise.resolve();

  const timedReconcile = async (key: string): Promise<{ requeueAfterMs?: number }> => {
    const end = metrics.reconcileDuration.startTimer();
    try {
      const result = await opts.reconcile(key);
      const requeue = result.requeueAfterMs !== undefined;
      metrics.reconcileTotal.inc({ result: requeue ? ReconcileResult.REQUEUE : ReconcileResult.SUCCESS });
      return result;
    } catch (err) {
      metrics.reconcileTotal.inc({ result: ReconcileResult.ERROR });
      metrics.reconcileErrors.inc();
      throw err;
    } finally {
      end();
    }
  };

  function informerFor(ref: KindRef, handlers: InformerHandlers<KubeObject>, owned: boolean): Informer<KubeObject> {
    const informer: Informer<KubeObject> = createInformer({
      kube: opts.kube,
      apiVersion: ref.apiVersion,
      kind: ref.kind,
      namespace: opts.namespace,
      log,
      resyncPeriodMs: owned ? 0 : opts.resyncPeriodMs,
      watchTimeoutMs: opts.watchTimeoutMs,
      handlers: countManaged(handlers, () => {
        const objs = informer.list();
        metrics.managedResources.set({ kind: ref.kind }, owned ? objs.filter(isOwnedByMiddleware).length : objs.length);
      }),
      onWatchRestart: (reason) => metrics.watchRestarts.inc({ kind: ref.kind, reason }),
      onRelist: () => metrics.watchRelists.inc({ kind: ref.kind }),
    });
    return informer;
  }

  async function startSession(): Promise<void> {
    const queue = createWorkQueue({
      ...opts.queue,
      process: timedReconcile,
      concurrency: opts.concurrency,
      onDepth: (d) => metrics.queueDepth.set(d),
      onAdd: () => metrics.queueAdds.inc(),
      onRetry: () => metrics.queueRetries.inc(),
      onError: (key, err, failures, delayMs) => log.warn({ key, err, failures, delayMs }, 'reconcile failed'),
    });
    const enqueue = (key: string): void => queue.add(key);
    // children first, so their caches are filled when the first Middleware keys arrive
    const informers = [
      ...(opts.ownedKinds ?? DEFAULT_OWNED_KINDS).map((k) => informerFor(k, ownedHandlers(KIND, enqueue), true)),
      informerFor({ apiVersion: API_VERSION, kind: KIND }, primaryHandlers(enqueue), false),
    ];
    const s: Session = { queue, informers, stopped: false };
    session = s;
    for (const informer of informers) await startWithRetry(informer, s);
    if (!s.stopped) log.info({ namespace: opts.namespace ?? '*' }, 'operator started');
  }

  async function startWithRetry(informer: Informer<KubeObject>, s: Session): Promise<void> {
    for (let attempt = 0; !s.stopped; attempt++) {
      try {
        await informer.start();
        return;
      } catch (err) {
        informer.stop();
        const delayMs = Math.min(30_000, 500 * 2 ** attempt);
        log.error({ err, delayMs }, 'informer start failed');
        await new Promise((r) => setTimeout(r, delayMs));
      }
    }
  }

  async function stopSession(): Promise<void> {
    const s = session;
    session = undefined;
    if (s === undefined) return;
    s.stopped = true;
    for (const informer of s.informers) informer.stop();
    await s.queue.shutdown();
    metrics.queueDepth.set(0);
    log.info({}, 'operator stopped working');
  }

  // starts and stops never overlap: a new session begins only after the previous one has fully stopped
  const change = (fn: () => Promise<void>): Promise<void> => {
    sessionChange = sessionChange
      .then(fn)
      .catch((err: unknown) => log.error({ err }, 'operator session change failed'));
    return sessionChange;
  };

  let elector: LeaderElector | undefined;
  if (opts.leaderElection === false) {
    metrics.leader.set(1);
    void change(startSession);
  } else {
    const timings = typeof opts.leaderElection === 'object' ? opts.leaderElection : {};
    elector = createLeaderElector({
      kube: opts.kube,
      log,
      identity: opts.identity,
      ...timings,
      name: opts.leaseName ?? LEADER_LEASE_NAME,
      namespace: opts.leaseNamespace ?? opts.namespace ?? 'default',
      onStartedLeading: () => {
        metrics.leader.set(1);
        void change(startSession);
      },
      onStoppedLeading: async () => {
        metrics.leader.set(0);
        if (session !== undefined) session.stopped = true; // ends a start still retrying
        await change(stopSession);
      },
    });
    elector.start();
  }

  return {
    name: 'operator',
    metrics,
    url: ops?.url,
    isLeader: () => (elector === undefined ? true : elector.isLeader()),
    async stop() {
      if (elector !== undefined) await elector.stop();
      else {
        if (session !== undefined) session.stopped = true;
        await change(stopSession);
      }
      metrics.leader.set(0);
      await ops?.stop();
    },
  };
}

function isOwnedByMiddleware(obj: KubeObject): boolean {
  return (obj.metadata.ownerReferences ?? []).some((r) => r.controller === true && r.kind === KIND);
}

function countManaged<T extends KubeObject>(h: InformerHandlers<T>, update: () => void): InformerHandlers<T> {
  return {
    onAdd: (o) => {
      h.onAdd?.(o);
      update();
    },
    onUpdate: (old, o) => {
      h.onUpdate?.(old, o);
      update();
    },
    onDelete: (o) => {
      h.onDelete?.(o);
      update();
    },
    onResync: (o) => h.onResync?.(o),
  };
}
