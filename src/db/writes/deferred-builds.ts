/**
 * @module What only the servers' queries read (migration 1140, issue 88), left out while a catch-up fills an empty
 * schema and built once the stored chain reaches the node's top: indexes, which PostgreSQL then builds in one pass
 * over their table where the catch-up would have updated them for every row (the names' GIN indexes above all), and
 * kept tables (the names' counts and pointees, the AEX-9 balances after each event, the spends per day, an id's
 * transaction counts), filled from what they are kept from in one statement where their triggers would have kept them
 * at every batch (their triggers dropped meanwhile, and created again from the definitions their rows keep, 1152).
 * Their definitions are the migrations' (1000, 1001, 1003, 1015, 1030, 1045, 1048, 1050, 1061, 1062, 1070, 1076, 1077,
 * 1097, 1135, 1153), the name search's (schema/name-search-index.ts) and the kept aggregates' recounts
 * (queries/kept-aggregates.ts).
 */
import type { Logger } from '../../base/log.ts';
import { inTransaction, quoteIdent, type Pool, type PoolClient } from '../connection/pool.ts';
import { DEFERRED_TABLES, type DeferredTable } from '../queries/deferred-builds.ts';
import { KEPT_AGGREGATES } from '../queries/kept-aggregates.ts';
import { ensureNameSearchIndex, NAME_SEARCH_INDEX } from '../schema/name-search-index.ts';

/**
 * An index the catch-up leaves out: its name and how it is built (null: the name search's own builder, or a primary
 * key's constraint added again).
 */
interface DeferredIndex {
  readonly name: string;
  readonly create: string | null;
  /** a primary key's: its constraint's, where a plain index is dropped by its name */
  readonly constraint?: { readonly table: string; readonly columns: string };
  /** the table analyzed once its indexes are built (the planner's estimates of an expression index come from it) */
  readonly analyze?: string;
}

/** Those indexes: each read by queries only, never by the populator's writes or derivations. */
const DEFERRED_INDEXES: readonly DeferredIndex[] = [
  // the names' substring search (queries/names.ts)
  { name: NAME_SEARCH_INDEX, create: null },
  // its keys compared in byte order (1153)
  {
    name: 'name_state_name_grams',
    create: 'CREATE INDEX IF NOT EXISTS name_state_name_grams ON name_state USING gin ((name_grams(name)) COLLATE "C")',
    analyze: 'name_state',
  },
  {
    name: 'name_state_name_reversed',
    create: 'CREATE INDEX IF NOT EXISTS name_state_name_reversed ON name_state (reverse(name) text_pattern_ops)',
    analyze: 'name_state',
  },
  {
    name: 'name_state_name_not_label_chain',
    create: `CREATE INDEX IF NOT EXISTS name_state_name_not_label_chain ON name_state (name) WHERE name !~ '^[^.]*\\.chain$'`,
  },
  // the transactions of a type (/v3/transactions?type=, transaction-filter.ts): the populator reads transactions by
  // position or hash, by type only within a batch's heights (the position key's range)
  {
    name: 'transactions_type',
    create: 'CREATE INDEX IF NOT EXISTS transactions_type ON transactions (tx_type, height, micro_index, tx_index)',
  },
  // an id's transactions of one type (queries/account-transactions.ts, transaction-filter.ts; one without a type walks
  // the primary key); the populator reads the account rows by position (account_transactions_height)
  {
    name: 'account_transactions_type',
    create:
      'CREATE INDEX IF NOT EXISTS account_transactions_type ON account_transactions (account, tx_type, height, micro_index, tx_index)',
  },
  // a caller's calls (/v3/contracts/calls?caller_id=); the populator reads calls by position, hash or contract
  {
    name: 'contract_calls_caller',
    create:
      'CREATE INDEX IF NOT EXISTS contract_calls_caller ON contract_calls (caller_id, height, micro_index, tx_index)',
  },
  // an account's internal transfers and activities (queries/internal-transfers.ts, activities.ts); the populator reads
  // them by height (their primary key)
  {
    name: 'internal_transfers_account',
    create:
      'CREATE INDEX IF NOT EXISTS internal_transfers_account ON internal_transfers (account_id, height, micro_index, tx_index, kind, ref_tx_hash)',
  },
  // the names' lists (1001: in auction, by claim, expiry or name, an owner's; 1048: by deactivation): the populator
  // reads name_state by its key alone (the refresh of a batch's names, 1144), where these were most of the cost of
  // each name it rewrites
  {
    name: 'name_state_deactivation',
    create: 'CREATE INDEX IF NOT EXISTS name_state_deactivation ON name_state (expires_at, name)',
  },
  {
    name: 'name_state_auction_end',
    create: 'CREATE INDEX IF NOT EXISTS name_state_auction_end ON name_state (auction_end_height)',
  },
  {
    name: 'name_state_created',
    create: 'CREATE INDEX IF NOT EXISTS name_state_created ON name_state (created_at_height DESC, name)',
  },
  {
    name: 'name_state_expires',
    create: 'CREATE INDEX IF NOT EXISTS name_state_expires ON name_state (expires_at DESC NULLS LAST, name)',
  },
  { name: 'name_state_name', create: 'CREATE INDEX IF NOT EXISTS name_state_name ON name_state (name)' },
  { name: 'name_state_owner', create: 'CREATE INDEX IF NOT EXISTS name_state_owner ON name_state (owner)' },
  // a contract's calls whose log holds an event of its own (1015: /v3/contracts/{id}/logs); the populator's
  // reads of logged calls walk contract_calls_logged
  {
    name: 'contract_calls_own_log',
    create:
      'CREATE INDEX IF NOT EXISTS contract_calls_own_log ON contract_calls (contract_id, height, micro_index, tx_index) WHERE call_logs_own_event(call_info, contract_id)',
  },
  // a name's auctions by its plain name (queries/auctions.ts); the populator reads the name events by hash, height,
  // expiry and auction end
  { name: 'name_events_name', create: 'CREATE INDEX IF NOT EXISTS name_events_name ON name_events (name)' },
  // one caller's calls of one contract (1030)
  {
    name: 'contract_calls_contract_caller',
    create:
      'CREATE INDEX IF NOT EXISTS contract_calls_contract_caller ON contract_calls (contract_id, caller_id, height, micro_index, tx_index)',
  },
  // the transactions from one id to another (1077; queries/transactions-from-to.ts, transaction-filter.ts): the
  // writer COPYs the pairs, never conflicting; a fork deletes them by account_pairs_height
  {
    name: 'account_pairs_pkey',
    create: null,
    constraint: { table: 'account_pairs', columns: 'sender, recipient, height, micro_index, tx_index' },
  },
  // /v3/contracts/calls?function= and ?contract_id= (queries/internal-calls.ts)
  {
    name: 'contract_internal_calls_function',
    create:
      'CREATE INDEX IF NOT EXISTS contract_internal_calls_function ON contract_internal_calls (function, height, micro_index, tx_index, local_idx)',
  },
  {
    name: 'contract_internal_calls_contract',
    create:
      'CREATE INDEX IF NOT EXISTS contract_internal_calls_contract ON contract_internal_calls (contract_id, height, micro_index, tx_index, local_idx)',
  },
];

/**
 * deferBuilds leaves out the deferred indexes and tables of a schema whose chain is empty (a catch-up from genesis),
 * recording each, and gives their names; a schema holding blocks keeps them (its servers read them), and gives none.
 * A populator started again during the catch-up finds the rows and builds them at the top as well.
 */
export async function deferBuilds(pool: Pool): Promise<string[]> {
  const { rows } = await pool.query<{ empty: boolean }>('SELECT NOT EXISTS (SELECT 1 FROM key_blocks) AS empty');
  if (!rows[0]?.empty) return [];
  const client = await pool.connect();
  try {
    await inTransaction(client, async () => {
      for (const { name, constraint } of DEFERRED_INDEXES)
        await client.query(
          constraint
            ? `ALTER TABLE ${quoteIdent(constraint.table)} DROP CONSTRAINT IF EXISTS ${quoteIdent(name)}`
            : `DROP INDEX IF EXISTS ${quoteIdent(name)}`,
        );
      const triggers: string[] = [];
      for (const table of DEFERRED_TABLES) triggers.push(JSON.stringify(await dropTriggers(client, table)));
      // a populator started again before the first block finds the rows, their triggers dropped already: it keeps
      // the definitions they hold
      await client.query(
        `INSERT INTO deferred_builds AS d (name, kind, state, triggers)
         SELECT * FROM unnest($1::text[], $2::text[], $3::text[], $4::jsonb[])
         ON CONFLICT (name) DO UPDATE SET triggers = d.triggers || excluded.triggers WHERE excluded.triggers <> '{}'`,
        [
          [...DEFERRED_INDEXES.map((i) => i.name), ...DEFERRED_TABLES.map((t) => t.name)],
          [...DEFERRED_INDEXES.map(() => 'index'), ...DEFERRED_TABLES.map(() => 'table')],
          [...DEFERRED_INDEXES.map(() => 'deferred'), ...DEFERRED_TABLES.map(() => 'deferred')],
          [...DEFERRED_INDEXES.map(() => '{}'), ...triggers],
        ],
      );
    });
  } finally {
    client.release();
  }
  return [...DEFERRED_INDEXES, ...DEFERRED_TABLES].map((d) => d.name);
}

/**
 * buildDeferred builds what is still deferred, saying `building` in its row while it is (committed first: the status
 * reads it from another connection), and removes its row once built. Not concurrently, as the migrations build
 * theirs: the table's writes wait for the build, its reads go on; a table's triggers come back and its rows are
 * filled in one transaction, so a reader sees it empty or whole.
 */
export async function buildDeferred(pool: Pool, log: Logger): Promise<void> {
  const { rows } = await pool.query<{ name: string }>('SELECT name FROM deferred_builds ORDER BY kind, name');
  if (rows.length === 0) return;
  const client = await pool.connect();
  const analyze = new Set<string>();
  try {
    for (const { name } of rows) {
      await client.query(`UPDATE deferred_builds SET state = 'building', since = now() WHERE name = $1`, [name]);
      const started = Date.now();
      const index = DEFERRED_INDEXES.find((i) => i.name === name);
      const table = DEFERRED_TABLES.find((t) => t.name === name);
      if (index) await buildIndex(client, index, log);
      if (index?.analyze !== undefined) analyze.add(index.analyze);
      await inTransaction(client, async () => {
        if (table) await fillTable(client, table);
        await client.query('DELETE FROM deferred_builds WHERE name = $1', [name]);
      });
      log.info({ name, seconds: (Date.now() - started) / 1000 }, 'built at the top what the catch-up left out');
    }
    // once per table, after its indexes
    for (const table of analyze) await client.query(`ANALYZE ${quoteIdent(table)}`);
  } finally {
    client.release();
  }
}

async function buildIndex(client: PoolClient, index: DeferredIndex, log: Logger): Promise<void> {
  if (index.create !== null) {
    await client.query(index.create);
    return;
  }
  const { constraint } = index;
  if (constraint) {
    // a schema restored from a snapshot has it already (migrated, then its indexes rebuilt): a table has one key
    const { rows } = await client.query(
      'SELECT 1 FROM pg_indexes WHERE schemaname = current_schema() AND indexname = $1',
      [index.name],
    );
    if (rows.length === 0)
      await client.query(
        `ALTER TABLE ${quoteIdent(constraint.table)} ADD CONSTRAINT ${quoteIdent(index.name)} PRIMARY KEY (${constraint.columns})`,
      );
    return;
  }
  const search = await ensureNameSearchIndex(client);
  if (search.state === 'absent')
    log.warn({ reason: search.reason }, "the names' substring search reads every name: no pg_trgm index");
}

/**
 * dropTriggers drops the triggers that keep `table` and gives their definitions by name, as the migrations left them
 * (their schema left out: the search_path's), for the top to create them again. Dropped, not disabled: PostgreSQL
 * copies every row a statement writes into the transition tables of its table's statement triggers whether they are
 * enabled or not (a disabled one is only not run), temporary files once a statement's rows pass work_mem.
 */
async function dropTriggers(client: PoolClient, table: DeferredTable): Promise<Record<string, string>> {
  const { rows } = await client.query<{ definitions: Record<string, string> }>(
    `SELECT coalesce(jsonb_object_agg(tgname, pg_get_triggerdef(oid, true)), '{}') AS definitions FROM pg_trigger
      WHERE tgrelid = $1::regclass AND tgname = ANY ($2)`,
    [table.on, table.triggers],
  );
  for (const t of table.triggers)
    await client.query(`DROP TRIGGER IF EXISTS ${quoteIdent(t)} ON ${quoteIdent(table.on)}`);
  return rows[0]!.definitions;
}

/**
 * fillTable creates the table's triggers again from the definitions its row kept, and fills it from the rows it is
 * kept from, as its kept aggregate recounts it (or by its own `fill`), in place of what it holds: a schema restored
 * from a snapshot taken during the catch-up has the triggers already (the migrations' own, created again by the
 * restore, newer than the kept definitions where a migration since changed them), so the rows written since kept their
 * deltas on an empty table.
 */
async function fillTable(client: PoolClient, table: DeferredTable): Promise<void> {
  const { rows: missing } = await client.query<{ definition: string }>(
    `SELECT t.value AS definition FROM deferred_builds d, jsonb_each_text(d.triggers) t
      WHERE d.name = $1 AND NOT EXISTS (SELECT 1 FROM pg_trigger g WHERE g.tgrelid = $2::regclass AND g.tgname = t.key)`,
    [table.name, table.on],
  );
  for (const { definition } of missing) await client.query(definition);
  // TRUNCATE fires no trigger: the followers (name_count_spans) are emptied with it and filled by its insert's
  await client.query(`TRUNCATE ${[table.name, ...table.follow].map(quoteIdent).join(', ')}`);
  const kept = KEPT_AGGREGATES.find((k) => k.table === table.name)!;
  const { rows } = await client.query<{ schema: string }>('SELECT current_schema() AS schema');
  const fill = table.fill ?? kept.recount;
  await client.query(
    `INSERT INTO ${quoteIdent(table.name)} (${kept.columns.join(', ')}) ${fill(quoteIdent(rows[0]!.schema))}`,
  );
}
