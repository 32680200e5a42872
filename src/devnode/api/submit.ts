/** @module POST /v2/transactions: a `{"tx": "tx_…"}` body to a mempool entry, with the node's reasons. */
import { decode, DecodeError } from '../../chain/encoding.ts';
import { isJsonObject, type Json } from '../../chain/json.ts';
import type { Chain, TxRecord } from '../chain.ts';
import { HttpError, validationError } from './http.ts';
import { decodeErrorCode } from '../ids.ts';
import { RlpError } from '../../chain/rlp.ts';
import { TxKnown, TxRejected } from '../rules/apply.ts';
import { TxCodecError } from '../tx-codec.ts';

/**
 * submitEncodedTx answers 400 `Invalid api encoding` (with the node's error code) for a string that is not a `tx_`,
 * the node's 400 `already_accepted` for a transaction it holds, and 400 `Invalid tx: <why>` for one the devnode cannot
 * decode or refuses (nonce, signature, fee, "insufficient balance", …), where the real node says only `Invalid tx`
 * with an error code.
 */
export function submitEncodedTx(chain: Chain, body: Json | undefined): TxRecord {
  if (!isJsonObject(body)) throw validationError('body', 'invalid_body', 'expected {"tx": "tx_…"}');
  if (body.tx === undefined) throw validationError('tx', 'missing_required_property');
  if (typeof body.tx !== 'string') throw validationError('tx', 'wrong_type', body.tx);
  let bytes: Uint8Array;
  try {
    bytes = decode(body.tx, ['tx']).bytes;
  } catch {
    const code = decodeErrorCode(body.tx, ['tx']) ?? 'invalid_encoding';
    throw new HttpError(400, 'Invalid api encoding', { error_code: code });
  }
  try {
    return chain.submit(bytes);
  } catch (err) {
    if (err instanceof TxKnown) throw new HttpError(400, 'Invalid tx', { error_code: 'already_accepted' });
    if (
      err instanceof TxRejected ||
      err instanceof TxCodecError ||
      err instanceof RlpError ||
      err instanceof DecodeError
    ) {
      throw new HttpError(400, `Invalid tx: ${err.message}`);
    }
    throw err;
  }
}
