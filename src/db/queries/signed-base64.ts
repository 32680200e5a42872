/**
 * @module How pages of transactions read `transactions.signed` (chain/stored-tx.ts): as base64 text, and for a page
 * that writes `encoded_tx`, as the base64 of the bytes followed by their API checksum (the first 4 bytes of
 * SHA-256(SHA-256(bytes))), which is a binary form's `encoded_tx` but for its `tx_` prefix. For a transaction of 175
 * bytes pg's client took 3.7 µs a row to read a bytea's hex and decode it, against 0.6 µs for base64 text and 0.5 to
 * decode that (PostgreSQL writes it in 0.8 µs against 2.0); the checksum costs PostgreSQL, whose SHA-256 is native,
 * 1 µs a row and JavaScript 5.
 */
import { encodedStoredTx, isBinary } from '../../chain/stored-tx.ts';

/** signedBase64Sql is the stored form of the `transactions` row `alias` as base64 (encode breaks its lines). */
export function signedBase64Sql(alias: string): string {
  return `encode(${alias}.signed, 'base64')`;
}

/** checkedSignedBase64Sql is the stored form of the `transactions` row `alias` and its checksum, as base64. */
export function checkedSignedBase64Sql(alias: string): string {
  return `encode(${alias}.signed || substr(sha256(sha256(${alias}.signed)), 1, 4), 'base64')`;
}

/** signedOfBase64 is the stored form read as signedBase64Sql writes it. */
export function signedOfBase64(text: string): Buffer {
  return Buffer.from(text, 'base64');
}

/**
 * checkedSignedOfBase64 is the stored form read as checkedSignedBase64Sql writes it, and its `encoded_tx`: a binary
 * form's is the text itself; a transaction stored as JSON (whose bytes are no signed transaction's) has the node's
 * kept with it, or none (null).
 */
export function checkedSignedOfBase64(text: string): { signed: Buffer; encoded: string | null } {
  const checked = Buffer.from(text, 'base64');
  const signed = checked.subarray(0, checked.length - 4);
  return { signed, encoded: isBinary(signed) ? `tx_${text.replaceAll('\n', '')}` : encodedStoredTx(signed) };
}
