/**
 * @module The node's GenericSignedTx, defined once: its keys in the node's order and the GAMetaTx
 * rule (`signatures` omitted). The API and the websocket build it here; db/queries/transactions.ts
 * builds its SQL twin from the same keys. Pure.
 */
import type { Json } from './json.ts';

/**
 * The keys in the order the node prints them (its JSON objects are Erlang maps, printed in key order), but for the
 * `encoded_tx` of a 7.x node (nodeSignedTx), which the original middleware's answers never had.
 */
export const SIGNED_TX_KEYS = ['block_hash', 'block_height', 'hash', 'signatures', 'tx'] as const;
export type SignedTxKey = (typeof SIGNED_TX_KEYS)[number];

/** A mined transaction as stored: what GenericSignedTx is made of. */
export interface MinedTx {
  readonly hash: string;
  readonly height: number;
  readonly microBlockHash: string;
  /** null for a GAMetaTx, which the node prints without signatures */
  readonly signatures: readonly string[] | null;
  readonly tx: Json;
}

/** signedTx is the node's GenericSignedTx (the original middleware's "JT") of a mined transaction. */
export function signedTx(t: MinedTx): Record<string, Json> {
  const values: Record<SignedTxKey, Json> = {
    block_hash: t.microBlockHash,
    block_height: t.height,
    hash: t.hash,
    signatures: t.signatures === null ? null : [...t.signatures],
    tx: t.tx,
  };
  const out: Record<string, Json> = {};
  for (const key of SIGNED_TX_KEYS) if (key !== 'signatures' || t.signatures !== null) out[key] = values[key];
  return out;
}

/**
 * nodeSignedTx is the GenericSignedTx a 7.x node serves: signedTx with `encoded_tx`, the signed transaction as `tx_…`,
 * in its place among the keys in order; without it where it is unknown (null: a transaction stored as the JSON of a
 * node that did not send it).
 */
export function nodeSignedTx(t: MinedTx, encodedTx: string | null): Record<string, Json> {
  const signed = signedTx(t);
  if (encodedTx === null) return signed;
  const out: Record<string, Json> = {};
  for (const [key, value] of Object.entries({ ...signed, encoded_tx: encodedTx }).sort(([a], [b]) => (a < b ? -1 : 1)))
    out[key] = value;
  return out;
}
