/**
 * @module The shape tables of the webhooks API (docs/webhooks.md, "The API"): a hook as its owner sees it (never its
 * secret), what a create, a rotation, a test ping and a replay answer, a delivery as its hook's list shows it, and the
 * bodies the API reads. REST only: GraphQL has no webhooks.
 */
import type { QueuedDelivery } from '../../db/writes/webhook-queue.ts';
import { bool, int, list, nullable, optional, shape, str, type Field } from '../shape-table.ts';

/** The deepest confirmation depth a hook may ask: deeper than any fork the populator follows makes no sense. */
export const MAX_CONFIRMATIONS = 1000;

/** Each type of delivery the queue holds, once: a type the queue gains and this table lacks does not compile. */
const DELIVERY_TYPE_SET = {
  transaction: true,
  contract_log: true,
  aex9_transfer: true,
  aex141_transfer: true,
  reorg: true,
} as const satisfies Record<QueuedDelivery['type'], true>;

/** DELIVERY_TYPES: the types a delivery has (webhook-queue.ts), as the API documents them. */
export const DELIVERY_TYPES: readonly QueuedDelivery['type'][] = Object.keys(
  DELIVERY_TYPE_SET,
) as QueuedDelivery['type'][];

const time = { kind: 'string', schema: { type: 'string', format: 'date-time' } } as const satisfies Field;
/** a hook's filters as given (docs/webhooks.md, "Filters"); the API checks each in full and says what is wrong */
const filters = {
  kind: 'array',
  schema: { type: 'array', minItems: 1, maxItems: 100, items: { type: 'object' } },
} as const satisfies Field;
const confirmations = {
  kind: 'integer',
  schema: { type: 'integer', minimum: 0, maximum: MAX_CONFIRMATIONS },
} as const satisfies Field;
const hookId = { kind: 'string', pattern: '^wh_' } as const satisfies Field;

export const WEBHOOK = shape(
  { openapi: 'Webhook' },
  {
    id: hookId,
    url: str,
    filters,
    confirmations: int,
    created_height: int,
    created_at: time,
    enabled: bool,
    disabled_reason: nullable(str),
    next_attempt_at: time,
    pending: int,
    previous_secret_until: nullable(time),
  },
);

/** the key's hooks, oldest first: a list, never paged (a key has few) */
export const WEBHOOKS = shape({ openapi: 'Webhooks' }, { data: list({ kind: 'object', schema: ref('Webhook') }) });

/** a created hook, with its secret (`whsec_…`) shown this once */
export const CREATED_WEBHOOK = shape(
  { openapi: 'CreatedWebhook' },
  { id: hookId, secret: str, url: str, filters, confirmations: int, created_height: int },
);

/** a rotation's new secret, shown this once, and until when the one it replaced signs beside it */
export const ROTATED_SECRET = shape(
  { openapi: 'RotatedWebhookSecret' },
  { id: hookId, secret: str, previous_secret_until: time },
);

/** what came of a test ping: the receiver's status (none when it did not answer), ok for a 2xx */
export const WEBHOOK_PING = shape(
  { openapi: 'WebhookPing' },
  { id: str, ok: bool, status: nullable(int), error: nullable(str) },
);

/** a replay: the heights written again and how many deliveries they made */
export const WEBHOOK_REPLAY = shape(
  { openapi: 'WebhookReplay' },
  { from_height: int, to_height: int, deliveries: int },
);

/** a delivery as its hook's list shows it: a reorg has no place in a block but the ids it invalidated */
export const WEBHOOK_DELIVERY = shape(
  { openapi: 'WebhookDelivery' },
  {
    id: str,
    type: { kind: 'string', enum: DELIVERY_TYPES },
    height: int,
    micro_index: nullable(int),
    block_hash: nullable(str),
    tx_hash: nullable(str),
    invalidated: optional(list(str)),
    status: { kind: 'string', enum: ['pending', 'sent', 'failed'] },
    attempts: int,
    last_error: nullable(str),
    last_attempt_at: nullable(time),
    sent_at: nullable(time),
  },
);

/** POST /webhooks' body: a url and filters; no other key */
export const NEW_WEBHOOK = shape(
  { openapi: 'NewWebhook', closed: true },
  {
    url: str,
    filters,
    confirmations: optional({ kind: 'integer', schema: { ...confirmations.schema, default: 0 } }),
  },
);

/** PATCH /webhooks/{id}'s body: any of a hook's url, filters, confirmations and enabled; no other key */
export const WEBHOOK_CHANGE = shape(
  { openapi: 'WebhookChange', closed: true },
  {
    url: optional(str),
    filters: optional(filters),
    confirmations: optional(confirmations),
    enabled: optional(bool),
  },
);

/** POST /webhooks/{id}/replay's body: the height from which the deliveries are written again */
export const REPLAY_FROM = shape(
  { openapi: 'WebhookReplayFrom' },
  { from_height: { kind: 'integer', schema: { type: 'integer', minimum: 0 } } },
);

function ref(name: string): Readonly<Record<string, unknown>> {
  return { $ref: `#/components/schemas/${name}` };
}
