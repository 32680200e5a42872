/**
 * @module transactions.created_id (migration 1013) for the stored transactions: those that may show a created id and
 * have none yet, and the ids the `created` area computed for them.
 */
import { txTypeCode } from '../../chain/id-key.ts';
import { CREATING_TX_TYPES } from '../../chain/tx-fields.ts';
import type { Queryable } from '../connection/pool.ts';

/** A stored transaction by position, with its stored form (chain/stored-tx.ts). */
export interface StoredTxForm {
  readonly height: number;
  readonly microIndex: number;
  readonly txIndex: number;
  readonly signed: Buffer;
}

/** the types whose created id a transaction shows: those that create one, and the two that wrap one */
const SHOWING_TYPES = [...CREATING_TX_TYPES, 'GAMetaTx', 'PayingForTx'].map(txTypeCode);

/** txsWithoutCreatedId lists the transactions of heights from..to that may show a created id and have none stored. */
export async function txsWithoutCreatedId(db: Queryable, from: number, to: number): Promise<StoredTxForm[]> {
  const { rows } = await db.query<StoredTxForm>({
    name: 'mdw_txs_without_created_id',
    text: `SELECT height, micro_index AS "microIndex", tx_index AS "txIndex", signed FROM transactions
            WHERE height BETWEEN $1 AND $2 AND tx_type = ANY ($3::smallint[]) AND created_id IS NULL`,
    values: [from, to, SHOWING_TYPES],
  });
  return rows;
}

/** writeCreatedIds stores created ids at their transactions' positions. */
export async function writeCreatedIds(
  db: Queryable,
  rows: readonly (Omit<StoredTxForm, 'signed'> & { readonly createdId: string })[],
): Promise<void> {
  if (rows.length === 0) return;
  await db.query({
    name: 'mdw_write_created_ids',
    text: `UPDATE transactions t SET created_id = u.id
             FROM unnest($1::int[], $2::int[], $3::int[], $4::text[]) AS u(height, micro_index, tx_index, id)
            WHERE t.height = u.height AND t.micro_index = u.micro_index AND t.tx_index = u.tx_index`,
    values: [
      rows.map((r) => r.height),
      rows.map((r) => r.microIndex),
      rows.map((r) => r.txIndex),
      rows.map((r) => r.createdId),
    ],
  });
}
