/**
 * @module The node's mempool, read from its internal API: the one reader of it, for the websocket's tx_update and
 * /v3's pending transactions.
 */
import { parseJson, type Json } from '../chain/json.ts';
import { badResponse, isRefusalStatus, noAnswer } from './errors.ts';
import { httpGet } from './http-get.ts';
import type { OutboundMetrics } from './outbound-metrics.ts';

/** Path of the node's full mempool listing, served on the internal port only. */
export const PENDING_PATH = '/v2/debug/transactions/pending';

/**
 * readMempool asks the node at `internalUrl` for its pending list: the status, and the JSON answer when the status
 * is 2xx. Rejects with the node's NodeError (errors.ts: unreachable, or timed out after `timeoutMs`) when it does not
 * answer, or refuses for load (503, 429: MDW_NODE_BUSY, never read as an empty mempool). `metrics` counts the request.
 */
export async function readMempool(
  internalUrl: string,
  timeoutMs: number,
  metrics?: OutboundMetrics,
): Promise<{ status: number; body: Json | undefined }> {
  let answer: { status: number; text: string; retryAfter?: string };
  try {
    answer = await httpGet(new URL(`${internalUrl}${PENDING_PATH}`), timeoutMs, {
      meter: metrics?.meter('node', 'mempool'),
    });
  } catch (err) {
    throw noAnswer(PENDING_PATH, err, timeoutMs);
  }
  const { status, text, retryAfter } = answer;
  if (isRefusalStatus(status))
    throw badResponse(PENDING_PATH, `node refused ${PENDING_PATH}: ${status}`, status, retryAfter);
  return { status, body: status >= 200 && status <= 299 ? parseJson(text) : undefined };
}
