/**
 * @module The scratch schema of `-v --full` (`<schema>_verify`): the chain loaded from the node as a sync from scratch
 * would, for every derived row to be compared with. On mainnet that load takes a sync's hours, so a run stopped or
 * killed leaves it for the next one, which goes on from what it holds (the same list of heights: its reload resumes
 * after its last batch written) and then loads only the heights stored since. A scratch of another chain (its top
 * block is not the verified schema's block at that height: a fork replaced it) or beyond the verified top is dropped
 * and loaded anew. A run that compared empties it (db/schema/admin.ts, emptySchema): its disk freed, its migrations kept,
 * so the next run loads it without migrating a new schema (a newer version's migrations apply to it as to any schema).
 */
import { dropSchema, emptySchema } from '../../db/schema/admin.ts';
import { WriterLock } from '../../db/schema/writer-lock.ts';
import type { Pool, Queryable } from '../../db/connection/pool.ts';
import { keyHashAt } from '../../db/queries/block-hashes.ts';
import { reloadedSchema, type ReloadedSchema } from '../../db/writes/reload-progress.ts';
import { heightRange } from '../sync/heights.ts';

/** scratchSchemaOf names the scratch schema of verified schema `schema` (within PostgreSQL's 63 bytes). */
export const scratchSchemaOf = (schema: string): string => `${schema.slice(0, 40)}_verify`;

/** ScratchPlan: drop the scratch first or not, the lists of heights to load into it in order, what it held. */
export interface ScratchPlan {
  readonly drop: boolean;
  readonly lists: readonly (readonly number[])[];
  /** the heights 0 to this one were loaded, or are being loaded by the interrupted list, by an earlier run */
  readonly heldThrough?: number;
}

/**
 * scratchPlan loads heights 0 to `top` into a scratch that holds `held` (undefined: no scratch): an interrupted load of
 * `0-T` goes on first (the same list), then the heights above what it holds are loaded. It is dropped when its top block
 * is not the verified schema's (`verifiedHash`: the verified schema's block at that height) or above `top`, or when
 * an interrupted reload of another list left it. Pure.
 */
export function scratchPlan(
  held: ReloadedSchema | undefined,
  top: number,
  verifiedHash: string | undefined,
): ScratchPlan {
  const whole = [heightRange(0, top + 1)];
  if (!held) return { drop: false, lists: whole };
  const listed = held.interrupted && /^0-(\d+)$/.exec(held.interrupted.heights);
  const listedTop = listed ? Number(listed[1]) : undefined;
  const foreign =
    (held.interrupted !== undefined && (listedTop === undefined || listedTop > top)) ||
    (held.top !== undefined && (held.top.height > top || held.top.hash !== verifiedHash));
  if (foreign) return { drop: true, lists: whole };
  const heldThrough = listedTop ?? held.top?.height ?? -1;
  const lists = [
    ...(listedTop === undefined ? [] : [heightRange(0, listedTop + 1)]),
    ...(heldThrough < top ? [heightRange(heldThrough + 1, top - heldThrough)] : []),
  ];
  return { drop: false, lists, ...(heldThrough >= 0 ? { heldThrough } : {}) };
}

/** planScratch reads what the scratch holds (through `db`, the verified schema's pool), drops it if it must, and plans. */
export async function planScratch(
  db: Queryable,
  databaseUrl: string,
  scratch: string,
  top: number,
): Promise<ScratchPlan> {
  const held = await reloadedSchema(db, scratch);
  const verifiedHash = held?.top === undefined ? undefined : await keyHashAt(db, held.top.height);
  const plan = scratchPlan(held, top, verifiedHash);
  if (plan.drop) await dropSchema(databaseUrl, scratch);
  return plan;
}

/**
 * emptyScratch empties the scratch once compared, under its writer lock: another `-v --full` of the same schema that
 * started loading it meanwhile (its reload holds the lock) keeps what it loads, and empties it when it has compared.
 * False when it was left so.
 */
export async function emptyScratch(pool: Pool, databaseUrl: string, scratch: string): Promise<boolean> {
  const lock = new WriterLock(pool, scratch);
  if (!(await lock.tryAcquire())) return false;
  try {
    await emptySchema(databaseUrl, scratch);
    return true;
  } finally {
    await lock.release();
  }
}
