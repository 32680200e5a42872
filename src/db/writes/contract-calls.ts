/**
 * @module contract_calls (migration 1000) decoded again: the calls of stored heights, read with their transaction and
 * call info, and their decoding written over the stored one (the `calls` area: calls stored undecoded for a reason
 * that passes, and every call after an upgrade that changes the decoded form, migration 1009).
 */
import { stringifyJson, type Json } from '../../chain/json.ts';
import { renderStoredTx } from '../../chain/stored-tx.ts';
import { callInfoSql } from '../queries/call-info.ts';
import type { Queryable } from '../connection/pool.ts';

/** A stored call to decode again: its signed transaction's `tx` object and the node's call info (null when pruned). */
export interface StoredCall {
  readonly height: number;
  readonly txHash: string;
  readonly tx: Json;
  readonly callInfo: Json | null;
}

/** storedCalls lists, in chain order, the calls of heights from..to. */
export async function storedCalls(db: Queryable, from: number, to: number): Promise<StoredCall[]> {
  const { rows } = await db.query<{ height: number; tx_hash: string; signed: Buffer; call_info: Json | null }>(
    `SELECT c.height, c.tx_hash, t.signed, ${callInfoSql('c')} AS call_info
       FROM contract_calls c JOIN transactions t ON t.hash = c.tx_hash AND t.height = c.height
      WHERE c.height BETWEEN $1 AND $2
      ORDER BY c.height, c.micro_index, c.tx_index`,
    [from, to],
  );
  return rows.map((r) => ({
    height: r.height,
    txHash: r.tx_hash,
    tx: renderStoredTx(r.signed).tx,
    callInfo: r.call_info,
  }));
}

/** A call's decoding as contract_calls holds it. */
export interface CallDecoding {
  readonly txHash: string;
  readonly function: string | null;
  readonly arguments: Json;
  readonly result: Json;
  readonly decodeError: string | null;
}

/** json is a value as its jsonb column takes it (big integers exact; null is SQL NULL, as the writer stores it). */
const json = (v: Json): string | null => (v === null ? null : stringifyJson(v));

/** rewriteDecodings writes the calls' decoding over the stored one. */
export async function rewriteDecodings(db: Queryable, calls: readonly CallDecoding[]): Promise<void> {
  if (calls.length === 0) return;
  await db.query(
    `UPDATE contract_calls c
        SET function = d.function, arguments = d.arguments::jsonb, result = d.result::jsonb, decode_error = d.decode_error
       FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::text[])
            AS d(tx_hash, function, arguments, result, decode_error)
      WHERE c.tx_hash = d.tx_hash`,
    [
      calls.map((c) => c.txHash),
      calls.map((c) => c.function),
      calls.map((c) => json(c.arguments)),
      calls.map((c) => json(c.result)),
      calls.map((c) => c.decodeError),
    ],
  );
}
