/** @module OperatorRuntime: informers → work queue → reconcile, gated by leader election, with metrics and probes. */
import type { Registry } from 'prom-client';
import type { Logger } from '../../base/log.ts';
import { startOpsServer } from '../../base/ops-server.ts';
import { retry } from '../../base/retry.ts';
import type { Role } from '../../base/roles.ts';
import { API_VERSION, KIND } from '../api/middleware-types.ts';
import type { ObjectCache } from '../kube/cache.ts';
import type { KubeClient, KubeObject } from '../kube/client.ts';
import { matchesLabels, parseLabelSelector } from '../kube/selector.ts';
import { CHILD_SELECTOR, MANAGED_KINDS, type ManagedKind } from '../specs/kinds.ts';
import { LEADER_LEASE_NAME } from '../specs/rbac.ts';
import { ownedHandlers, primaryHandlers } from './handlers.ts';
import { Informer, type InformerHandlers } from './informer.ts';
import { LeaderElector } from './leader.ts';
import { ReconcileResult, clearLeaderSeries, createOperatorMetrics } from './metrics.ts';
import type { OperatorMetrics } from './metrics.ts';
import { WorkQueue } from './queue.ts';

/** LeaderElectionTimings override the 15 s / 10 s / 2 s defaults (tests use shorter ones). */
export interface LeaderElectionTimings {
  leaseDurationMs?: number;
  renewDeadlineMs?: number;
  retryPeriodMs?: number;
}

/** OperatorOptions: the port, the reconcile function (OP-CTRL's createReconciler) and the runtime knobs. */
export interface OperatorOptions {
  kube: KubeClient;
  log: Logger;
  registry: Registry;
  /** this replica's name in the leader Lease (the pod name). */
  identity: string;
  /**
   * reconciles one key; `signal` aborts when this replica stops working (Lease lost, stop): it must then write
   * nothing. `cache` reads the children from this session's informers.
   */
  reconcile: (key: string, signal: AbortSignal, cache: ObjectCache) => Promise<{ requeueAfterMs?: number }>;
  /** watch one namespace, or all namespaces when undefined. */
  namespace?: string;
  /** the leader Lease (default LEADER_LEASE_NAME, which RBAC names); its namespace defaults to `namespace`, else "default". */
  leaseName?: string;
  leaseNamespace?: string;
  /** false: act as leader at once (single replica, tests). Default: elect with the default timings. */
  leaderElection?: boolean | LeaderElectionTimings;
  /** kinds cached (children of Middlewares, by CHILD_SELECTOR) whose changes enqueue their owner. Default: MANAGED_KINDS. */
  ownedKinds?: readonly ManagedKind[];
  /** list page size of the informers (default LIST_PAGE_SIZE). */
  pageSize?: number;
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

/** Session is one stretch of leadership: its queue, its informers and the signal that ends it. */
interface Session {
  readonly queue: WorkQueue;
  readonly informers: Array<Informer<KubeObject>>;
  readonly abort: AbortController;
}

/** INFORMER_START_RETRY: a failed first list is retried from 0.5 s doubling to 30 s, until the session ends. */
const INFORMER_START_RETRY = { attempts: Number.POSITIVE_INFINITY, initialMs: 500, maxMs: 30_000, jitter: 0.1 };

/**
 * OperatorRuntime is the operator role: while this replica leads (or always, without election) it runs informers that
 * feed a work queue of Middleware keys to the reconcile function. start() opens the probe listener and begins to
 * contend; stop() aborts the reconciles in flight, stops the watches, releases the Lease and closes the listener.
 */
export class OperatorRuntime implements Role {
  readonly name = 'operator';
  readonly metrics: OperatorMetrics;
  readonly #opts: OperatorOptions;
  readonly #log: Logger;
  #ops: { url: string; stop(): Promise<void> } | undefined;
  #elector: LeaderElector | undefined;
  #session: Session | undefined;
  #sessionChange: Promise<void> = Promise.resolve();

  /** nothing happens before start(). */
  constructor(opts: OperatorOptions) {
    this.#opts = opts;
    this.#log = opts.log.child({ component: 'operator' });
    this.metrics = opts.metrics ?? createOperatorMetrics(opts.registry);
  }

  /** url is the base URL of the /metrics and /healthz listener, once started with a metricsPort. */
  get url(): string | undefined {
    return this.#ops?.url;
  }

  isLeader(): boolean {
    return this.#elector === undefined ? true : this.#elector.isLeader();
  }

  /** start listens for probes (when metricsPort is set), then leads at once or begins to contend for the Lease. */
  async start(): Promise<void> {
    const opts = this.#opts;
    if (opts.metricsPort !== undefined) {
      this.#ops = await startOpsServer({
        port: opts.metricsPort,
        host: opts.metricsHost,
        registry: opts.registry,
        log: this.#log,
      });
    }
    if (opts.leaderElection === false) {
      this.metrics.leader.set(1);
      void this.#change(() => this.#startSession());
      return;
    }
    const timings = typeof opts.leaderElection === 'object' ? opts.leaderElection : {};
    this.#elector = new LeaderElector({
      kube: opts.kube,
      log: this.#log,
      identity: opts.identity,
      ...timings,
      name: opts.leaseName ?? LEADER_LEASE_NAME,
      namespace: opts.leaseNamespace ?? opts.namespace ?? 'default',
      onStartedLeading: () => {
        this.metrics.leader.set(1);
        void this.#change(() => this.#startSession());
      },
      onStoppedLeading: async () => {
        this.metrics.leader.set(0);
        this.#session?.abort.abort(); // cuts a start still retrying short and cancels the reconciles in flight
        await this.#change(() => this.#stopSession());
      },
    });
    this.#elector.start();
  }

  async stop(): Promise<void> {
    if (this.#elector !== undefined) await this.#elector.stop();
    else {
      this.#session?.abort.abort();
      await this.#change(() => this.#stopSession());
    }
    this.metrics.leader.set(0);
    await this.#ops?.stop();
  }

  // starts and stops never overlap: a new session begins only after the previous one has fully stopped
  #change(fn: () => Promise<void>): Promise<void> {
    this.#sessionChange = this.#sessionChange
      .then(fn)
      .catch((err: unknown) => this.#log.error({ err }, 'operator session change failed'));
    return this.#sessionChange;
  }

  async #timedReconcile(key: string, signal: AbortSignal, cache: ObjectCache): Promise<{ requeueAfterMs?: number }> {
    const { metrics } = this;
    const end = metrics.reconcileDuration.startTimer();
    try {
      const result = await this.#opts.reconcile(key, signal, cache);
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
  }

  #informerFor(ref: ManagedKind, handlers: InformerHandlers<KubeObject>, owned: boolean): Informer<KubeObject> {
    const { metrics } = this;
    const opts = this.#opts;
    const informer: Informer<KubeObject> = new Informer({
      kube: opts.kube,
      apiVersion: ref.apiVersion,
      kind: ref.kind,
      namespace: opts.namespace,
      ...(owned ? { labelSelector: CHILD_SELECTOR } : {}),
      ...(ref.optional === true ? { optional: true } : {}),
      ...(opts.pageSize === undefined ? {} : { pageSize: opts.pageSize }),
      log: this.#log,
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

  async #startSession(): Promise<void> {
    const { metrics } = this;
    const opts = this.#opts;
    const caches = new Map<string, Informer<KubeObject>>();
    const cache = informerCache(caches);
    const queue = new WorkQueue({
      ...opts.queue,
      process: (key, signal) => this.#timedReconcile(key, signal, cache),
      concurrency: opts.concurrency,
      onDepth: (d) => metrics.queueDepth.set(d),
      onAdd: () => metrics.queueAdds.inc(),
      onRetry: () => metrics.queueRetries.inc(),
      onLatency: (s) => metrics.queueLatency.observe(s),
      onWorkDuration: (s) => metrics.queueWorkDuration.observe(s),
      onError: (key, err, failures, delayMs) => this.#log.warn({ key, err, failures, delayMs }, 'reconcile failed'),
    });
    const enqueue = (key: string): void => queue.add(key);
    // children first, so their caches are filled when the first Middleware keys arrive
    const owned = opts.ownedKinds ?? MANAGED_KINDS;
    for (const k of owned) caches.set(k.kind, this.#informerFor(k, ownedHandlers(KIND, enqueue), true));
    // the Middlewares too: a reconcile reads which others share its database from this cache
    caches.set(KIND, this.#informerFor({ apiVersion: API_VERSION, kind: KIND }, primaryHandlers(enqueue), false));
    const informers = [...caches.values()];
    const session: Session = { queue, informers, abort: new AbortController() };
    this.#session = session;
    try {
      for (const informer of informers) await this.#startInformer(informer, session.abort.signal);
    } catch (err) {
      if (!session.abort.signal.aborted) throw err;
      return; // leadership ended (or stop) while a start was still retrying
    }
    queue.start();
    this.#log.info({ namespace: opts.namespace ?? '*' }, 'operator started');
  }

  /** startInformer retries a failed first list with backoff; the session's signal ends the retry and its wait. */
  #startInformer(informer: Informer<KubeObject>, signal: AbortSignal): Promise<void> {
    return retry(
      async () => {
        if (signal.aborted) throw new Error('operator session ended');
        await informer.start();
      },
      {
        ...INFORMER_START_RETRY,
        signal,
        onRetry: (_attempt, err, delayMs) => {
          informer.stop();
          this.#log.error({ err, delayMs }, 'informer start failed');
        },
      },
    );
  }

  async #stopSession(): Promise<void> {
    const session = this.#session;
    this.#session = undefined;
    if (session === undefined) return;
    session.abort.abort();
    for (const informer of session.informers) informer.stop();
    await session.queue.stop();
    // after the queue stopped: no reconcile left to set a series again
    clearLeaderSeries(this.metrics);
    this.#log.info({}, 'operator stopped working');
  }
}

/** informerCache reads the informers (by kind), the children's and the Middlewares': the reconciler's ObjectCache. */
function informerCache(informers: ReadonlyMap<string, Informer<KubeObject>>): ObjectCache {
  return {
    list<T extends KubeObject>(_apiVersion: string, kind: string, namespace: string | undefined, selector?: string) {
      const informer = informers.get(kind);
      if (informer === undefined) return undefined;
      const reqs = parseLabelSelector(selector);
      return informer
        .list()
        .filter((o) => namespace === undefined || o.metadata.namespace === namespace)
        .filter((o) => matchesLabels(o.metadata.labels, reqs))
        .map((o) => structuredClone(o) as T);
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
