/**
 * @module The populator's ga_calls rows (migration 1008): which stored transactions are a generalized account's own
 * (GAAttachTx, GAMetaTx), and their calls' outcome as the node gave it.
 */
import { txTypeCode } from '../../chain/id-key.ts';
import type { Queryable } from '../pool.ts';

/** A range of stored heights, from micro block `fromMicro` of `from` on (−1: whole generations). */
export interface GaRange {
  readonly from: number;
  readonly to: number;
  readonly fromMicro: number;
}

/** A stored transaction whose own call is a generalized account's. */
export interface GaTransaction {
  readonly height: number;
  readonly microIndex: number;
  readonly txIndex: number;
  readonly hash: string;
}

const GA_TX_TYPES = ['GAAttachTx', 'GAMetaTx'].map(txTypeCode);

/** gaTransactions lists the GAAttachTx and GAMetaTx of a range, in chain order. */
export async function gaTransactions(db: Queryable, range: GaRange): Promise<GaTransaction[]> {
  const { rows } = await db.query<GaTransaction>({
    name: 'mdw_ga_transactions',
    text: `SELECT t.height, t.micro_index AS "microIndex", t.tx_index AS "txIndex", t.hash FROM transactions t
            WHERE t.height BETWEEN $1 AND $2 AND (t.height > $1 OR t.micro_index >= $3) AND t.tx_type = ANY ($4::smallint[])
            ORDER BY t.height, t.micro_index, t.tx_index`,
    values: [range.from, range.to, range.fromMicro, GA_TX_TYPES],
  });
  return rows;
}

/** A call's outcome to store at its transaction's position. */
export interface GaCallRow extends Omit<GaTransaction, 'hash'> {
  readonly gasUsed: bigint;
  readonly returnType: string;
}

/** replaceGaCalls stores the calls of a range in place of its rows. */
export async function replaceGaCalls(db: Queryable, range: GaRange, rows: readonly GaCallRow[]): Promise<void> {
  await db.query({
    name: 'mdw_ga_calls_delete',
    text: 'DELETE FROM ga_calls WHERE height BETWEEN $1 AND $2 AND (height > $1 OR micro_index >= $3)',
    values: [range.from, range.to, range.fromMicro],
  });
  if (rows.length === 0) return;
  await db.query({
    name: 'mdw_ga_calls_insert',
    text: `INSERT INTO ga_calls (height, micro_index, tx_index, gas_used, return_type)
           SELECT * FROM unnest($1::int[], $2::int[], $3::int[], $4::bigint[], $5::text[])`,
    values: [
      rows.map((r) => r.height),
      rows.map((r) => r.microIndex),
      rows.map((r) => r.txIndex),
      rows.map((r) => r.gasUsed.toString()),
      rows.map((r) => r.returnType),
    ],
  });
}
