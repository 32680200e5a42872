/**
 * @module A server's read replicas (DATABASE_READ_URLS): a pool on each, how far each has replayed the primary's WAL,
 * and the one pool the server's reads go through, which picks per use a replica that has replayed everything this
 * server has acted on. docs/operations.md, "Read replicas", tells what this guarantees.
 */
import type { Logger } from '../log.ts';
import { redactUrl } from '../config.ts';
import { ReplicaUnavailableError } from './errors.ts';
import { formatLsn } from './lsn.ts';
import { createRoutingPool, type Pool, type PoolClient, type Queryable } from './pool.ts';
import { sleep } from '../retry.ts';
import { replayPosition, walEnd } from './queries/replication.ts';
import { PrimaryPositions } from './replica-lag.ts';

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
}

/** ReplicaState is one replica as /metrics and the status show it. */
export interface ReplicaState {
  /** the read URL without its password */
  readonly url: string;
  /** answers, is a standby and has replayed at least what this server has acted on: reads may go there */
  readonly serving: boolean;
  readonly reachable: boolean;
  /** replayed position, `X/Y`; null before the first answer */
  readonly replayed: string | null;
  /** seconds since the primary was first seen beyond what the replica has replayed; null when unreachable */
  readonly lagSeconds: number | null;
  /** WAL bytes the replica has still to replay of what the primary had at the last look; null when unknown */
  readonly lagBytes: number | null;
}

interface Replica {
  readonly url: string;
  readonly pool: Pool;
  reachable: boolean;
  standby: boolean;
  replayed: bigint | undefined;
  /** usable as last logged (a loss and a return are logged once each) */
  shown: boolean;
}

const DEFAULT_POLL_MS = 1000;
const DEFAULT_WAIT_POLL_MS = 20;
/**
 * How long a read waits for its connection's standby to reach the floor before it is refused (503): a URL that
 * spreads its connections over several standbys (CloudNativePG's `-ro`) may hand out one behind the one followed.
 */
const CONNECTION_CATCH_UP_MS = 2000;

/**
 * ReadReplicas follows its replicas' replay. `replayed(lsn)` resolves once one of them has replayed `lsn`; from then
 * on `pool` sends reads only to replicas at or past it (the floor), so an answer is never older than an event this
 * server pushed, a cache entry it dropped or an answer it gave by an earlier floor. No replica at the floor (all
 * stopped, promoted or behind after a restart): reads fail as a database outage (503) until one is.
 */
export class ReadReplicas {
  readonly pool: Pool;
  readonly #options: ReadReplicasOptions;
  readonly #replicas: Replica[];
  readonly #primary = new PrimaryPositions();
  readonly #waiters: { lsn: bigint; resolve: () => void; reject: (err: Error) => void }[] = [];
  #floor = 0n;
  /** what each pooled connection's standby was last seen to have replayed (replay only moves on per standby) */
  readonly #known = new WeakMap<PoolClient, bigint>();
  #turn = 0;
  #lastPrimaryReadMs = Number.NEGATIVE_INFINITY;
  #timer: NodeJS.Timeout | undefined;
  #polling = false;
  #stopped = false;

  constructor(options: ReadReplicasOptions) {
    this.#options = options;
    this.#replicas = options.pools.map(({ url, pool }) => ({
      url: redactUrl(url),
      pool,
      reachable: false,
      standby: false,
      replayed: undefined,
      shown: false,
    }));
    this.pool = createRoutingPool(
      options.pools.map((p) => p.pool),
      {
        pick: (avoid) => this.#pick(avoid),
        ready: (client) => this.#atFloor(client),
        // the next poll finds it back when it answers
        unreachable: (pool) => {
          const replica = this.#replicas.find((r) => r.pool === pool);
          if (replica) replica.reachable = false;
        },
      },
    );
  }

  /** start reads every replica once (one that is away is no error: reads fail until it is back) and keeps following. */
  async start(): Promise<void> {
    await this.#pollOnce();
  }

  /** stop ends following and closes the replicas' pools; a notification still waiting is dropped. */
  async stop(): Promise<void> {
    this.#stopped = true;
    clearTimeout(this.#timer);
    for (const waiter of this.#waiters.splice(0)) waiter.reject(new Error('read replicas stopped'));
    await this.pool.end();
  }

  /** floor is the position every read is at or past (the latest this server acted on). */
  get floor(): bigint {
    return this.#floor;
  }

  /**
   * replayed resolves once a replica reads can go to has replayed `lsn` (the primary's position after a commit this
   * server heard of), raising the floor to it. It waits without holding anything: other reads go on meanwhile.
   */
  replayed(lsn: bigint): Promise<void> {
    this.#primary.observe(lsn, Date.now());
    if (this.#release(lsn)) return Promise.resolve();
    return new Promise<void>((resolve, reject) => {
      this.#waiters.push({ lsn, resolve, reject });
      // poll at the waiting pace now rather than at the idle one's next turn
      this.#schedule(0);
    });
  }

  /** states tells each replica's reachability and lag, in DATABASE_READ_URLS order. */
  states(nowMs = Date.now()): ReplicaState[] {
    const newest = this.#primary.newest;
    return this.#replicas.map((r) => {
      const known = usableReplica(r);
      return {
        url: r.url,
        serving: this.#current(r),
        reachable: r.reachable,
        replayed: r.replayed === undefined ? null : formatLsn(r.replayed),
        lagSeconds: known ? this.#primary.lagMs(r.replayed!, nowMs) / 1000 : null,
        lagBytes: known && newest !== undefined ? Math.max(0, Number(newest - r.replayed!)) : null,
      };
    });
  }

  /** lagSeconds is the lag of the least lagging replica reads go to; null when none serves. */
  lagSeconds(nowMs = Date.now()): number | null {
    const lags = this.states(nowMs).flatMap((s) => (s.serving && s.lagSeconds !== null ? [s.lagSeconds] : []));
    return lags.length === 0 ? null : Math.min(...lags);
  }

  #current(r: Replica): boolean {
    return usableReplica(r) && r.replayed! >= this.#floor;
  }

  /** #pick takes turns among the replicas at the floor, but those in `avoid`. */
  #pick(avoid: ReadonlySet<Pool>): Pool {
    const current = this.#replicas.filter((r) => this.#current(r) && !avoid.has(r.pool));
    if (current.length === 0) throw new ReplicaUnavailableError(this.#why());
    this.#turn = (this.#turn + 1) % current.length;
    return current[this.#turn]!.pool;
  }

  /**
   * #atFloor resolves once the connection's own standby has replayed the floor: asked only when the floor moved on
   * since it was last seen there (once per connection per notification, not per read), waiting briefly.
   */
  async #atFloor(client: PoolClient): Promise<void> {
    const deadline = Date.now() + CONNECTION_CATCH_UP_MS;
    for (;;) {
      const floor = this.#floor;
      if ((this.#known.get(client) ?? -1n) >= floor) return;
      const { replayed, inRecovery } = await replayPosition(client);
      if (!inRecovery) throw new ReplicaUnavailableError('the read connection is on no standby (promoted?)');
      if (replayed !== undefined) this.#known.set(client, replayed);
      if (replayed !== undefined && replayed >= floor) return;
      if (Date.now() >= deadline)
        throw new ReplicaUnavailableError(`the read connection's standby has not replayed ${formatLsn(floor)} yet`);
      await sleep(this.#options.waitPollMs ?? DEFAULT_WAIT_POLL_MS);
    }
  }

  #why(): string {
    if (!this.#replicas.some((r) => r.reachable)) return 'no read replica reachable';
    if (!this.#replicas.some((r) => r.reachable && r.standby)) return 'no read replica is a standby (promoted?)';
    return `no read replica has replayed ${formatLsn(this.#floor)} yet`;
  }

  /** #release resolves the waiters a replica has caught up with, in order; true when `lsn` is replayed already. */
  #release(lsn?: bigint): boolean {
    const best = this.#replicas
      .filter(usableReplica)
      .reduce<bigint | undefined>((max, r) => (max === undefined || r.replayed! > max ? r.replayed : max), undefined);
    if (best === undefined) return false;
    while (this.#waiters.length > 0 && this.#waiters[0]!.lsn <= best) {
      const waiter = this.#waiters.shift()!;
      if (waiter.lsn > this.#floor) this.#floor = waiter.lsn;
      waiter.resolve();
    }
    if (lsn === undefined || lsn > best || this.#waiters.length > 0) return false;
    if (lsn > this.#floor) this.#floor = lsn;
    return true;
  }

  /** #schedule sets the next poll; while one runs, it schedules the next itself when done (one at a time). */
  #schedule(delayMs?: number): void {
    if (this.#stopped || this.#polling) return;
    clearTimeout(this.#timer);
    const waiting = this.#waiters.length > 0;
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
      await this.#poll();
    } finally {
      this.#polling = false;
      this.#schedule();
    }
  }

  async #poll(): Promise<void> {
    const servingBefore = this.#replicas.filter((r) => this.#current(r)).length;
    const now = Date.now();
    // the primary's position once per idle period: a waiting notification brought its own
    const primaryDue = now - this.#lastPrimaryReadMs >= (this.#options.pollMs ?? DEFAULT_POLL_MS);
    await Promise.all([
      primaryDue ? this.#readPrimary(now) : undefined,
      ...this.#replicas.map((r) => this.#readReplica(r)),
    ]);
    this.#release();
    const replayedByAll = this.#replicas.reduce<bigint | undefined>(
      (min, r) => (r.replayed !== undefined && (min === undefined || r.replayed < min) ? r.replayed : min),
      undefined,
    );
    if (replayedByAll !== undefined) this.#primary.forgetUpTo(replayedByAll);
    this.#reportChanges(servingBefore);
  }

  /**
   * #reportChanges tells the outage when no replica serves any more: a database outage, logged once by it, with its
   * return. A replica lost or promoted while others serve is logged by itself, one line each way (one only behind the
   * floor for a moment, as the others replay a little ahead, is not).
   */
  #reportChanges(servingBefore: number): void {
    if (!this.#replicas.some((r) => this.#current(r))) {
      if (servingBefore > 0) this.#options.onUnavailable?.(new ReplicaUnavailableError(this.#why()));
      // the first to come back is the outage's return, logged by it
      for (const r of this.#replicas) r.shown = false;
      return;
    }
    const { log } = this.#options;
    for (const r of this.#replicas) {
      const usable = usableReplica(r);
      if (r.shown && !usable)
        log.warn({ replica: r.url, reachable: r.reachable }, 'read replica lost or promoted: no reads go there');
      else if (!r.shown && usable && servingBefore > 0)
        log.info({ replica: r.url }, 'read replica back: reads go there once it has caught up');
      r.shown = usable;
    }
  }

  async #readPrimary(now: number): Promise<void> {
    this.#lastPrimaryReadMs = now;
    try {
      this.#primary.observe(await walEnd(this.#options.primary), now);
    } catch {
      // the primary is away: the listener and the status report it; the lag keeps counting from what was seen
    }
  }

  async #readReplica(r: Replica): Promise<void> {
    try {
      const position = await replayPosition(r.pool);
      r.reachable = true;
      r.standby = position.inRecovery;
      // a restarted standby replays again from its last restart point: its position may go back
      r.replayed = position.replayed;
    } catch {
      r.reachable = false;
    }
  }
}

/** usableReplica: it answers and is a standby with a replay position. */
function usableReplica(r: Replica): boolean {
  return r.reachable && r.standby && r.replayed !== undefined;
}
