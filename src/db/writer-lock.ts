/**
 * @module The schema's single-writer lock: a session advisory lock that the populator and a reload
 * (-H) take on a dedicated connection, so one schema never has two writers (the second waits).
 */
import type { Queryable } from './pool.ts';

/** The lock's key: one per schema, hashed by PostgreSQL into the advisory lock's integer. */
function writerLockKey(schema: string): string {
  return `mdw_populate:${schema}`;
}

/** writerLock waits for and takes the schema's writer lock on `client` (held until unlocked or the connection ends). */
export async function writerLock(client: Queryable, schema: string): Promise<void> {
  await client.query('SELECT pg_advisory_lock(hashtext($1))', [writerLockKey(schema)]);
}

/** writerUnlock releases the schema's writer lock held by `client`. */
export async function writerUnlock(client: Queryable, schema: string): Promise<void> {
  await client.query('SELECT pg_advisory_unlock(hashtext($1))', [writerLockKey(schema)]);
}
