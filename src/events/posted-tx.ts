/**
 * @module A transaction a client posted through our forwarding of `POST /v2/transactions`, as tx_update reports a
 * pending one: the node's GenericSignedTx with `block_hash` "none" and `block_height` −1, as its mempool lists it
 * (`encoded_tx` included, `signatures` omitted for a GAMetaTx, keys in order).
 */
import { decode, encode } from '../chain/encoding.ts';
import { isJsonObject, parseJson, stringifyJson } from '../chain/json.ts';
import { nodeSignedTx } from '../chain/signed-tx.ts';
import { renderStoredTx } from '../chain/stored-tx.ts';
import { txHash } from '../chain/tx-serialize.ts';

/** A posted transaction: its hash and its pending GenericSignedTx, serialised. */
export interface PostedTx {
  readonly hash: string;
  readonly json: string;
}

/**
 * postedTx reads the body of a `POST /v2/transactions` the node accepted (`{"tx": "tx_…"}`). It returns undefined
 * for a body it cannot read (the node accepted it, so this is a transaction type the codec does not know).
 */
export function postedTx(body: string): PostedTx | undefined {
  try {
    const parsed = parseJson(body);
    if (!isJsonObject(parsed) || typeof parsed.tx !== 'string') return undefined;
    const signed = decode(parsed.tx, ['tx']).bytes;
    // the signed bytes are a stored transaction's binary form: rendered as the node prints them
    const { signatures, tx } = renderStoredTx(signed);
    const hash = txHash(signed);
    const json = stringifyJson(
      nodeSignedTx({ hash, height: -1, microBlockHash: 'none', signatures, tx }, encode('tx', signed)),
    );
    return { hash, json };
  } catch {
    return undefined;
  }
}
