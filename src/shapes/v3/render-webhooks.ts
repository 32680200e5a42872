/**
 * @module A hook and a delivery as the webhooks API (`GET /mdw/v3/webhooks/{id}`, `…/deliveries`) and `mdw webhooks
 * show` print them (docs/webhooks.md, "The API"): never the secret. Pure.
 */
import type { Json } from '../../chain/json.ts';
import type { DeliveryRow, WebhookRow } from '../../db/queries/webhooks.ts';
import type { ShapeValue } from '../shape-table.ts';
import type { WEBHOOK, WEBHOOK_DELIVERY } from './shapes-webhooks.ts';

/** renderWebhook is a hook as the API shows its owner. */
export function renderWebhook(h: WebhookRow): ShapeValue<typeof WEBHOOK> {
  return {
    id: h.id,
    url: h.url,
    // stored as the API took them: a list of 1 to 100 filters
    filters: h.filters as Json[],
    confirmations: h.confirmations,
    created_height: h.createdHeight,
    created_at: h.createdAt.toISOString(),
    enabled: h.disabledReason === null,
    disabled_reason: h.disabledReason,
    next_attempt_at: h.nextAttemptAt.toISOString(),
    pending: h.pending,
    previous_secret_until: h.previousSecretUntil?.toISOString() ?? null,
  } satisfies ShapeValue<typeof WEBHOOK>;
}

/** renderDelivery is a delivery as `GET …/deliveries` lists it: a reorg's with the ids it invalidated. */
export function renderDelivery(d: DeliveryRow): ShapeValue<typeof WEBHOOK_DELIVERY> {
  return {
    id: d.deliveryId,
    type: d.type,
    height: d.height,
    micro_index: d.type === 'reorg' ? null : d.microIndex,
    block_hash: d.blockHash,
    tx_hash: d.txHash,
    ...(d.type === 'reorg' ? { invalidated: d.invalidated ?? [] } : {}),
    status: d.status,
    attempts: d.attempts,
    last_error: d.lastError,
    last_attempt_at: d.lastAttemptAt?.toISOString() ?? null,
    sent_at: d.sentAt?.toISOString() ?? null,
  } satisfies ShapeValue<typeof WEBHOOK_DELIVERY>;
}
