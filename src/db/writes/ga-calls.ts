/**
 * @module The populator's ga_calls rows (migration 1008): which stored transactions are a generalized account's own
 * (GAAttachTx, GAMetaTx, or a PayingForTx paying for one), and their calls' outcome as the node gave it.
 */
import { txTypeCode } from '../../chain/id-key.ts';
import { stringifyJson, type Json } from '../../chain/json.ts';
import type { Queryable } from '../connection/pool.ts';
import type { HeightRange } from '../queries/height-range.ts';

/** A stored transaction whose own call is a generalized account's, with its stored form (chain/stored-tx.ts). */
export interface GaTransaction {
  readonly height: number;
  readonly microIndex: number;
  readonly txIndex: number;
  readonly hash: string;
  readonly signed: Buffer;
}

const GA_TYPES = ['GAAttachTx', 'GAMetaTx'];
const GA_TX_TYPES = GA_TYPES.map(txTypeCode);

/** gaTransactions lists the GAAttachTx and GAMetaTx of a range, and the PayingForTx paying for one, in chain order. */
export async function gaTransactions(db: Queryable, range: HeightRange): Promise<GaTransaction[]> {
  const { rows } = await db.query<GaTransaction>({
    name: 'mdw_ga_transactions',
    text: `SELECT t.height, t.micro_index AS "microIndex", t.tx_index AS "txIndex", t.hash, t.signed FROM transactions t
            WHERE t.height BETWEEN $1 AND $2 AND (t.height > $1 OR t.micro_index >= $3) AND (t.tx_type = ANY ($4::smallint[]) OR t.tx_type = $5 AND t.inner_type = ANY ($6::text[]))
            ORDER BY t.height, t.micro_index, t.tx_index`,
    values: [range.from, range.to, range.fromMicro, GA_TX_TYPES, txTypeCode('PayingForTx'), GA_TYPES],
  });
  return rows;
}

/** A stored GA call's outcome at its transaction's position (gas and return type null: the node no longer held it). */
export interface GaCallOutcome extends Omit<GaTransaction, 'hash' | 'signed'> {
  readonly gasUsed: string | null;
  readonly returnType: string | null;
}

/** gaCallOutcomes reads the stored GA calls' outcomes of a range (the transfers' fees count their gas). */
export async function gaCallOutcomes(db: Queryable, range: HeightRange): Promise<GaCallOutcome[]> {
  const { rows } = await db.query<GaCallOutcome>({
    name: 'mdw_ga_call_outcomes',
    text: `SELECT height, micro_index AS "microIndex", tx_index AS "txIndex", gas_used::text AS "gasUsed",
                  return_type AS "returnType"
             FROM ga_calls WHERE height BETWEEN $1 AND $2 AND (height > $1 OR micro_index >= $3)`,
    values: [range.from, range.to, range.fromMicro],
  });
  return rows;
}

/** A GA call to store at its transaction's position: its outcome, and a GAAttachTx's function name and arguments. */
export interface GaCallRow extends Omit<GaTransaction, 'hash' | 'signed'> {
  readonly gasUsed: bigint | null;
  readonly returnType: string | null;
  readonly authFunName: string | null;
  readonly args: Json;
}

/** replaceGaCalls stores the calls of a range in place of its rows. */
export async function replaceGaCalls(db: Queryable, range: HeightRange, rows: readonly GaCallRow[]): Promise<void> {
  await db.query({
    name: 'mdw_ga_calls_delete',
    text: 'DELETE FROM ga_calls WHERE height BETWEEN $1 AND $2 AND (height > $1 OR micro_index >= $3)',
    values: [range.from, range.to, range.fromMicro],
  });
  if (rows.length === 0) return;
  await db.query({
    name: 'mdw_ga_calls_insert',
    text: `INSERT INTO ga_calls (height, micro_index, tx_index, gas_used, return_type, auth_fun_name, args)
           SELECT * FROM unnest($1::int[], $2::int[], $3::int[], $4::bigint[], $5::text[], $6::text[], $7::jsonb[])`,
    values: [
      rows.map((r) => r.height),
      rows.map((r) => r.microIndex),
      rows.map((r) => r.txIndex),
      rows.map((r) => r.gasUsed?.toString() ?? null),
      rows.map((r) => r.returnType),
      rows.map((r) => r.authFunName),
      // exact integers: written as JSON text by the chain's own writer, never through JSON.stringify
      rows.map((r) => (r.args === null ? null : stringifyJson(r.args))),
    ],
  });
}
