/**
 * @module A server's read replicas (DATABASE_READ_URLS): following how far each has replayed the primary's WAL
 * (replica-watch.ts), the floor its reads must have replayed (replay-floor.ts), and the one pool the server's reads go
 * through (replica-routing.ts). docs/operations.md, "Read replicas", tells what this guarantees.
 */
import type { Logger } from '../../base/log.ts';
import { ReplicaUnavailableError } from './errors.ts';
import { formatLsn } from './lsn.ts';
import type { Pool, Queryable } from './pool.ts';
import { ReplayFloor } from './replay-floor.ts';
import { noReplicaReason, routeReads } from './replica-routing.ts';
import type { TurnQueue } from '../../base/turns.ts';
import { atFloor, ReplicaWatch, usableReplica, type ReplicaState } from './replica-watch.ts';

export interface ReadReplicasOptions {
  /** a read pool on each replica (the caller makes them, sized as it wants) */
  readonly pools: readonly { readonly url: string; readonly pool: Pool }[];
  /** the primary, read for its WAL position (the lag) */
  readonly primary: Queryable;
  readonly log: Logger;
  /** told when no replica can serve any more (it logs the outage once and probes the routing pool) */
  readonly onUnavailable?: (err: Error) => void;
  /** how often the replicas' and the primary's positions are read (default 1 s) */
  readonly pollMs?: number;
  /** how often the replicas' positions are read while a notification waits for them (default 20 ms) */
  readonly waitPollMs?: number;
  /** the turns the routing pool's queries hand their results over in, as its replicas' pools (pool.ts) */
  readonly turns?: TurnQueue;
}

const DEFAULT_POLL_MS = 1000;
const DEFAULT_WAIT_POLL_MS = 20;

/**
 * ReadReplicas follows its replicas' replay. `replayed(lsn)` resolves once one of them has replayed `lsn`; from then
 * on `pool` sends reads only to replicas at or past it (the floor), so an answer is never older than an event this
 * server pushed, a cache entry it dropped or an answer it gave by an earlier floor. No replica at the floor (all
 * stopped, promoted or behind after a restart): reads fail as a database outage (503) until one is.
 */
export class ReadReplicas {
  readonly pool: Pool;
  readonly #options: ReadReplicasOptions;
  readonly #watch: ReplicaWatch;
  readonly #floor = new ReplayFloor();
  #timer: NodeJS.Timeout | undefined;
  #polling = false;
  #stopped = false;

  constructor(options: ReadReplicasOptions) {
    this.#options = options;
    this.#watch = new ReplicaWatch(options.pools, options.primary, options.pollMs ?? DEFAULT_POLL_MS);
    this.pool = routeReads(this.#watch, this.#floor, options.waitPollMs ?? DEFAULT_WAIT_POLL_MS, options.turns);
  }

  /** start reads every replica once (one that is away is no error: reads fail until it is back) and keeps following. */
  async start(): Promise<void> {
    await this.#pollOnce();
  }

  /** stop ends following and closes the replicas' pools; a notification still waiting is dropped. */
  async stop(): Promise<void> {
    this.#stopped = true;
    clearTimeout(this.#timer);
    this.#floor.drop(new Error('read replicas stopped'));
    await this.pool.end();
  }

  /** floor is the position every read is at or past (the latest this server acted on or pushed events read at). */
  get floor(): bigint {
    return this.#floor.floor;
  }

  /**
   * replayed resolves once a replica reads can go to has replayed `lsn` (the primary's position after a commit this
   * server heard of), raising the floor to it. It waits without holding anything: other reads go on meanwhile.
   */
  replayed(lsn: bigint): Promise<void> {
    this.#watch.primaryAt(lsn, Date.now());
    return this.raiseFloor(lsn);
  }

  /**
   * raiseFloor resolves once the floor is at or past `lsn`, a position a replica has replayed: what the live feed read
   * there, beyond the notification it acts on, is then readable by every read of this server before it is pushed. It
   * waits for the replicas as followed to show one there (at the next look), so no read is refused meanwhile; aborted
   * by `signal` first, it rejects with a ReplicaUnavailableError (the floor stays where it is).
   */
  raiseFloor(lsn: bigint, signal?: AbortSignal): Promise<void> {
    if (lsn <= this.#floor.floor || this.#floor.release(this.#watch.best(), lsn)) return Promise.resolve();
    const released = this.#floor.wait(lsn, signal).catch((err: unknown) => {
      throw signal?.aborted ? new ReplicaUnavailableError(`no read replica has replayed ${formatLsn(lsn)} yet`) : err;
    });
    // poll at the waiting pace now rather than at the idle one's next turn
    this.#schedule(0);
    return released;
  }

  /**
   * caughtUp makes `lsn` (the primary's position at a server's start, its migrations included) the floor at once, so
   * that reads are refused (503) rather than sent to a replica without them, and resolves once a replica has replayed
   * it. The wait is logged once, with its end, when a replica is not there yet.
   */
  async caughtUp(lsn: bigint): Promise<void> {
    this.#floor.require(lsn);
    if (this.#floor.release(this.#watch.best(), lsn)) return;
    const since = Date.now();
    const { log } = this.#options;
    log.warn(
      { position: formatLsn(lsn), replicas: this.#watch.replicas.map((r) => r.url) },
      "waiting for a read replica to replay the primary's position at start: not ready meanwhile",
    );
    const replayed = this.#floor.wait(lsn);
    this.#schedule(0);
    await replayed;
    log.info({ position: formatLsn(lsn), seconds: Math.round((Date.now() - since) / 1000) }, 'read replica caught up');
  }

  /** states tells each replica's reachability and lag, in DATABASE_READ_URLS order. */
  states(nowMs = Date.now()): ReplicaState[] {
    return this.#watch.states(this.#floor.floor, nowMs);
  }

  /** lagSeconds is the lag of the least lagging replica reads go to; null when none serves. */
  lagSeconds(nowMs = Date.now()): number | null {
    const lags = this.states(nowMs).flatMap((s) => (s.serving && s.lagSeconds !== null ? [s.lagSeconds] : []));
    return lags.length === 0 ? null : Math.min(...lags);
  }

  /** #schedule sets the next poll; while one runs, it schedules the next itself when done (one at a time). */
  #schedule(delayMs?: number): void {
    if (this.#stopped || this.#polling) return;
    clearTimeout(this.#timer);
    const waiting = this.#floor.waiting;
    const ms =
      delayMs ??
      (waiting ? this.#options.waitPollMs : this.#options.pollMs) ??
      (waiting ? DEFAULT_WAIT_POLL_MS : DEFAULT_POLL_MS);
    this.#timer = setTimeout(() => void this.#pollOnce(), ms);
    this.#timer.unref();
  }

  async #pollOnce(): Promise<void> {
    this.#polling = true;
    try {
      const servingBefore = this.#serving();
      await this.#watch.look(Date.now());
      this.#floor.release(this.#watch.best());
      this.#reportChanges(servingBefore);
    } finally {
      this.#polling = false;
      this.#schedule();
    }
  }

  #serving(): number {
    return this.#watch.replicas.filter((r) => atFloor(r, this.#floor.floor)).length;
  }

  /**
   * #reportChanges tells the outage when no replica serves any more: a database outage, logged once by it, with its
   * return. A replica lost or promoted while others serve is logged by itself, one line each way (one only behind the
   * floor for a moment, as the others replay a little ahead, is not).
   */
  #reportChanges(servingBefore: number): void {
    const { replicas } = this.#watch;
    if (this.#serving() === 0) {
      if (servingBefore > 0)
        this.#options.onUnavailable?.(new ReplicaUnavailableError(noReplicaReason(replicas, this.#floor.floor)));
      // the first to come back is the outage's return, logged by it
      for (const r of replicas) r.shown = false;
      return;
    }
    const { log } = this.#options;
    for (const r of replicas) {
      const usable = usableReplica(r);
      if (r.shown && !usable)
        log.warn({ replica: r.url, reachable: r.reachable }, 'read replica lost or promoted: no reads go there');
      else if (!r.shown && usable && servingBefore > 0)
        log.info({ replica: r.url }, 'read replica back: reads go there once it has caught up');
      r.shown = usable;
    }
  }
}
