/** @module The fake API server's watch machinery: an event history with compaction, and live watch streams. */
import { KubeError } from './client.ts';
import type { KubeObject, WatchEvent } from './client.ts';
import { matchesLabels, type Requirement } from './selector.ts';
import { copyJson } from './merge.ts';

/** StoredEvent is one committed change, kept until compaction so watches can resume from a resourceVersion. */
export interface StoredEvent {
  rv: number;
  group: string;
  kind: string;
  namespace: string | undefined;
  type: 'ADDED' | 'MODIFIED' | 'DELETED';
  /** the store key (group, kind, namespace, name): a list at an older resourceVersion undoes events by it. */
  key: string;
  object: KubeObject;
  /** the object before a MODIFIED or DELETED change. */
  previous?: KubeObject;
}

/** WatchFilter selects the events one stream carries. */
export interface WatchFilter {
  group: string;
  kind: string;
  namespace: string | undefined;
  /** a parsed label selector (empty: every object). */
  selector: readonly Requirement[];
}

interface Stream {
  filter: WatchFilter;
  onEvent: (e: WatchEvent<KubeObject>) => void;
  onDone: (err?: KubeError) => void;
  pending: Array<WatchEvent<KubeObject>>;
  stalled: boolean;
  closed: boolean;
  doneErr: KubeError | undefined;
  ending: boolean;
  stopped: boolean;
  scheduled: boolean;
}

/** WatchHub keeps the history and fans committed events out to the open streams, asynchronously and in order. */
export class WatchHub {
  #history: StoredEvent[] = [];
  #compactedThrough = 0;
  readonly #streams = new Set<Stream>();

  /** openStreams counts streams that are open (stalled ones included). */
  get openStreams(): number {
    return this.#streams.size;
  }

  /** record stores a committed event and sends it to every matching stream. */
  record(ev: StoredEvent): void {
    this.#history.push(ev);
    for (const s of this.#streams) {
      const e = eventFor(s.filter, ev);
      if (e !== undefined) this.#enqueue(s, e);
    }
  }

  /** compact forgets history up to and including rv: older resourceVersions then get 410 Gone. */
  compact(rv: number): void {
    this.#history = this.#history.filter((e) => e.rv > rv);
    this.#compactedThrough = Math.max(this.#compactedThrough, rv);
  }

  /**
   * open starts a stream: from a resourceVersion (replaying newer history) or, with `initial`, from the current state
   * as synthetic ADDED events. A version older than the compaction point ends the stream at once with 410 Gone.
   */
  open(
    filter: WatchFilter,
    from: number | { initial: KubeObject[] },
    onEvent: (e: WatchEvent<KubeObject>) => void,
    onDone: (err?: KubeError) => void,
  ): { stop(): void } {
    const s: Stream = {
      filter,
      onEvent,
      onDone,
      pending: [],
      stalled: false,
      closed: false,
      doneErr: undefined,
      ending: false,
      stopped: false,
      scheduled: false,
    };
    this.#streams.add(s);
    if (typeof from === 'number') {
      if (from < this.#compactedThrough) {
        this.#end(s, new KubeError(410, 'Gone', `too old resource version: ${from} (${this.#compactedThrough})`));
      } else {
        for (const ev of this.#history) {
          const e = ev.rv > from ? eventFor(filter, ev) : undefined;
          if (e !== undefined) this.#enqueue(s, e);
        }
      }
    } else {
      for (const obj of from.initial) this.#enqueue(s, { type: 'ADDED', object: obj });
    }
    return { stop: () => this.#end(s, undefined, true) };
  }

  /**
   * since gives the events after rv, newest first, for a list at rv (a page of a paginated list); 410 Gone when the
   * history no longer reaches back to rv.
   */
  since(rv: number): StoredEvent[] {
    if (rv < this.#compactedThrough) {
      throw new KubeError(
        410,
        'Expired',
        'The provided continue parameter is too old to display a consistent list result. ' +
          'You can start a new list without the continue parameter.',
      );
    }
    return this.#history.filter((e) => e.rv > rv).reverse();
  }

  /** stall makes every open stream silent (no events, no end), like a dead TCP connection. */
  stall(): void {
    for (const s of this.#streams) s.stalled = true;
  }

  /** endAll closes every open stream, with err or as a normal server-side close. */
  endAll(err?: KubeError): void {
    for (const s of [...this.#streams]) this.#end(s, err);
  }

  #enqueue(s: Stream, e: WatchEvent<KubeObject>): void {
    if (s.closed || s.stalled) return;
    s.pending.push(e);
    this.#schedule(s);
  }

  #end(s: Stream, err: KubeError | undefined, dropPending = false): void {
    if (s.closed) return;
    s.closed = true;
    s.ending = true;
    s.doneErr = err;
    s.stopped = dropPending;
    if (dropPending || s.stalled) s.pending = [];
    this.#streams.delete(s);
    this.#schedule(s);
  }

  #schedule(s: Stream): void {
    if (s.scheduled) return;
    s.scheduled = true;
    setImmediate(() => {
      s.scheduled = false;
      for (const e of s.pending.splice(0)) {
        if (s.stopped) break;
        s.onEvent(e);
      }
      if (s.ending) {
        s.ending = false;
        s.onDone(s.doneErr);
      }
    });
  }
}

/**
 * eventFor is what a stream with filter f sees of a committed event, as the API server's watch cache decides it: with
 * a label selector, an object that starts matching arrives as ADDED, and one that stops matching as DELETED with its
 * previous content at the event's resourceVersion (apiserver cacher/cache_watcher.go, convertToWatchEvent).
 */
function eventFor(f: WatchFilter, ev: StoredEvent): WatchEvent<KubeObject> | undefined {
  if (f.group !== ev.group || f.kind !== ev.kind) return undefined;
  if (f.namespace !== undefined && f.namespace !== ev.namespace) return undefined;
  const now = ev.type !== 'DELETED' && matchesLabels(ev.object.metadata.labels, f.selector);
  const before = ev.type === 'ADDED' ? false : matchesLabels((ev.previous ?? ev.object).metadata.labels, f.selector);
  if (now && before) return { type: 'MODIFIED', object: copyJson(ev.object) };
  if (now) return { type: 'ADDED', object: copyJson(ev.object) };
  if (!before) return undefined;
  const gone = copyJson(ev.type === 'DELETED' ? ev.object : (ev.previous ?? ev.object));
  gone.metadata.resourceVersion = String(ev.rv);
  return { type: 'DELETED', object: gone };
}
