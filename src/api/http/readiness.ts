/**
 * @module /readyz's answer: whether this process can serve. Every server of both generations reads one database, so
 * what is true of it for one is true for all: a readiness that failed for a database that is only slow, or busy, took
 * every server out of its Service at once, and clients got connection errors instead of answers or 503s. So a busy
 * pool and a slow database keep a server ready (its requests get their 503/504 with Retry-After, the metrics and the
 * log say why); only a database that refuses or cuts connections for UNREACHABLE_AFTER_MS does not.
 */
import { errorMessage } from '../../base/errors.ts';
import type { Pool } from '../../db/connection/pool.ts';
import { isPoolBusy } from '../../db/connection/errors.ts';
import { ping } from '../../db/queries/stats.ts';
import type { DependencyOutage } from './outage.ts';

/**
 * UNREACHABLE_AFTER_MS: how long connections must fail before the server leaves its Service. A blip (a restart, a
 * failover, a connection cut) is answered 503 per request and never reaches the kubelet, which adds its own 3 probes.
 */
export const UNREACHABLE_AFTER_MS = 10_000;

/** SLOW_MS: a ping slower than this is a slow database (ready, logged, in the metrics); the probe's timeout is 2 s. */
export const SLOW_MS = 1000;

export type Readiness = { ready: true; busy?: true; reason?: string } | { ready: false; reason: string };

/** What one readiness ping found: an answer, a pool too full to send it (busy), or a failure (refused, cut). */
export type PingResult = { outcome: 'answered' } | { outcome: 'busy' } | { outcome: 'failed'; reason: string };

/**
 * The database as the readiness pings saw it: `answers`, `busy` (the pool full, requests waiting), `slow` (a ping past
 * SLOW_MS), `failing` (connections fail, for less than UNREACHABLE_AFTER_MS) and `unreachable`.
 */
export type DatabaseState = 'answers' | 'busy' | 'slow' | 'failing' | 'unreachable';
export const DATABASE_STATES: readonly DatabaseState[] = ['answers', 'busy', 'slow', 'failing', 'unreachable'];

/** What the pings saw, in milliseconds of Date.now(); the fields absent before the first of their kind. */
export interface PingHistory {
  /** the last ping answered */
  readonly answeredAtMs?: number;
  /** the first ping that failed since the last answer (absent: the last ping that ended was no failure) */
  readonly failingSinceMs?: number;
  /** the last ping that ended (answered or unanswered) took this long */
  readonly lastMs?: number;
  /** the last ping found the pool full */
  readonly busy?: boolean;
  /** the ping in flight was sent this long ago */
  readonly pendingMs?: number;
}

/**
 * databaseState judges the pings: failures are unreachable once they last UNREACHABLE_AFTER_MS (at once if the
 * database never answered: a server that never reached it has nothing to serve); a ping slow to end, or the one in
 * flight already late, is slow however long it takes: the database is there.
 */
export function databaseState(pings: PingHistory, nowMs: number): DatabaseState {
  if (pings.failingSinceMs !== undefined) {
    const sustained = nowMs - pings.failingSinceMs >= UNREACHABLE_AFTER_MS;
    return sustained || pings.answeredAtMs === undefined ? 'unreachable' : 'failing';
  }
  if (pings.busy) return 'busy';
  if ((pings.lastMs ?? 0) > SLOW_MS || (pings.pendingMs ?? 0) > SLOW_MS) return 'slow';
  return 'answers';
}

/**
 * stateReadiness names the state for /readyz: a slow ping while requests wait for their turns is this process busy
 * (the ping's rows wait behind the pages rendered before them, issue 41), not the database slow.
 */
export function stateReadiness(state: DatabaseState, pings: PingHistory, nowMs: number, loaded: boolean): Readiness {
  switch (state) {
    case 'answers':
      return { ready: true };
    case 'busy':
      return { ready: true, busy: true };
    case 'slow':
      return loaded ? { ready: true, busy: true } : { ready: true, reason: 'database slow' };
    case 'failing': {
      const seconds = Math.floor((nowMs - pings.failingSinceMs!) / 1000);
      const after = UNREACHABLE_AFTER_MS / 1000;
      return { ready: true, reason: `database unreachable for ${seconds} s (not ready after ${after} s)` };
    }
    case 'unreachable':
      return UNREACHABLE;
  }
}

const UNREACHABLE: Readiness = { ready: false, reason: 'database unreachable' };

/**
 * ServerPhase is where the server's process is in its life: `starting` until every listener it offers is up (the
 * websocket starts after the HTTP API, once the chain feed has read the top), `serving`, then `stopping` from SIGTERM.
 */
export type ServerPhase = 'starting' | 'serving' | 'stopping';

/**
 * STARTING: a server whose websocket is not listening yet is not ready, though its HTTP API answers: a Service would
 * send websocket clients to a port that refuses them.
 */
export const STARTING: Readiness = { ready: false, reason: 'starting: websocket not listening yet' };

/**
 * STOPPING: a server whose stop has begun (SIGTERM, SHUTDOWN_DELAY_MS) leaves its Service first, whatever its
 * database: it still serves the clients sent to it meanwhile.
 */
export const STOPPING: Readiness = { ready: false, reason: 'stopping' };

/**
 * readiness is not ready once the server is stopping, once requests have found the database away for
 * UNREACHABLE_AFTER_MS (known in memory), while the read replicas are behind (a start waits for them) or while it is
 * starting otherwise; else the pings' judgement (kept-readiness.ts), which never waits long.
 */
export async function readiness(
  phase: ServerPhase,
  database: DependencyOutage | undefined,
  replicaLag: ReplicaLag | undefined,
  pinged: () => Promise<Readiness>,
): Promise<Readiness> {
  if (phase === 'stopping') return STOPPING;
  if ((database?.downForMs ?? 0) >= UNREACHABLE_AFTER_MS) return UNREACHABLE;
  return replicaBehind(replicaLag) ?? (phase === 'starting' ? STARTING : pinged());
}

/**
 * pingDatabase: with every connection in use and requests waiting it is busy, without joining the queue (a probe that
 * waits behind the load would time out and take the server out of service for being loaded); otherwise it pings. A
 * failed ping is the database's answer, whatever the load, unless it is the pool's refusal for want of a connection.
 */
export async function pingDatabase(pool: Pool): Promise<PingResult> {
  if (poolBusy(pool)) return { outcome: 'busy' };
  try {
    await ping(pool);
    return { outcome: 'answered' };
  } catch (err) {
    if (isPoolBusy(err) || poolBusy(pool)) return { outcome: 'busy' };
    return { outcome: 'failed', reason: errorMessage(err) };
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
export function poolBusy(pool: Pool): boolean {
  return pool.idleCount === 0 && pool.waitingCount > 0;
}
