/** @module One ae_mdw websocket client's subscriptions: channels and Object targets, each with its sources. Pure. */
import type { Channel, MdwRequest, Source } from './mdw-protocol.ts';

const BOTH: readonly Source[] = ['mdw', 'node'];

/**
 * MdwSubscriptions keeps, per channel name or target, the sources subscribed. A request without a
 * source subscribes (or unsubscribes) both, so every MiddlewareSubscriber method gets its events.
 */
export class MdwSubscriptions {
  readonly #entries = new Map<string, Set<Source>>();
  /** channels and targets one connection may hold (ae_mdw's MAX_SUBS_PER_CONN) */
  readonly #max: number;

  constructor(max: number) {
    this.#max = max;
  }

  /**
   * apply performs a (un)subscribe: undefined when done, else ae_mdw's error string. `serverFull`: every
   * connection together holds the most the server allows (ae_mdw's MAX_TOTAL_WS_SUBS), so nothing new is taken.
   */
  apply(request: Extract<MdwRequest, { op: 'Subscribe' | 'Unsubscribe' }>, serverFull = false): string | undefined {
    const key = request.channel === 'Object' ? request.target! : request.channel;
    const sources = request.source ? [request.source] : BOTH;
    const held = this.#entries.get(key);
    if (request.op === 'Subscribe') {
      if (held && sources.every((s) => held.has(s)))
        return request.channel === 'Object' ? `already subscribed to target: ${key}` : `already subscribed to: ${key}`;
      if (!held && (serverFull || this.#entries.size >= this.#max)) return `too many subscriptions! discarding: ${key}`;
      const set = held ?? new Set<Source>();
      for (const s of sources) set.add(s);
      this.#entries.set(key, set);
      return undefined;
    }
    if (!held || !sources.some((s) => held.has(s)))
      return request.channel === 'Object'
        ? `no subscription for target: ${key}`
        : `no subscription for payload: ${key}`;
    for (const s of sources) held.delete(s);
    if (held.size === 0) this.#entries.delete(key);
    return undefined;
  }

  /** list is the connection's list, as ae_mdw's full-list reply shows it (subscription order): the first `limit`. */
  list(limit = Infinity): string[] {
    const keys: string[] = [];
    for (const key of this.#entries.keys()) {
      if (keys.length >= limit) break;
      keys.push(key);
    }
    return keys;
  }

  /** drop removes a channel or target with all its sources (a replay that failed): true when it was held. */
  drop(key: string): boolean {
    return this.#entries.delete(key);
  }

  /** sources of a channel or target (empty when not subscribed). */
  sources(key: Channel | string): ReadonlySet<Source> {
    return this.#entries.get(key) ?? new Set();
  }

  /** hasSource is true when a channel or target other than `except` is held with `source`. */
  hasSource(source: Source, except: readonly string[]): boolean {
    for (const [key, sources] of this.#entries) if (sources.has(source) && !except.includes(key)) return true;
    return false;
  }

  get size(): number {
    return this.#entries.size;
  }
}
