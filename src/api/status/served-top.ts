/**
 * @module The top a server shows in its statuses, read where its reads go. With read replicas, one ahead of the floor
 * may show a height another one at the floor lacks: the floor is raised to what was read before it is shown, so the
 * height shown is readable through the same server whichever replica answers next (docs/operations.md, "Read
 * replicas").
 */
import type { Pool, Queryable } from '../../db/connection/pool.ts';
import { readReplayed } from '../../db/connection/replication.ts';
import type { ReadReplicas } from '../../db/connection/read-replicas.ts';

/**
 * How long an answer waits for the floor to reach the replica it read: one look at the replicas, unless that replica
 * is lost meanwhile and no other has it (then 503, as any read with no replica at the floor).
 */
const FLOOR_WAIT_MS = 2000;

/** readServedTop runs `read` on `pool`; with `replicas`, in one snapshot, raising their floor to what it saw. */
export async function readServedTop<T>(
  pool: Pool,
  replicas: ReadReplicas | undefined,
  read: (db: Queryable) => Promise<T>,
): Promise<T> {
  if (!replicas) return read(pool);
  const { value, replayed } = await readReplayed(pool, read);
  if (replayed !== undefined) await replicas.raiseFloor(replayed, AbortSignal.timeout(FLOOR_WAIT_MS));
  return value;
}
