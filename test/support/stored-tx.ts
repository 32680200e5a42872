/** @module Rows of `transactions` written by tests as the populator writes them (chain/stored-tx.ts). */
import type { Json } from '../../src/chain/json.ts';
import { storedTxColumns } from '../../src/chain/stored-tx.ts';

/** The columns storedTxValues fills, in its order. */
export const STORED_TX_COLUMNS = 'signed, size, gas, inner_type, channel_amount';

/** storedTxValues are the values of STORED_TX_COLUMNS for a signed tx (`signatures` null: omitted, as for a GAMetaTx). */
export function storedTxValues(tx: Json, signatures: readonly string[] | null, size?: number): unknown[] {
  const signed: { [key: string]: Json } = { tx };
  if (signatures !== null) signed.signatures = [...signatures];
  const c = storedTxColumns(signed);
  return [Buffer.from(c.signed), size ?? c.size, c.gas, c.innerType, c.channelAmount];
}

/** STORED_TX_JSON_SQL is the stored form of SQL expressions `signatures` (text[]) and `tx` (jsonb): their JSON text. */
export function storedTxJsonSql(signatures: string, tx: string): string {
  return `convert_to(jsonb_build_object('signatures', ${signatures}, 'tx', ${tx})::text, 'UTF8')`;
}
