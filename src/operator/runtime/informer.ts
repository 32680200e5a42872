/** @module An informer: list + watch of one kind into a cache, relist on 410, a watchdog for silent watches, resync. */
import {
  isKubeError,
  type KubeClient,
  type KubeError,
  type KubeObject,
  type WatchEvent,
  type WatchHandle,
} from '../kube/client.ts';
import { listAll } from '../kube/list-all.ts';
import type { Logger } from '../../base/log.ts';
import { Backoff } from '../../base/retry.ts';

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
  /** only objects with these labels are listed, watched and cached (an object that loses them is deleted from it). */
  labelSelector?: string;
  /** list page size (default LIST_PAGE_SIZE). */
  pageSize?: number;
  /** a kind that may not be served (an optional CRD): a 404 leaves the cache empty and lists again after retryMaxMs. */
  optional?: boolean;
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

/** objectKey is the cache and queue key of an object: `namespace/name`, or `name` when cluster-scoped. */
export function objectKey(obj: KubeObject): string {
  const ns = obj.metadata.namespace;
  return ns === undefined || ns === '' ? (obj.metadata.name ?? '') : `${ns}/${obj.metadata.name ?? ''}`;
}

/** Informer keeps a cache of one kind up to date; start() resolves once the first list has filled it. */
export class Informer<T extends KubeObject> {
  readonly #opts: InformerOptions<T>;
  readonly #resyncPeriodMs: number;
  readonly #watchTimeoutMs: number;
  readonly #backoff: Backoff;
  readonly #log: Logger;
  readonly #cache = new Map<string, T>();
  #resourceVersion = '';
  #handle: WatchHandle | undefined;
  #watchId = 0;
  #lastActivity = Date.now();
  #stopped = true;
  #retryTimer: NodeJS.Timeout | undefined;
  #resyncTimer: NodeJS.Timeout | undefined;
  #watchdogTimer: NodeJS.Timeout | undefined;

  /** nothing happens before start(). */
  constructor(opts: InformerOptions<T>) {
    this.#opts = opts;
    this.#resyncPeriodMs = opts.resyncPeriodMs ?? 300_000;
    this.#watchTimeoutMs = opts.watchTimeoutMs ?? 600_000;
    this.#backoff = new Backoff({ initialMs: opts.retryMinMs ?? 500, maxMs: opts.retryMaxMs ?? 30_000 });
    this.#log = opts.log.child({ component: 'informer', kind: opts.kind });
  }

  async start(): Promise<void> {
    if (!this.#stopped) return;
    this.#stopped = false;
    this.#backoff.reset();
    const served = await this.#relist();
    if (this.#stopped) return;
    if (served) void this.#watch();
    else this.#restart('absent', this.#opts.retryMaxMs ?? 30_000, true);
    if (this.#resyncPeriodMs > 0) {
      this.#resyncTimer = setInterval(() => {
        for (const obj of this.#cache.values()) this.#opts.handlers.onResync?.(obj);
      }, this.#resyncPeriodMs);
    }
    this.#watchdogTimer = setInterval(
      () => {
        if (this.#handle !== undefined && Date.now() - this.#lastActivity > this.#watchTimeoutMs)
          this.#restart('stalled', 0, false);
      },
      Math.max(10, Math.min(this.#watchTimeoutMs / 4, 30_000)),
    );
  }

  stop(): void {
    this.#stopped = true;
    this.#watchId++;
    this.#handle?.stop();
    this.#handle = undefined;
    for (const t of [this.#retryTimer, this.#resyncTimer, this.#watchdogTimer]) if (t !== undefined) clearTimeout(t);
    this.#retryTimer = this.#resyncTimer = this.#watchdogTimer = undefined;
  }

  /** list gives every cached object. */
  list(): T[] {
    return [...this.#cache.values()];
  }

  /** get reads one cached object by `namespace/name` (or `name` for cluster-scoped kinds). */
  get(key: string): T | undefined {
    return this.#cache.get(key);
  }

  /** relist refills the cache from a paginated list; false when an optional kind is not served (the cache empties). */
  async #relist(): Promise<boolean> {
    const opts = this.#opts;
    opts.onRelist?.();
    let listed: { items: T[]; resourceVersion: string };
    let served = true;
    try {
      listed = await listAll<T>(opts.kube, opts.apiVersion, opts.kind, opts.namespace, {
        ...(opts.labelSelector === undefined ? {} : { labelSelector: opts.labelSelector }),
        ...(opts.pageSize === undefined ? {} : { limit: opts.pageSize }),
      });
    } catch (err) {
      if (opts.optional !== true || !isKubeError(err, 404)) throw err;
      listed = { items: [], resourceVersion: '' };
      served = false;
    }
    const { items, resourceVersion: rv } = listed;
    if (this.#stopped) return false;
    const seen = new Set<string>();
    for (const obj of items) {
      seen.add(objectKey(obj));
      this.#apply({ type: 'MODIFIED', object: obj });
    }
    for (const [key, obj] of [...this.#cache]) {
      if (!seen.has(key)) this.#apply({ type: 'DELETED', object: obj });
    }
    this.#resourceVersion = rv;
    return served;
  }

  /** apply updates the cache from one event and calls the handlers (ADDED/MODIFIED are told apart by the cache). */
  #apply(e: WatchEvent<T>): void {
    const rv = e.object.metadata.resourceVersion;
    if (e.type === 'BOOKMARK') {
      if (rv !== undefined) this.#resourceVersion = rv;
      return;
    }
    const handlers = this.#opts.handlers;
    const key = objectKey(e.object);
    const old = this.#cache.get(key);
    if (e.type === 'DELETED') {
      if (old === undefined) return;
      this.#cache.delete(key);
      handlers.onDelete?.(e.object);
      return;
    }
    this.#cache.set(key, e.object);
    if (old === undefined) handlers.onAdd?.(e.object);
    else if (old.metadata.resourceVersion !== rv) handlers.onUpdate?.(old, e.object);
  }

  async #watch(): Promise<void> {
    if (this.#stopped) return;
    const opts = this.#opts;
    const id = ++this.#watchId;
    this.#lastActivity = Date.now();
    const current = (): boolean => id === this.#watchId && !this.#stopped;
    const onEvent = (e: WatchEvent<T>): void => {
      if (!current()) return;
      this.#lastActivity = Date.now();
      this.#backoff.reset();
      this.#apply(e);
      if (e.object.metadata.resourceVersion !== undefined) this.#resourceVersion = e.object.metadata.resourceVersion;
    };
    const onDone = (err?: KubeError): void => {
      if (!current()) return;
      this.#handle = undefined;
      if (err?.status === 410) this.#restart('gone', 0, true);
      else if (err !== undefined) this.#restart('error', this.#backoff.next(), false, err);
      else this.#restart('closed', this.#backoff.failures > 0 ? this.#backoff.next() : 0, false);
    };
    try {
      const { apiVersion, kind, namespace, labelSelector } = opts;
      const request = { apiVersion, kind, namespace, resourceVersion: this.#resourceVersion, labelSelector };
      const h = await opts.kube.watch<T>(request, onEvent, onDone);
      if (!current()) h.stop();
      else this.#handle = h;
    } catch (err) {
      if (current()) this.#restart('error', this.#backoff.next(), false, err);
    }
  }

  /** restart runs one guarded restart: the current watch is dropped first, so two never run (client-node #1933). */
  #restart(reason: string, delayMs: number, withRelist: boolean, err?: unknown): void {
    this.#watchId++;
    this.#handle?.stop();
    this.#handle = undefined;
    this.#opts.onWatchRestart?.(reason);
    if (reason !== 'closed' && reason !== 'absent') this.#log.warn({ reason, delayMs, err }, 'watch restarting');
    if (this.#retryTimer !== undefined) clearTimeout(this.#retryTimer);
    this.#retryTimer = setTimeout(() => {
      this.#retryTimer = undefined;
      void (withRelist ? this.#relist() : Promise.resolve(true)).then(
        (served) => {
          if (served) void this.#watch();
          else if (!this.#stopped) this.#restart('absent', this.#opts.retryMaxMs ?? 30_000, true);
        },
        (e: unknown) => {
          if (!this.#stopped) this.#restart('error', this.#backoff.next(), true, e);
        },
      );
    }, delayMs);
  }
}
