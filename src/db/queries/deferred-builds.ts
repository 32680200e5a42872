/**
 * @module The kept tables of name_state's that a catch-up from genesis leaves empty until the top (migration 1140,
 * writes/deferred-builds.ts), and which of them a schema holds empty now: `mdw -v` recounts none of those.
 */
import { quoteIdent, type Queryable } from '../connection/pool.ts';

/**
 * A kept table the catch-up leaves empty: name_state's triggers that keep it (disabled meanwhile), and the kept
 * tables that follow from it (name_count_spans, kept by name_count_edges' trigger), empty with it.
 */
export interface DeferredTable {
  readonly name: string;
  readonly triggers: readonly string[];
  readonly follow: readonly string[];
}

const onNameState = (prefix: string): string[] => ['insert', 'delete', 'update'].map((op) => `${prefix}_on_${op}`);

/** Those tables: /v3/names/count's (1045, 1060) and /middleware/names/reverse's (1062), read by queries only. */
export const DEFERRED_TABLES: readonly DeferredTable[] = [
  { name: 'name_count_edges', triggers: onNameState('name_count_edges'), follow: ['name_count_spans'] },
  { name: 'name_pointees', triggers: onNameState('name_pointees'), follow: [] },
];

/** emptyKeptTables names the kept tables of `schema` left empty until the top (none where nothing is deferred). */
export async function emptyKeptTables(db: Queryable, schema: string): Promise<Set<string>> {
  const { rows } = await db.query<{ name: string }>(
    `SELECT name FROM ${quoteIdent(schema)}.deferred_builds WHERE kind = 'table'`,
  );
  return new Set(
    DEFERRED_TABLES.filter((t) => rows.some((r) => r.name === t.name)).flatMap((t) => [t.name, ...t.follow]),
  );
}
