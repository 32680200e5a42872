/**
 * @module The node's mempool, read from its internal API: the one reader of it, for the websocket's tx_update and
 * /v3's pending transactions.
 */
import { parseJson, type Json } from '../chain/json.ts';
import { httpGet } from './http-get.ts';

/** Path of the node's full mempool listing, served on the internal port only. */
export const PENDING_PATH = '/v2/debug/transactions/pending';

/**
 * readMempool asks the node at `internalUrl` for its pending list: the status, and the JSON answer when the status
 * is 2xx. Rejects with an HttpGetError when the node does not answer within `timeoutMs`.
 */
export async function readMempool(
  internalUrl: string,
  timeoutMs: number,
): Promise<{ status: number; body: Json | undefined }> {
  const { status, text } = await httpGet(new URL(`${internalUrl}${PENDING_PATH}`), timeoutMs);
  return { status, body: status >= 200 && status <= 299 ? parseJson(text) : undefined };
}
