/**
 * @module /readyz's answer: whether this process can serve. A busy pool is a serving process (its requests are
 * answered, some with 503 and Retry-After), so load never takes a server out of its Service; only a database that
 * is away does.
 */
import type { Pool } from '../../db/connection/pool.ts';
import { ping } from '../../db/queries/stats.ts';
import type { DependencyOutage } from './outage.ts';

/** READY_TIMEOUT_MS bounds the database ping of /readyz. */
const READY_TIMEOUT_MS = 2000;

export type Readiness = { ready: true; busy?: true } | { ready: false; reason: string };

const UNREACHABLE: Readiness = { ready: false, reason: 'database unreachable' };

/**
 * readiness is not ready during a known database outage or while the read replicas are behind (both known in
 * memory, judged at each probe), else the database's judgement by pingReadiness, kept aside while ready
 * (kept-readiness.ts): a ready server's probe never waits for a ping, whose rows wait for their turn behind a burst.
 */
export async function readiness(
  database: DependencyOutage | undefined,
  replicaLag: ReplicaLag | undefined,
  pinged: () => Promise<Readiness>,
): Promise<Readiness> {
  if (database?.down) return UNREACHABLE;
  return replicaBehind(replicaLag) ?? pinged();
}

/**
 * pingReadiness: with every connection in use and requests waiting it is ready and busy at once, without joining the
 * queue (a probe that waits behind the load would time out and take the server out of service for being loaded);
 * otherwise it is whether the database answers a ping, a ping too slow while `loaded` (requests wait for their turns)
 * counting as busy.
 */
export async function pingReadiness(pool: Pool, loaded: () => boolean = () => false): Promise<Readiness> {
  if (poolBusy(pool)) return { ready: true, busy: true };
  let timer: NodeJS.Timeout | undefined;
  const timedOut = new Error('timeout');
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(timedOut), READY_TIMEOUT_MS);
  });
  try {
    await Promise.race([ping(pool), timeout]);
    return { ready: true };
  } catch (err) {
    // The ping waited behind requests that filled the pool meanwhile, or (its rows handed over in a turn of the event
    // loop, src/base/turns.ts) behind the pages rendered before it while requests wait for their turns: busy, not away. A
    // ping that failed is the database's answer, whatever the load.
    const slowUnderLoad = err === timedOut && loaded();
    return poolBusy(pool) || slowUnderLoad ? { ready: true, busy: true } : UNREACHABLE;
  } finally {
    clearTimeout(timer);
  }
}

/** ReplicaLag: the least lagging serving read replica's lag (null: none serves) and READ_REPLICA_MAX_LAG_SECONDS. */
export interface ReplicaLag {
  readonly seconds: number | null;
  readonly maxSeconds: number;
}

/**
 * replicaBehind is not ready when no read replica serves or the best lags beyond the bound: a server behind a stuck
 * replica leaves its Service (its answers would be old, its events late) until the replica catches up.
 */
export function replicaBehind(lag: ReplicaLag | undefined): Readiness | undefined {
  if (lag === undefined) return undefined;
  if (lag.seconds === null) return { ready: false, reason: 'no read replica serving' };
  if (lag.seconds > lag.maxSeconds)
    return { ready: false, reason: `read replica ${Math.round(lag.seconds)} s behind (maximum ${lag.maxSeconds} s)` };
  return undefined;
}

/** poolBusy: every connection is checked out and requests wait for one. */
function poolBusy(pool: Pool): boolean {
  return pool.idleCount === 0 && pool.waitingCount > 0;
}
