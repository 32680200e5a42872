/**
 * @module The indexes only the servers' queries read (migration 1140, issue 88), left out while a catch-up fills an
 * empty schema and built once the stored chain reaches the node's top: PostgreSQL then builds each in one pass over
 * its table, where during the catch-up it would have updated it for every row (the names' GIN indexes above all).
 * Their definitions are the migrations' (1070, 1076, 1097, 1135) and the name search's (schema/name-search-index.ts).
 */
import type { Logger } from '../../base/log.ts';
import type { Pool, PoolClient } from '../connection/pool.ts';
import { ensureNameSearchIndex, NAME_SEARCH_INDEX } from '../schema/name-search-index.ts';

/** An index the catch-up leaves out: its name and how it is built (null: the name search's own builder). */
interface DeferredIndex {
  readonly name: string;
  readonly create: string | null;
  /** the table analyzed once its indexes are built (the planner's estimates of an expression index come from it) */
  readonly analyze?: string;
}

/** Those indexes: each read by queries only, never by the populator's writes or derivations. */
export const DEFERRED_INDEXES: readonly DeferredIndex[] = [
  // the names' substring search (queries/names.ts)
  { name: NAME_SEARCH_INDEX, create: null },
  {
    name: 'name_state_name_grams',
    create: 'CREATE INDEX IF NOT EXISTS name_state_name_grams ON name_state USING gin (name_grams(name))',
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
 * deferIndexes drops the deferred indexes of a schema whose chain is empty (a catch-up from genesis), recording each
 * as deferred, and gives their names; a schema holding blocks keeps its indexes (its servers read them), and gives
 * none. A populator started again during the catch-up finds the rows and builds the indexes at the top as well.
 */
export async function deferIndexes(pool: Pool): Promise<string[]> {
  const { rows } = await pool.query<{ empty: boolean }>('SELECT NOT EXISTS (SELECT 1 FROM key_blocks) AS empty');
  if (!rows[0]?.empty) return [];
  const names = DEFERRED_INDEXES.map((i) => i.name);
  const client = await pool.connect();
  try {
    await client.query('BEGIN');
    for (const name of names) await client.query(`DROP INDEX IF EXISTS ${name}`);
    await client.query(
      `INSERT INTO deferred_indexes (name, state) SELECT unnest($1::text[]), 'deferred' ON CONFLICT DO NOTHING`,
      [names],
    );
    await client.query('COMMIT');
  } catch (err) {
    await client.query('ROLLBACK').catch(() => {});
    throw err;
  } finally {
    client.release();
  }
  return names;
}

/**
 * buildDeferredIndexes builds each index still deferred, saying `building` in its row while it is (committed first:
 * the status reads it from another connection), and removes its row once built. Not concurrently, as the migrations
 * build theirs: the table's writes wait for the build, its reads go on (docs/operations.md, "Deferred indexes").
 */
export async function buildDeferredIndexes(pool: Pool, log: Logger): Promise<void> {
  const { rows } = await pool.query<{ name: string }>('SELECT name FROM deferred_indexes ORDER BY name');
  if (rows.length === 0) return;
  const client = await pool.connect();
  const analyze = new Set<string>();
  try {
    for (const { name } of rows) {
      const index = DEFERRED_INDEXES.find((i) => i.name === name);
      await client.query(`UPDATE deferred_indexes SET state = 'building', since = now() WHERE name = $1`, [name]);
      const started = Date.now();
      await build(client, index, log);
      if (index?.analyze !== undefined) analyze.add(index.analyze);
      await client.query('DELETE FROM deferred_indexes WHERE name = $1', [name]);
      log.info({ index: name, seconds: (Date.now() - started) / 1000 }, 'deferred index built at the top');
    }
    // once per table, after its indexes: the planner's estimates of an expression index come from its statistics
    for (const table of analyze) await client.query(`ANALYZE ${table}`);
  } finally {
    client.release();
  }
}

async function build(client: PoolClient, index: DeferredIndex | undefined, log: Logger): Promise<void> {
  // a row of an index this version no longer defers: nothing to build
  if (index === undefined) return;
  if (index.create === null) {
    const search = await ensureNameSearchIndex(client);
    if (search.state === 'absent')
      log.warn({ reason: search.reason }, "the names' substring search reads every name: no pg_trgm index");
    return;
  }
  await client.query(index.create);
}
