/** @module Which database errors mean "the database is away" (answer 503 and retry) rather than a bug (500). */

/**
 * SQLSTATEs of a database that is away or refusing work for now: class 08 (connection exceptions), 57P01–57P03
 * (terminated by an administrator, crash shutdown, cannot connect now: starting up or shutting down), 53300 (too
 * many connections) and 25006 (read-only: a standby after a failover, a database switched read-only).
 */
const UNAVAILABLE_SQLSTATES = new Set(['57P01', '57P02', '57P03', '53300', '25006']);

/** Socket errors of a connection that could not be made or was cut. */
const UNAVAILABLE_SOCKET_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'EPIPE',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ENOTFOUND',
  'EAI_AGAIN',
]);

/** Messages pg gives without a code: a connect timeout, a connection that ended, a client that is no longer usable. */
const UNAVAILABLE_MESSAGE =
  /timeout exceeded when trying to connect|Connection terminated|not queryable|connection error|Connection timeout/i;

/**
 * ReplicaUnavailableError is a read refused before it was sent: no read replica is reachable, still a standby and
 * caught up with what this server has already served (docs/operations.md, "Read replicas"). An outage like the
 * primary's: 503 until one is back.
 */
export class ReplicaUnavailableError extends Error {
  override readonly name = 'ReplicaUnavailableError';
}

/** isDatabaseUnavailable tells whether `err` (or an error it was caused by) says the database is away. */
export function isDatabaseUnavailable(err: unknown): boolean {
  for (let e = err, depth = 0; e && depth < 5; e = (e as { cause?: unknown }).cause, depth++) {
    if (e instanceof ReplicaUnavailableError) return true;
    const code = (e as { code?: unknown }).code;
    if (typeof code === 'string') {
      if (code.startsWith('08') && code.length === 5) return true;
      if (UNAVAILABLE_SQLSTATES.has(code) || UNAVAILABLE_SOCKET_CODES.has(code)) return true;
    }
    const message = (e as { message?: unknown }).message;
    if (typeof message === 'string' && UNAVAILABLE_MESSAGE.test(message)) return true;
  }
  return false;
}

/**
 * PoolBusyError is a query refused before it waited: the pool's connections are all in use and as many requests as it
 * may queue are already waiting. The database is there; this process has more work than its pool serves.
 */
export class PoolBusyError extends Error {
  override readonly name = 'PoolBusyError';
}

/** pg-pool's error for a request that waited its whole connection timeout for a free connection of a full pool. */
const POOL_WAIT_TIMEOUT = 'timeout exceeded when trying to connect';

/**
 * isPoolBusy tells whether `err` is a refusal for want of a free connection (PoolBusyError, or pg-pool's wait that
 * timed out), which is overload rather than an outage: ask it before isDatabaseUnavailable.
 */
export function isPoolBusy(err: unknown): boolean {
  return err instanceof PoolBusyError || (err instanceof Error && err.message === POOL_WAIT_TIMEOUT);
}
