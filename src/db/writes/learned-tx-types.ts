/**
 * @module Types a schema stored as unknown (migration 1011) that this version knows: their rows take the type's tag and
 * their stored form is made again from the JSON they were kept as (the binary form where it renders back), so that an
 * upgrade heals what an older version stored, from the stored rows alone (no block is fetched again).
 */
import { isKnownTxType, txTypeCode } from '../../chain/id-key.ts';
import { isJsonObject, parseJson } from '../../chain/json.ts';
import { storedTxColumns } from '../../chain/stored-tx.ts';
import { CHAIN_TX_TYPES } from '../../chain/tx-schema.ts';
import { withTransaction, type Pool, type Queryable } from '../connection/pool.ts';
import { recordBackfill } from './derive-backfill.ts';

/**
 * A type learned: its name, the code it was stored under, its tag now, how many transactions moved and the heights
 * that hold them.
 */
export interface LearnedTxType {
  readonly name: string;
  readonly code: number;
  readonly tag: number;
  readonly transactions: number;
  readonly from: number;
  readonly to: number;
}

/**
 * learnTxTypes moves the stored transactions of every unknown type this version knows to its tag, in one transaction
 * (unknown types are rare: their rows are few), drops their unknown codes and sends their heights back to each of
 * `areas` (the derived areas, which now see the type for what it is), as migration 1009 sends stored calls back.
 */
export async function learnTxTypes(pool: Pool, areas: readonly string[]): Promise<LearnedTxType[]> {
  return withTransaction(pool, async (db) => {
    const { rows } = await db.query<{ code: number; name: string }>(
      'SELECT code, name FROM unknown_tx_types WHERE name = ANY($1::text[]) ORDER BY code DESC',
      [CHAIN_TX_TYPES],
    );
    const learned: LearnedTxType[] = [];
    for (const { code, name } of rows) {
      if (!isKnownTxType(name)) continue;
      const tag = txTypeCode(name);
      const heights = await retype(db, code, tag);
      await db.query('DELETE FROM unknown_tx_types WHERE code = $1', [code]);
      // a name whose transactions a fork removed has nothing to derive again
      if (heights.length === 0) continue;
      const from = heights.reduce((a, b) => Math.min(a, b));
      const to = heights.reduce((a, b) => Math.max(a, b));
      learned.push({ name, code, tag, transactions: heights.length, from, to });
      for (const area of areas) await recordBackfill(db, area, from, to);
    }
    return learned;
  });
}

/** retype moves the transactions stored under `code` to `tag`, their stored form made again; returns their heights. */
async function retype(db: Queryable, code: number, tag: number): Promise<number[]> {
  const { rows } = await db.query<{ height: number; micro_index: number; tx_index: number; signed: Buffer }>(
    'SELECT height, micro_index, tx_index, signed FROM transactions WHERE tx_type = $1',
    [code],
  );
  for (const r of rows) {
    const kept = parseJson(r.signed.toString('utf8'));
    const stored = isJsonObject(kept) ? storedTxColumns(kept) : undefined;
    await db.query(
      `UPDATE transactions SET tx_type = $4, signed = coalesce($5, signed), size = coalesce($6, size)
        WHERE height = $1 AND micro_index = $2 AND tx_index = $3`,
      [r.height, r.micro_index, r.tx_index, tag, stored ? Buffer.from(stored.signed) : null, stored?.size ?? null],
    );
  }
  await db.query('UPDATE account_transactions SET tx_type = $2 WHERE tx_type = $1', [code, tag]);
  return rows.map((r) => r.height);
}
