/**
 * @module The body of one delivery (docs/webhooks.md, "Deliveries"): `{id, type, height, block_hash, micro_index,
 * tx_hash, confirmations, data}`, its `data` in /mdw/v3's shapes; and a hook's test event, a `ping`. Pure: the sender
 * reads the rows and renders here.
 */
import { stringifyJson } from '../chain/json.ts';
import type { QueuedDelivery } from '../db/writes/webhook-queue.ts';

/**
 * deliveryBody is the JSON text sent for `d`, `top` the stored top (its confirmations: the key blocks above its
 * height), `data` the JSON text of its /v3 object (deliveryData; ignored for a reorg).
 */
export function deliveryBody(d: QueuedDelivery, top: number, data: string | undefined): string {
  const head = {
    id: d.deliveryId,
    type: d.type,
    height: d.height,
    block_hash: d.blockHash,
    micro_index: d.type === 'reorg' ? null : d.microIndex,
    tx_hash: d.txHash,
    confirmations: d.type === 'reorg' ? null : Math.max(0, top - d.height),
  };
  const json = stringifyJson(head);
  const payload = d.type === 'reorg' ? stringifyJson({ invalidated: d.invalidated ?? [] }) : (data ?? 'null');
  return `${json.slice(0, -1)},"data":${payload}}`;
}

/**
 * pingBody is the JSON text of a hook's test event (`POST …/webhooks/{id}/test`): a delivery's fields, `type` `ping`,
 * `height` the stored top, no block, and `data` naming the hook.
 */
export function pingBody(id: string, webhookId: string, top: number): string {
  return stringifyJson({
    id,
    type: 'ping',
    height: top,
    block_hash: null,
    micro_index: null,
    tx_hash: null,
    confirmations: null,
    data: { webhook_id: webhookId },
  });
}
