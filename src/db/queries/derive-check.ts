/**
 * @module `mdw -v`'s check of the tables derived from stored rows: inside one transaction that is always rolled back,
 * empty temporary twins of the derived tables hide the schema's (PostgreSQL looks up unqualified tables in pg_temp
 * first), the backfill's derivations fill them from the stored rows, and each is compared with the schema's table.
 * Nothing is written to the schema, and its tables are only read (the populator goes on writing meanwhile).
 */
import { quoteIdent, type Pool, type PoolClient } from '../connection/pool.ts';
import { KEPT_AGGREGATES } from './kept-aggregates.ts';
import { emptyKeptTables } from './deferred-builds.ts';

/** The per-height tables the backfill's areas write (the twins they derive into). */
export const DERIVED_BY_HEIGHT = [
  'generation_fees',
  'internal_transfers',
  'stats_generations',
  'stats_series_counts',
  'stats_accounts',
  'stats_active_accounts',
  'stats_miner_rewards',
  'spend_heights',
] as const;

/** Rows of one table found on one side only (first few as JSON text, and how many in all). */
export interface DerivedDifference {
  readonly table: string;
  readonly where: 'only in the database' | 'only re-derived from the stored rows';
  readonly rows: readonly string[];
  readonly total: number;
}

/**
 * withShadowTables runs `derive` over the stored heights 0..top of one snapshot on a connection whose derived
 * tables are empty temporary twins, then compares every twin with the schema's rows, and every kept aggregate
 * (kept-aggregates.ts) with its recount from the stored or re-derived rows; the transaction is rolled back and the
 * connection closed, so nothing of it stays. Returns undefined when nothing is stored.
 */
export async function withShadowTables(
  pool: Pool,
  schema: string,
  derive: (db: PoolClient, top: number) => Promise<void>,
  limit: number,
): Promise<{ top: number; differences: DerivedDifference[] } | undefined> {
  const client = await pool.connect();
  try {
    // a snapshot: the stored rows the derivation reads and the ones compared are the same
    await client.query('BEGIN ISOLATION LEVEL REPEATABLE READ READ WRITE');
    const { rows: tops } = await client.query<{ top: number | null }>(
      `SELECT max(height) AS top FROM ${quoteIdent(schema)}.key_blocks`,
    );
    const top = tops[0]?.top;
    if (top == null) return undefined;
    for (const t of DERIVED_BY_HEIGHT)
      await client.query(
        `CREATE TEMPORARY TABLE ${quoteIdent(t)} (LIKE ${quoteIdent(schema)}.${quoteIdent(t)} INCLUDING DEFAULTS INCLUDING CONSTRAINTS INCLUDING INDEXES) ON COMMIT DROP`,
      );
    await derive(client, top);
    const out: DerivedDifference[] = [];
    // `stored` and `derived` select the same columns; their only parameter, if any, is $2 (the top)
    const compare = async (table: string, stored: string, derived: string): Promise<void> => {
      for (const [from, other, where] of [
        [stored, derived, 'only in the database'],
        [derived, stored, 'only re-derived from the stored rows'],
      ] as const) {
        const sql = `SELECT row_to_json(d)::text AS row, count(*) OVER () AS total FROM ((${from}) EXCEPT ALL (${other})) d LIMIT $1`;
        const { rows } = await client.query<{ row: string; total: string }>(
          sql,
          sql.includes('$2') ? [limit, top] : [limit],
        );
        if (rows.length > 0) out.push({ table, where, rows: rows.map((r) => r.row), total: Number(rows[0]!.total) });
      }
    };
    const s = quoteIdent(schema);
    for (const t of DERIVED_BY_HEIGHT)
      await compare(
        t,
        `SELECT * FROM ${s}.${quoteIdent(t)} WHERE height <= $2`,
        `SELECT * FROM pg_temp.${quoteIdent(t)}`,
      );
    // a catch-up from genesis fills some only at the top (migration 1140): empty until then, nothing to compare
    const empty = await emptyKeptTables(client, schema);
    for (const kept of KEPT_AGGREGATES.filter((k) => !empty.has(k.table)))
      await compare(
        kept.table,
        `SELECT ${kept.columns.join(', ')} FROM ${s}.${quoteIdent(kept.table)}`,
        kept.recount(s),
      );
    return { top, differences: out };
  } finally {
    await client.query('ROLLBACK').catch(() => {});
    // the connection's prepared statements may name the twins: it is not given back to the pool
    client.release(true);
  }
}
