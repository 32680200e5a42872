/** @module An informer: list + watch of one kind into a cache, relist on 410, a watchdog for silent watches, resync. */
import type { KubeClient, KubeError, KubeObject, WatchEvent, WatchHandle } from '../kube/client.ts';
import type { Logger } from '../../log.ts';

/** InformerHandlers receive cache changes; onResync re-delivers every cached object each resync period. */
export interface InformerHandlers<T extends KubeObject> {
  onAdd?(obj: T): void;
  onUpdate?(old: T, obj: T): void;
  onDelete?(obj: T): void;
  onResync?(obj: T): void;
}

/** InformerOptions: what to watch, how to react, and the timings of the safety nets. */
export interface InformerOptions<T extends KubeObject> {
  kube: KubeClient;
  apiVersion: string;
  kind: string;
  /** one namespace, or every namespace when undefined. */
  namespace?: string;
  labelSelector?: string;
  handlers: InformerHandlers<T>;
  log: Logger;
  /** re-deliver the cache to onResync this often (0: never). Default 5 min. */
  resyncPeriodMs?: number;
  /** restart a watch that delivered nothing (not even a bookmark) for this long. Default 10 min. */
  watchTimeoutMs?: number;
  /** first and longest delay before retrying a failed list or watch. Default 500 ms and 30 s. */
  retryMinMs?: number;
  retryMaxMs?: number;
  /** observe restarts (reason: closed, error, gone, stalled) and full lists. */
  onWatchRestart?: (reason: string) => void;
  onRelist?: () => void;
}

/** Informer keeps a cache of one kind up to date; start() resolves once the first list has filled it. */
export interface Informer<T extends KubeObject> {
  start(): Promise<void>;
  stop(): void;
  /** list gives every cached object. */
  list(): T[];
  /** get reads one cached object by `namespace/name` (or `name` for cluster-scoped kinds). */
  get(key: string): T | undefined;
}

/** objectKey is the cache and queue key of an object: `namespace/name`, or `name` when cluster-scoped. */
export function objectKey(obj: KubeObject): string {
  const ns = obj.metadata.namespace;
  return ns === undefined || ns === '' ? (obj.metadata.name ?? '') : `${ns}/${obj.metadata.name ?? ''}`;
}

/** createInformer builds an informer; nothing happens before start(). */
export function createInformer<T extends KubeObject>(opts: InformerOptions<T>): Informer<T> {
  const resyncPeriodMs = opts.resyncPeriodMs ?? 300_000;
  const watchTimeoutMs = opts.watchTimeoutMs ?? 600_000;
  const retryMinMs = opts.retryMinMs ?? 500;
  const retryMaxMs = opts.retryMaxMs ?? 30_000;
  const log = opts.log.child({ component: 'informer', kind: opts.kind });
  const cache = new Map<string, T>();
  let resourceVersion = '';
  let handle: WatchHandle | undefined;
  let watchId = 0;
  let lastActivity = Date.now();
  let failures = 0;
  let stopped = true;
  let retryTimer: NodeJS.Timeout | undefined;
  let resyncTimer: NodeJS.Timeout | undefined;
  let watchdogTimer: NodeJS.Timeout | undefined;

  async function relist(): Promise<void> {
    opts.onRelist?.();
    const { items, resourceVersion: rv } = await opts.kube.list<T>(
      opts.apiVersion,
      opts.kind,
      opts.namespace,
      opts.labelSelector,
    );
    if (stopped) return;
    const seen = new Set<string>();
    for (const obj of items) {
      const key = objectKey(obj);
      seen.add(key);
      apply({ type: 'MODIFIED', object: obj });
    }
    for (const [key, obj] of [...cache]) {
      if (!seen.has(key)) apply({ type: 'DELETED', object: obj });
    }
    resourceVersion = rv;
  }

  /** apply updates the cache from one event and calls the handlers (ADDED/MODIFIED are told apart by the cache). */
  function apply(e: WatchEvent<T>): void {
    const rv = e.object.metadata.resourceVersion;
    if (e.type === 'BOOKMARK') {
      if (rv !== undefined) resourceVersion = rv;
      return;
    }
    const key = objectKey(e.object);
    const old = cache.get(key);
    if (e.type === 'DELETED') {
      if (old === undefined) return;
      cache.delete(key);
      opts.handlers.onDelete?.(e.object);
      return;
    }
    cache.set(key, e.object);
    if (old === undefined) opts.handlers.onAdd?.(e.object);
    else if (old.metadata.resourceVersion !== rv) opts.handlers.onUpdate?.(old, e.object);
  }

  async function watch(): Promise<void> {
    if (stopped) return;
    const id = ++watchId;
    lastActivity = Date.now();
    const onEvent = (e: WatchEvent<T>): void => {
      if (id !== watchId || stopped) return;
      lastActivity = Date.now();
      failures = 0;
      apply(e);
      if (e.object.metadata.resourceVersion !== undefined) resourceVersion = e.object.metadata.resourceVersion;
    };
    const onDone = (err?: KubeError): void => {
      if (id !== watchId || stopped) return;
      handle = undefined;
      if (err?.status === 410) restart('gone', 0, true);
      else if (err !== undefined) restart('error', backoff(), false, err);
      else restart('closed', failures > 0 ? backoff() : 0, false);
    };
    try {
      const h = await opts.kube.watch<T>(opts.apiVersion, opts.kind, opts.namespace, resourceVersion, onEvent, onDone);
      if (id !== watchId || stopped) h.stop();
      else handle = h;
    } catch (err) {
      if (id === watchId && !stopped) restart('error', backoff(), false, err);
    }
  }

  function backoff(): number {
    failures += 1;
    return Math.min(retryMaxMs, retryMinMs * 2 ** (failures - 1));
  }

  /** restart runs one guarded restart: the current watch is dropped first, so two never run (client-node #1933). */
  function restart(reason: string, delayMs: number, withRelist: boolean, err?: unknown): void {
    watchId++;
    handle?.stop();
    handle = undefined;
    opts.onWatchRestart?.(reason);
    if (reason !== 'closed') log.warn({ reason, delayMs, err }, 'watch restarting');
    if (retryTimer !== undefined) clearTimeout(retryTimer);
    retryTimer = setTimeout(() => {
      retryTimer = undefined;
      void (withRelist ? relist() : Promise.resolve()).then(watch, (e: unknown) => {
        if (!stopped) restart('error', backoff(), true, e);
      });
    }, delayMs);
  }

  return {
    async start() {
      if (!stopped) return;
      stopped = false;
      failures = 0;
      await relist();
      void watch();
      if (resyncPeriodMs > 0) {
        resyncTimer = setInterval(() => {
          for (const obj of cache.values()) opts.handlers.onResync?.(obj);
        }, resyncPeriodMs);
      }
      watchdogTimer = setInterval(
        () => {
          if (handle !== undefined && Date.now() - lastActivity > watchTimeoutMs) restart('stalled', 0, false);
        },
        Math.max(10, Math.min(watchTimeoutMs / 4, 30_000)),
      );
    },
    stop() {
      stopped = true;
      watchId++;
      handle?.stop();
      handle = undefined;
      for (const t of [retryTimer, resyncTimer, watchdogTimer]) if (t !== undefined) clearTimeout(t);
      retryTimer = resyncTimer = watchdogTimer = undefined;
    },
    list: () => [...cache.values()],
    get: (key) => cache.get(key),
  };
}
