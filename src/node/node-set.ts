/**
 * @module NodeSet: the nodes of NODE_URLS as one pool of request slots. Each node has a budget per kind of request,
 * as a node has a queue per kind (node-pace.ts): reads within an adaptive limit (adaptive-limit.ts) that never
 * exceeds what the node admits, dry-runs within what it admits of them; a request takes a slot at whichever allowed
 * node has the most room, or waits in one queue for the first slot freed. A node that refused a request for load is
 * paused for that kind (its pace: node-pace.ts), its read limit cut, while the other nodes serve on. Faster nodes
 * free slots sooner and so serve more: the spread follows each node's observed rate. The queue is ordered by each
 * request's priority (lower first, in arrival order among equals): catching up, a generation's requests carry its
 * height, so the heights a batch waits for are served before those fetched ahead for later batches. A node found on
 * another fork is dropped from the set (no request goes to it) until it agrees again.
 */
import { AdaptiveLimit, type AdaptiveLimitOptions } from './adaptive-limit.ts';
import type { Admitted } from '../config/middleware.ts';
import { CountedSlots, NODE_ADMITS, Pace, type SlotKind } from './node-pace.ts';

interface Waiter {
  readonly allowed: readonly number[];
  readonly resolve: (index: number | undefined) => void;
  readonly signal: AbortSignal | undefined;
  readonly priority: number;
}

const SLOT_KINDS: readonly SlotKind[] = ['read', 'dryRun'];

/** One node's budgets and paces, a pair per kind of request. */
interface NodeSlots {
  readonly read: AdaptiveLimit;
  readonly dryRun: CountedSlots;
  readonly pace: { readonly [K in SlotKind]: Pace };
}

/**
 * URGENT: the priority of a request the populator's next step waits for now (the node's top, a contract's code for
 * the batch being prepared): ahead of every request fetched ahead.
 */
export const URGENT = -Infinity;

/** LAST: the priority of a request that named none, after every request that did. */
export const LAST = Infinity;

/** NodeSet hands out request slots over several nodes. */
export class NodeSet {
  /** Base URLs without trailing slashes, in configured order. */
  readonly urls: readonly string[];
  readonly #slots: readonly NodeSlots[];
  readonly #dropped = new Set<number>();
  /** the nodes not dropped, kept as a list: every request reads it */
  #healthy: readonly number[];
  /** until when (ms since epoch) a node that just failed is passed over while another is allowed */
  readonly #coolingUntil: number[];
  /**
   * the requests waiting for a slot, a queue per kind: a release scans only the queue of a kind with a free slot (a
   * single queue was scanned whole at each read's release while the dry-run budget had room: thousands of waiters)
   */
  readonly #waiting: { [K in SlotKind]: Waiter[] } = { read: [], dryRun: [] };

  /**
   * `limit` shapes each node's adaptive read limit, `admitted` bounds each node's requests in flight by kind (the
   * read limit never grows past it).
   */
  constructor(urls: readonly string[], limit: AdaptiveLimitOptions = {}, admitted: Admitted = NODE_ADMITS) {
    if (urls.length === 0) throw new TypeError('NodeSet needs at least one node URL');
    this.urls = urls.map((u) => u.replace(/\/+$/, ''));
    const max = Math.min(limit.max ?? Infinity, admitted.read);
    const readLimit = { ...limit, max, min: Math.min(limit.min ?? 2, max) };
    this.#slots = this.urls.map(() => ({
      read: new AdaptiveLimit(readLimit),
      dryRun: new CountedSlots(admitted.dryRun),
      pace: { read: new Pace(), dryRun: new Pace() },
    }));
    this.#coolingUntil = this.urls.map(() => 0);
    this.#healthy = this.urls.map((_, i) => i);
  }

  /** healthy lists the nodes requests may go to (not dropped), in configured order. */
  healthy(): readonly number[] {
    return this.#healthy;
  }

  /** limit is node `index`'s current read limit (for metrics and logs). */
  limit(index: number): number {
    return this.#slots[index]!.read.limit;
  }

  /** inFlight sums the requests in flight at every node, reads and dry-runs. */
  get inFlight(): number {
    return this.#slots.reduce((sum, s) => sum + s.read.inFlight + s.dryRun.inFlight, 0);
  }

  /** capacity sums the read limits of the healthy nodes: how many reads the set serves at once. */
  get capacity(): number {
    return this.healthy().reduce((sum, i) => sum + this.#slots[i]!.read.limit, 0);
  }

  /** paused says whether node `index` refused a request of `kind` for load a moment ago and is left alone meanwhile. */
  paused(index: number, kind: SlotKind = 'read'): boolean {
    return this.#slots[index]!.pace[kind].pausedAt(Date.now());
  }

  /**
   * acquire takes a slot at one of the `candidates` (undefined: none is left to try, or `signal` was abandoned)
   * and resolves with its index; the caller must `release` it. Among free candidates the one with the most room wins.
   * When none is free it waits ahead of every request of a higher `priority` (lower is sooner; URGENT before all):
   * a request the next write waits for must not queue behind the fetch-ahead's requests for later batches, which
   * fill every slot, nor a height's follow-up requests behind the heights started after it. `kind` says which of a
   * node's budgets the request takes a slot of.
   */
  acquire(
    candidates: readonly number[],
    signal?: AbortSignal,
    priority = LAST,
    kind: SlotKind = 'read',
  ): Promise<number | undefined> {
    if (signal?.aborted || candidates.length === 0) return Promise.resolve(undefined);
    // the caller chose the candidates (healthy ones, or one node on purpose: a dropped node's top is still read);
    // a node that failed a moment ago gets requests only when no other may take them
    let allowed = candidates;
    if (candidates.length > 1) {
      const now = Date.now();
      if (candidates.some((i) => this.#coolingUntil[i]! > now)) {
        const warm = candidates.filter((i) => this.#coolingUntil[i]! <= now);
        if (warm.length > 0) allowed = warm;
      }
    }
    const free = this.#pick(allowed, kind);
    if (free !== undefined) return Promise.resolve(free);
    return new Promise((resolve) => {
      // after every waiter of the same or a lower priority: binary search, the queue holds thousands while catching up
      const queue = this.#waiting[kind];
      let [lo, hi] = [0, queue.length];
      while (lo < hi) {
        const mid = (lo + hi) >>> 1;
        if (queue[mid]!.priority <= priority) lo = mid + 1;
        else hi = mid;
      }
      queue.splice(lo, 0, { allowed, resolve, signal, priority });
    });
  }

  /**
   * abandon ends the waits of requests made under `signal` (it aborted): they resolve with no node. One call
   * per abort instead of a listener per waiting request, which would make every wait cost the length of the queue.
   */
  abandon(signal: AbortSignal): void {
    for (const kind of SLOT_KINDS) {
      const queue = this.#waiting[kind];
      const abandoned = queue.filter((w) => w.signal === signal);
      this.#waiting[kind] = queue.filter((w) => w.signal !== signal);
      for (const w of abandoned) w.resolve(undefined);
    }
  }

  /**
   * release frees the slot of `kind`; `ms` is the round trip of a read's answer (none for a failure without one, nor
   * for a refusal: answered at once, it would read as a node that queues nothing). `admitted`: the node took the
   * request (it answered, not refusing): its pace starts short again (node-pace.ts).
   */
  release(index: number, ms?: number, kind: SlotKind = 'read', admitted = ms !== undefined): void {
    const slots = this.#slots[index]!;
    if (kind === 'read') slots.read.finished(ms);
    else slots.dryRun.finished();
    if (admitted) slots.pace[kind].admitted();
    this.#dispatch();
  }

  /**
   * refused tells that node `index` refused a request of `kind` for load (503, 429) and asked to wait `retryAfterMs`
   * (its Retry-After) or not: no request of that kind goes to it for a pause (node-pace.ts), the others' requests go
   * on, and the first refusal of a pause cuts its read limit. Returns the pause in ms.
   */
  refused(index: number, kind: SlotKind, retryAfterMs?: number): number {
    const slots = this.#slots[index]!;
    const now = Date.now();
    const pace = slots.pace[kind];
    const fresh = !pace.pausedAt(now);
    const ms = pace.refused(now, retryAfterMs);
    if (fresh && kind === 'read') slots.read.refused();
    if (fresh) this.#resumeAfter(pace);
    return ms;
  }

  /**
   * #resumeAfter hands out the slots the requests waiting for a paused node wait for once its pause is over: a timer
   * may fire a little before the clock says so, and a pause may have grown meanwhile (a later refusal asked longer).
   */
  #resumeAfter(pace: Pace): void {
    const wait = pace.until - Date.now();
    if (wait <= 0) this.#dispatch();
    else setTimeout(() => this.#resumeAfter(pace), wait + 1).unref();
  }

  /** failed passes node `index` over for `ms` (a transient failure: refused, timed out, 5xx) while others can serve. */
  failed(index: number, ms: number): void {
    this.#coolingUntil[index] = Date.now() + ms;
  }

  /** isDropped says whether node `index` is out of the set. */
  isDropped(index: number): boolean {
    return this.#dropped.has(index);
  }

  /** drop takes a node out of the set (it is on another fork); true when it was in. */
  drop(index: number): boolean {
    if (this.#dropped.has(index)) return false;
    this.#dropped.add(index);
    this.#healthy = this.#healthy.filter((i) => i !== index);
    return true;
  }

  /** restore puts a dropped node back (it agrees again); true when it was out. */
  restore(index: number): boolean {
    const was = this.#dropped.delete(index);
    if (was) {
      this.#healthy = this.urls.map((_, i) => i).filter((i) => !this.#dropped.has(i));
      this.#dispatch();
    }
    return was;
  }

  #pick(allowed: readonly number[], kind: SlotKind): number | undefined {
    let best: number | undefined;
    let room = 0;
    let now: number | undefined;
    // index loops, no destructuring: this runs for every request, and an iterator or a pair each was garbage
    for (let k = 0; k < allowed.length; k++) {
      const i = allowed[k]!;
      const slots = this.#slots[i]!;
      const budget = slots[kind];
      if (!budget.free || slots.pace[kind].pausedAt((now ??= Date.now()))) continue;
      const r = (budget.limit - budget.inFlight) / budget.limit;
      if (r > room) {
        best = i;
        room = r;
      }
    }
    if (best !== undefined) this.#slots[best]![kind].started();
    return best;
  }

  /** #anyFree says whether some node has a slot of `kind` it may be asked for `now` (asked per waiter served). */
  #anyFree(kind: SlotKind, now: number): boolean {
    for (let i = 0; i < this.#slots.length; i++) {
      const s = this.#slots[i]!;
      if (s[kind].free && !s.pace[kind].pausedAt(now)) return true;
    }
    return false;
  }

  #dispatch(): void {
    const now = Date.now();
    for (const kind of SLOT_KINDS) {
      const queue = this.#waiting[kind];
      for (let w = 0; w < queue.length; w++) {
        // no node with a slot it may be asked for now: the rest of the queue waits (no scan of thousands)
        if (!this.#anyFree(kind, now)) break;
        const waiter = queue[w]!;
        const index = this.#pick(waiter.allowed, kind);
        if (index === undefined) continue;
        queue.splice(w--, 1);
        waiter.resolve(index);
      }
    }
  }
}
