/**
 * @module The schema's single-writer lock: a session advisory lock held on one dedicated connection. Whoever holds
 * it (a populator, a `-H` reload) is the only writer of the schema; the lock ends with its connection, so a writer
 * whose connection dies (a database restart, `pg_terminate_backend`, a failover) has lost it and must take it again.
 */
import type { Pool, PoolClient } from '../connection/pool.ts';

/** Who holds a schema's writer lock, as pg_stat_activity shows that connection. */
export interface LockHolder {
  readonly pid: number;
  readonly applicationName: string;
  readonly clientAddress: string | null;
  readonly since: Date | null;
}

/** writerLockKey is the lock's name for a schema; every writer of the schema uses the same one. */
export function writerLockKey(schema: string): string {
  return `mdw_populate:${schema}`;
}

/**
 * WriterLock takes and holds the writer lock of one schema. `lost` aborts when the holding connection dies (the
 * lock went with it); `release` gives the lock and the connection up.
 */
export class WriterLock {
  readonly #pool: Pool;
  readonly #key: string;
  #client: PoolClient | undefined;
  #lost = new AbortController();

  constructor(pool: Pool, schema: string) {
    this.#pool = pool;
    this.#key = writerLockKey(schema);
  }

  /** lost aborts when the connection holding the lock dies, with the error that ended it as reason. */
  get lost(): AbortSignal {
    return this.#lost.signal;
  }

  /**
   * acquire waits for the lock (another writer holding it makes this wait). Aborting `signal` ends the wait by
   * dropping the connection. It rejects when the database cannot be reached or the wait was aborted.
   */
  async acquire(signal?: AbortSignal): Promise<void> {
    const client = await this.#connect();
    const abandon = () => client.release(true);
    signal?.addEventListener('abort', abandon, { once: true });
    try {
      await client.query('SELECT pg_advisory_lock(hashtext($1))', [this.#key]);
    } catch (err) {
      client.release(true);
      throw err;
    } finally {
      signal?.removeEventListener('abort', abandon);
    }
    this.#client = client;
  }

  /** tryAcquire takes the lock only if it is free now: true when taken, false when another writer holds it. */
  async tryAcquire(): Promise<boolean> {
    const client = await this.#connect();
    try {
      const { rows } = await client.query<{ locked: boolean }>('SELECT pg_try_advisory_lock(hashtext($1)) AS locked', [
        this.#key,
      ]);
      if (rows[0]!.locked) {
        this.#client = client;
        return true;
      }
    } catch (err) {
      client.release(true);
      throw err;
    }
    client.release(true);
    return false;
  }

  /** holder describes the connection holding the lock now (undefined when nobody does). */
  async holder(): Promise<LockHolder | undefined> {
    const { rows } = await this.#pool.query<{
      pid: number;
      application_name: string;
      client_addr: string | null;
      backend_start: Date | null;
    }>(
      `SELECT a.pid, a.application_name, host(a.client_addr) AS client_addr, a.backend_start
         FROM pg_locks l JOIN pg_stat_activity a ON a.pid = l.pid
        WHERE l.locktype = 'advisory' AND l.granted AND l.database = (SELECT oid FROM pg_database WHERE datname = current_database())
          AND l.objsubid = 1 AND l.objid::bigint = (hashtext($1)::bigint & 4294967295)
        LIMIT 1`,
      [this.#key],
    );
    const r = rows[0];
    return (
      r && { pid: r.pid, applicationName: r.application_name, clientAddress: r.client_addr, since: r.backend_start }
    );
  }

  /** release unlocks (when the connection still lives) and closes the connection; a new acquire may follow. */
  async release(): Promise<void> {
    const client = this.#client;
    this.#client = undefined;
    if (!client) return;
    if (!this.#lost.signal.aborted) {
      await client.query('SELECT pg_advisory_unlock(hashtext($1))', [this.#key]).catch(() => {});
    }
    client.release(true);
  }

  /** #connect opens the lock's own connection; its death (error or end) aborts `lost` for the term that follows. */
  async #connect(): Promise<PoolClient> {
    const client = await this.#pool.connect();
    const lost = new AbortController();
    this.#lost = lost;
    const onGone = (err?: Error) => {
      if (!lost.signal.aborted) lost.abort(err ?? new Error('writer lock connection ended'));
    };
    client.on('error', onGone);
    client.on('end', () => onGone());
    return client;
  }
}
