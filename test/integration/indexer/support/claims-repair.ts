/**
 * @module Migration 1164 on a chain an earlier build stored (the build before the names' fold and the contracts' bids):
 * storeAsTheBuildBefore makes a loaded schema's rows what that build left, repair runs the migration and the
 * populator's backfill after it; `rows` reads the tables the repair derives again, to compare with a fresh load's
 * (kept aside in FRESH). The files that load the chains a registrar bids in (names-contract-auctions,
 * balances-contract-bids) repair the load `-v --full` verified, after its checks: no chain loaded again for it.
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { renderStoredTx } from '../../../../src/chain/stored-tx.ts';
import { withTransaction, type Pool } from '../../../../src/db/connection/pool.ts';
import { MIGRATIONS_DIR } from '../../../../src/db/schema/migrator.ts';
import { insertContractNameEvents, nameTxEventsFrom } from '../../../../src/db/writes/contract-name-events.ts';
import { recordBackfill } from '../../../../src/db/writes/derive-backfill.ts';
import { foldNameEvents, storedNameTxAction } from '../../../../src/indexer/derived/contract-names.ts';
import { deriveAgain, type Harness } from './harness.ts';

/** the schema a fresh load is kept aside in (keepAside) */
export const FRESH = 'fresh';

/** The rows the repair derives again, each table's in one order. */
const TABLES: Readonly<Record<string, string>> = {
  name_events: 'name_hash, height, micro_index, tx_index',
  name_state: 'name_hash',
  internal_transfers: 'height, micro_index, tx_index, kind, account_id, ref_tx_hash',
  stats_generations: 'height',
  account_balance_changes: 'account_id, height, micro_index, tx_index, seq',
};

/** rows reads TABLES' rows */
export async function rows(pool: Pool): Promise<Record<string, unknown[]>> {
  const out: Record<string, unknown[]> = {};
  for (const [table, order] of Object.entries(TABLES))
    out[table] = (await pool.query(`SELECT * FROM ${table} ORDER BY ${order}`)).rows;
  return out;
}

/**
 * storeAsTheBuildBefore makes the stored rows what the build before the fix left: the name transactions' events of
 * the names a contract acted on folded without the contracts' events (the writer's fold), the transfers and the
 * statistics derived from them, no refund or lock of a contract's bid, the balances derived from those.
 */
export async function storeAsTheBuildBefore(h: Harness, pool: Pool, env: Record<string, string>): Promise<void> {
  const top = h.devnode.height();
  await withTransaction(pool, async (db) => {
    const { rows: named } = await db.query<{ name_hash: string }>(
      'SELECT DISTINCT name_hash FROM name_events WHERE local_idx IS NOT NULL',
    );
    const hashes = named.map((r) => r.name_hash);
    const txEvents = await nameTxEventsFrom(db, hashes, { height: 0, microIndex: -1 });
    const alone = foldNameEvents(
      new Map(),
      txEvents.map((e) => storedNameTxAction({ ...e, tx: renderStoredTx(e.signed).tx })),
    );
    await db.query('DELETE FROM name_events WHERE name_hash = ANY ($1) AND local_idx IS NULL', [hashes]);
    await insertContractNameEvents(db, alone);
    for (const area of ['transfers', 'stats']) await recordBackfill(db, area, 0, top);
  });
  await deriveAgain(h, pool, env);
  await pool.query(
    `DELETE FROM internal_transfers WHERE kind IN ('fee_refund_name', 'fee_lock_name')
        AND ref_tx_hash IN (SELECT tx_hash FROM name_events WHERE local_idx IS NOT NULL)`,
  );
  await recordBackfill(pool, 'balances', 0, top);
  await deriveAgain(h, pool, env);
}

/** repair runs migration 1164 on the stored schema and the populator's backfill after it: what the migration queued */
export async function repair(h: Harness, pool: Pool, env: Record<string, string>): Promise<unknown[]> {
  await pool.query(await readFile(join(MIGRATIONS_DIR, '1164_contract_claims_folded_again.sql'), 'utf8'));
  const queued = (await pool.query('SELECT area, next_height, to_height FROM derive_backfill ORDER BY area')).rows;
  await deriveAgain(h, pool, env);
  return queued;
}
