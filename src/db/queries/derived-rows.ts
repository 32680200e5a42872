/**
 * @module `mdw -v --full`'s comparison of every derived row: the rows of one schema's tables against the same tables
 * of a scratch schema re-derived from the node, table by table, found from the catalogue so a new table is
 * compared without a change here.
 */
import { idOfKey } from '../../chain/id-key.ts';
import { quoteIdent, type Queryable } from '../connection/pool.ts';
import { CONFIG_TABLES } from '../schema/shared-config.ts';
import { ID_NUMBER_COLUMNS } from './account-ids.ts';

/**
 * Tables that hold no chain data: the populator's progress (sync_state; derive_backfill, what its areas still derive),
 * the migrations applied, the schema's identity (its owner is the deployment's, not the chain's), and the ids' numbers (each load numbers ids in its own order: rows are compared with their
 * ids' keys instead, ID_NUMBER_COLUMNS); and the accounts' balances, stored at the last height of each batch that
 * touched an account, so at heights that follow the load's batches (each account's latest, account_wealth, is the
 * chain's and compared); and the AE balance changes, whose reconciliation rows ('unexplained') fall at the ends of the
 * load's batches too (each account's balance at the top and at sampled heights is compared with the node's instead:
 * verify-state.ts); and whether the chain is a hyperchain (hc_chain: what the node said, once, like the identity);
 * and the reorg log (reorgs: the forks this schema's populator followed, which a load from the node never sees); and
 * an interrupted reload's progress (reload_progress), and the heights a repair has still to reload (repair_heights); and
 * the snapshot an import restored the schema from (snapshot_restored); and the AEX-9 settle's bookkeeping (the last
 * settled batch's top, aex9_settled, and the tokens whose reads a delete removed since, aex9_unsettled: 1157); and the
 * users' configuration (API keys, webhooks: CONFIG_TABLES).
 */
const NOT_DERIVED = [
  'hc_chain',
  'sync_state',
  'derive_backfill',
  'mdw_migrations',
  'schema_identity',
  'account_ids',
  'account_balances',
  'account_balance_changes',
  'reorgs',
  'reload_progress',
  'repair_heights',
  'snapshot_restored',
  'aex9_settled',
  'aex9_unsettled',
  ...CONFIG_TABLES,
];

/**
 * Tables with a `height` that is not the row's own: an account's token balance says the height of its last event, so
 * a check of some heights would find the later heights' balances missing. They are state, compared when every height is.
 */
const STATE_WITH_HEIGHT = ['aex9_balances'];

/** A table of the schema and the columns whose values derive from the chain. */
export interface DerivedTable {
  readonly name: string;
  /** columns compared; a json column (no equality) as its text, an id's number as the id's key */
  readonly columns: readonly { name: string; json: boolean; idNumber: boolean }[];
  /** whether its rows belong to a height (else it is current state, such as name_state) */
  readonly byHeight: boolean;
}

/**
 * derivedTables lists the base tables of `schema` and their columns, leaving out the tables NOT_DERIVED and columns
 * the database fills itself (serial ids, insertion times), which no two loads share. Read from pg_catalog, not
 * information_schema, whose views (privileges checked per column, every type's name formatted) cost PostgreSQL about
 * 0.13 CPU s for a migrated schema: a tenth of a `-v --full` of a short chain.
 */
export async function derivedTables(db: Queryable, schema: string): Promise<DerivedTable[]> {
  const { rows } = await db.query<{ table_name: string; column_name: string; json: boolean }>(
    `SELECT c.relname AS table_name, a.attname AS column_name,
            coalesce(nullif(t.typbasetype, 0), a.atttypid) = 'json'::regtype AS json
       FROM pg_class c
       JOIN pg_namespace n ON n.oid = c.relnamespace
       JOIN pg_attribute a ON a.attrelid = c.oid AND a.attnum > 0 AND NOT a.attisdropped
       JOIN pg_type t ON t.oid = a.atttypid
       LEFT JOIN pg_attrdef d ON d.adrelid = c.oid AND d.adnum = a.attnum
      WHERE n.nspname = $1 AND c.relkind IN ('r', 'p') AND NOT (c.relname = ANY($2))
        AND coalesce(pg_get_expr(d.adbin, d.adrelid), '') !~* '(nextval|now\\(|current_timestamp|clock_timestamp)'
      ORDER BY c.relname, a.attnum`,
    [schema, NOT_DERIVED],
  );
  const tables = new Map<string, { name: string; json: boolean; idNumber: boolean }[]>();
  for (const r of rows) {
    const columns = tables.get(r.table_name) ?? [];
    columns.push({
      name: r.column_name,
      json: r.json,
      idNumber: ID_NUMBER_COLUMNS[r.table_name]?.includes(r.column_name) ?? false,
    });
    tables.set(r.table_name, columns);
  }
  return [...tables].map(([name, columns]) => ({
    name,
    columns,
    byHeight: columns.some((c) => c.name === 'height') && !STATE_WITH_HEIGHT.includes(name),
  }));
}

/** Rows of a table found in one schema and not in the other (first few as JSON text, and how many in all). */
export interface OnlyIn {
  readonly rows: readonly string[];
  readonly total: number;
}

/**
 * rowsOnlyIn lists rows of `table` in schema `from` that schema `other` lacks (as many times as they repeat). A
 * table by height compares the heights `heightsOf` stores (the verified heights), optionally only `heights`.
 */
export async function rowsOnlyIn(
  db: Queryable,
  table: DerivedTable,
  schemas: { from: string; other: string; heightsOf: string },
  heights: readonly number[] | undefined,
  limit: number,
): Promise<OnlyIn> {
  const column = (c: DerivedTable['columns'][number], schema: string): string => {
    const name = quoteIdent(c.name);
    if (c.json) return `${name}::text AS ${name}`;
    return c.idNumber ? `(SELECT key FROM ${quoteIdent(schema)}.account_ids WHERE num = ${name}) AS ${name}` : name;
  };
  const stored = `SELECT height FROM ${quoteIdent(schemas.heightsOf)}.key_blocks${heights ? ' WHERE height = ANY($2::int[])' : ''}`;
  const where = table.byHeight ? ` WHERE height IN (${stored})` : '';
  const select = (schema: string) =>
    `SELECT ${table.columns.map((c) => column(c, schema)).join(', ')} FROM ${quoteIdent(schema)}.${quoteIdent(table.name)}${where}`;
  const { rows } = await db.query<{ row: string; total: string }>(
    `SELECT row_to_json(d)::text AS row, count(*) OVER () AS total
       FROM (${select(schemas.from)} EXCEPT ALL ${select(schemas.other)}) d LIMIT $1`,
    heights && table.byHeight ? [limit, heights] : [limit],
  );
  return { rows: rows.map((r) => readableRow(r.row)), total: Number(rows[0]?.total ?? 0) };
}

/** A stored id key (migration 1000: its tag and 32 bytes) as row_to_json prints a bytea. */
const ID_KEY_JSON = /"\\\\x(0[1-7][0-9a-f]{64})"/g;

/** readableRow shows each stored id key of a row (as row_to_json printed it) as the id it stands for. */
export function readableRow(row: string): string {
  return row.replace(ID_KEY_JSON, (_, hex: string) => `"${idOfKey(Buffer.from(hex, 'hex'))}"`);
}
