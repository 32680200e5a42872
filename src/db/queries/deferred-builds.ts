/**
 * @module The kept tables that a catch-up from genesis leaves empty until the top (migration 1140,
 * writes/deferred-builds.ts), and which of them a schema holds empty now: `mdw -v` recounts none of those.
 */
import { quoteIdent, type Queryable } from '../connection/pool.ts';

/**
 * A kept table the catch-up leaves empty: the table whose triggers keep it (`on`), those triggers (dropped meanwhile,
 * their definitions kept in the table's deferred_builds row, migration 1152), and the kept tables that follow from it
 * (name_count_spans, kept by name_count_edges' trigger), empty with it. It is filled at the top by its kept aggregate's
 * recount of the stored rows of schema `s` (quoted), or by `fill` where that recount reads the rows `mdw -v` derives
 * again.
 */
export interface DeferredTable {
  readonly name: string;
  readonly on: string;
  readonly triggers: readonly string[];
  readonly follow: readonly string[];
  readonly fill?: (s: string) => string;
}

const triggersOf = (prefix: string, ops: readonly string[]): string[] => ops.map((op) => `${prefix}_on_${op}`);
const ALL_OPS = ['insert', 'delete', 'update'];

/**
 * Those tables, each read by queries only: /v3/names/count's (1045, 1060), /middleware/names/reverse's (1062), the
 * AEX-9 balances at a past block's (1050: /v3/aex9/{contractId}/balances with a block or height, an account's balance
 * at a block and its /history), /middleware/transactions/rate's (1061) and an id's transaction counts (1015: its
 * trigger's upsert of every (id, type, fields) a batch wrote was 5 % of a catch-up's PostgreSQL instructions).
 */
export const DEFERRED_TABLES: readonly DeferredTable[] = [
  {
    name: 'name_count_edges',
    on: 'name_state',
    triggers: triggersOf('name_count_edges', ALL_OPS),
    follow: ['name_count_spans'],
  },
  { name: 'name_pointees', on: 'name_state', triggers: triggersOf('name_pointees', ALL_OPS), follow: [] },
  {
    name: 'aex9_event_balances',
    on: 'aex9_events',
    triggers: triggersOf('aex9_event_balances', ['insert', 'delete']),
    follow: [],
  },
  {
    name: 'spend_days',
    on: 'spend_heights',
    triggers: triggersOf('spend_days', ALL_OPS),
    follow: [],
    fill: (s) => `SELECT day, sum(count), sum(amount) FROM ${s}.spend_heights GROUP BY 1`,
  },
  {
    name: 'account_tx_counts',
    on: 'account_transactions',
    triggers: triggersOf('account_tx_counts', ALL_OPS),
    follow: [],
  },
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
