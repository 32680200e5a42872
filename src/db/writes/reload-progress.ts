/** @module A reload's (-H) progress in its target schema (reload_progress, migration 1055): one row, one writer. */
import { quoteIdent, type Queryable } from '../connection/pool.ts';

/** Where a reload stands: the list, its phase, the last height of the phase written, the lowest one replaced. */
export interface ReloadProgress {
  /** the list as runs, `0-5000,5010` */
  readonly heights: string;
  readonly phase: 'listed' | 'above';
  readonly doneThrough: number;
  readonly lowestReplaced: number | undefined;
}

/** reloadProgress is the progress an interrupted reload left, if any (in `schema`, else the connection's). */
export async function reloadProgress(db: Queryable, schema?: string): Promise<ReloadProgress | undefined> {
  const table = schema === undefined ? 'reload_progress' : `${quoteIdent(schema)}.reload_progress`;
  const { rows } = await db.query<{
    heights: string;
    phase: 'listed' | 'above';
    done_through: number;
    lowest_replaced: number | null;
  }>(`SELECT heights, phase, done_through, lowest_replaced FROM ${table}`);
  const r = rows[0];
  return r
    ? {
        heights: r.heights,
        phase: r.phase,
        doneThrough: r.done_through,
        lowestReplaced: r.lowest_replaced ?? undefined,
      }
    : undefined;
}

/** saveReloadProgress records a reload's progress (in the transaction of the batch it covers). */
export async function saveReloadProgress(db: Queryable, p: ReloadProgress): Promise<void> {
  await db.query(
    `INSERT INTO reload_progress (heights, phase, done_through, lowest_replaced) VALUES ($1, $2, $3, $4)
     ON CONFLICT (one) DO UPDATE SET heights = excluded.heights, phase = excluded.phase,
       done_through = excluded.done_through, lowest_replaced = excluded.lowest_replaced, updated_at = now()`,
    [p.heights, p.phase, p.doneThrough, p.lowestReplaced ?? null],
  );
}

/** clearReloadProgress forgets a reload's progress: it completed, or a populator has written the schema since. */
export async function clearReloadProgress(db: Queryable): Promise<void> {
  await db.query('DELETE FROM reload_progress');
}

/** What a reload left in its target schema: the top key block stored and an interrupted reload's progress. */
export interface ReloadedSchema {
  readonly top: { readonly height: number; readonly hash: string } | undefined;
  readonly interrupted: ReloadProgress | undefined;
}

/** reloadedSchema reads what `schema` holds, through a connection to any schema; undefined when it has no such tables. */
export async function reloadedSchema(db: Queryable, schema: string): Promise<ReloadedSchema | undefined> {
  const q = quoteIdent(schema);
  const { rows } = await db.query<{ ready: boolean }>(
    'SELECT to_regclass($1) IS NOT NULL AND to_regclass($2) IS NOT NULL AS ready',
    [`${q}.key_blocks`, `${q}.reload_progress`],
  );
  if (!rows[0]?.ready) return undefined;
  const top = await db.query<{ height: number; hash: string }>(
    `SELECT height, hash FROM ${q}.key_blocks ORDER BY height DESC LIMIT 1`,
  );
  return { top: top.rows[0], interrupted: await reloadProgress(db, schema) };
}
