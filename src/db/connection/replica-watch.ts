/**
 * @module What a server knows of its read replicas: whether each answers and is a standby, how far it has replayed the
 * primary's WAL, and how far behind the primary that is (in time and bytes), from one look at each and at the primary.
 */
import { redactUrl } from '../../config/middleware.ts';
import { formatLsn } from './lsn.ts';
import type { Pool, Queryable } from './pool.ts';
import { replayPosition, walEnd } from './replication.ts';
import { PrimaryPositions } from './replica-lag.ts';

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

/** A replica as last seen. */
export interface Replica {
  readonly url: string;
  readonly pool: Pool;
  reachable: boolean;
  standby: boolean;
  replayed: bigint | undefined;
  /** usable as last logged (a loss and a return are logged once each) */
  shown: boolean;
}

/** usableReplica: it answers and is a standby with a replay position. */
export function usableReplica(r: Replica): boolean {
  return r.reachable && r.standby && r.replayed !== undefined;
}

/** atFloor: reads may go to the replica, which has replayed `floor`. */
export function atFloor(r: Replica, floor: bigint): boolean {
  return usableReplica(r) && r.replayed! >= floor;
}

/**
 * ReplicaWatch holds the replicas as last seen and the primary's positions, and reads them again on `look`: the
 * replicas each time, the primary at most once per `primaryEveryMs` (a waiting notification brings its own).
 */
export class ReplicaWatch {
  readonly replicas: readonly Replica[];
  readonly #primary = new PrimaryPositions();
  readonly #primaryDb: Queryable;
  readonly #primaryEveryMs: number;
  #lastPrimaryReadMs = Number.NEGATIVE_INFINITY;

  constructor(
    pools: readonly { readonly url: string; readonly pool: Pool }[],
    primary: Queryable,
    primaryEveryMs: number,
  ) {
    this.replicas = pools.map(({ url, pool }) => ({
      url: redactUrl(url),
      pool,
      reachable: false,
      standby: false,
      replayed: undefined,
      shown: false,
    }));
    this.#primaryDb = primary;
    this.#primaryEveryMs = primaryEveryMs;
  }

  /** primaryAt records the primary's position `lsn` seen at `atMs` (a notification's). */
  primaryAt(lsn: bigint, atMs: number): void {
    this.#primary.observe(lsn, atMs);
  }

  /** best is the highest position a usable replica has replayed. */
  best(): bigint | undefined {
    return this.replicas
      .filter(usableReplica)
      .reduce<bigint | undefined>((max, r) => (max === undefined || r.replayed! > max ? r.replayed : max), undefined);
  }

  /** unreachable marks the replica of `pool` as away (a connection to it failed): the next look finds it back. */
  unreachable(pool: Pool): void {
    const replica = this.replicas.find((r) => r.pool === pool);
    if (replica) replica.reachable = false;
  }

  /** states tells each replica's reachability and lag, in DATABASE_READ_URLS order; `floor`: what serving needs. */
  states(floor: bigint, nowMs: number): ReplicaState[] {
    const newest = this.#primary.newest;
    return this.replicas.map((r) => {
      const known = usableReplica(r);
      return {
        url: r.url,
        serving: atFloor(r, floor),
        reachable: r.reachable,
        replayed: r.replayed === undefined ? null : formatLsn(r.replayed),
        lagSeconds: known ? this.#primary.lagMs(r.replayed!, nowMs) / 1000 : null,
        lagBytes: known && newest !== undefined ? Math.max(0, Number(newest - r.replayed!)) : null,
      };
    });
  }

  /** look reads every replica's position, and the primary's when due; the positions all have replayed are forgotten. */
  async look(nowMs: number): Promise<void> {
    const primaryDue = nowMs - this.#lastPrimaryReadMs >= this.#primaryEveryMs;
    await Promise.all([primaryDue ? this.#readPrimary(nowMs) : undefined, ...this.replicas.map((r) => readReplica(r))]);
    const replayedByAll = this.replicas.reduce<bigint | undefined>(
      (min, r) => (r.replayed !== undefined && (min === undefined || r.replayed < min) ? r.replayed : min),
      undefined,
    );
    if (replayedByAll !== undefined) this.#primary.forgetUpTo(replayedByAll);
  }

  async #readPrimary(now: number): Promise<void> {
    this.#lastPrimaryReadMs = now;
    try {
      this.#primary.observe(await walEnd(this.#primaryDb), now);
    } catch {
      // the primary is away: the listener and the status report it; the lag keeps counting from what was seen
    }
  }
}

async function readReplica(r: Replica): Promise<void> {
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
