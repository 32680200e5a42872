/**
 * @module The webhooks API's entries of the /v3 OpenAPI document (`/mdw/v3/webhooks`, docs/webhooks.md), and the
 * bounds both the document and the API (../webhooks-api.ts) hold to. Pure.
 */

/** The deepest confirmation depth a hook may ask: deeper than any fork the populator follows makes no sense. */
export const MAX_CONFIRMATIONS = 1000;
/** a page of deliveries: the default and the most */
export const DELIVERY_LIMITS = { default: 10, max: 100 } as const;

const int = { type: 'integer' } as const;
const str = { type: 'string' } as const;
const time = { type: 'string', format: 'date-time' } as const;
const nullable = (schema: object): object => ({ ...schema, nullable: true });
const error = (description: string) => ({
  description,
  content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } },
});
const json = (description: string, schema: object) => ({ description, content: { 'application/json': { schema } } });
const body = (schema: object) => ({ required: true, content: { 'application/json': { schema } } });
const object = (properties: Record<string, object>, required = Object.keys(properties)) => ({
  type: 'object',
  required,
  properties,
});
const idParam = { name: 'id', in: 'path', required: true, schema: str };

/** a filter as given (docs/webhooks.md, "Filters"); the API checks each in full and says what is wrong */
const FILTERS = { type: 'array', minItems: 1, maxItems: 100, items: { type: 'object' } };
const HOOK = object({
  id: str,
  url: str,
  filters: FILTERS,
  confirmations: int,
  created_height: int,
  created_at: time,
  enabled: { type: 'boolean' },
  disabled_reason: nullable(str),
  next_attempt_at: time,
  pending: int,
});
const DELIVERY = object(
  {
    id: str,
    type: { type: 'string', enum: ['transaction', 'reorg'] },
    height: int,
    micro_index: nullable(int),
    block_hash: nullable(str),
    tx_hash: nullable(str),
    invalidated: { type: 'array', items: str },
    status: { type: 'string', enum: ['pending', 'sent', 'failed'] },
    attempts: int,
    last_error: nullable(str),
    last_attempt_at: nullable(time),
    sent_at: nullable(time),
  },
  ['id', 'type', 'height', 'status', 'attempts'],
);
/** the API answers 404 to a request without a key unless the operator allows keyless hooks */
const NOT_FOUND = error('No such hook of this key, or webhooks need an API key here');

/** webhooksPaths are the document's entries of the webhooks API, relative to /v3 as the document's other paths. */
export function webhooksPaths(): Record<string, Record<string, unknown>> {
  return {
    '/webhooks': {
      get: {
        operationId: 'GetWebhooks',
        summary: "The key's hooks, oldest first",
        responses: { '200': json('OK', object({ data: { type: 'array', items: HOOK } })), '404': NOT_FOUND },
      },
      post: {
        operationId: 'CreateWebhook',
        summary: 'Creates a hook; its secret (the HMAC key of Mdw-Signature) is shown this once',
        requestBody: body(
          object(
            {
              url: str,
              filters: FILTERS,
              confirmations: { ...int, minimum: 0, maximum: MAX_CONFIRMATIONS, default: 0 },
            },
            ['url', 'filters'],
          ),
        ),
        responses: {
          '201': json(
            'Created',
            object({ id: str, secret: str, url: str, filters: FILTERS, confirmations: int, created_height: int }),
          ),
          '400': error('Bad input'),
          '404': NOT_FOUND,
        },
      },
    },
    '/webhooks/{id}': {
      get: {
        operationId: 'GetWebhook',
        summary: 'A hook',
        parameters: [idParam],
        responses: { '200': json('OK', HOOK), '404': NOT_FOUND },
      },
      delete: {
        operationId: 'DeleteWebhook',
        summary: 'Deletes a hook with its deliveries',
        parameters: [idParam],
        responses: { '204': { description: 'Deleted' }, '404': NOT_FOUND },
      },
    },
    '/webhooks/{id}/deliveries': {
      get: {
        operationId: 'GetWebhookDeliveries',
        summary: "A hook's deliveries, newest first",
        parameters: [
          idParam,
          { name: 'cursor', in: 'query', required: false, schema: str },
          {
            name: 'limit',
            in: 'query',
            required: false,
            schema: { ...int, minimum: 1, maximum: DELIVERY_LIMITS.max, default: DELIVERY_LIMITS.default },
          },
        ],
        responses: {
          '200': json('OK', object({ data: { type: 'array', items: DELIVERY }, next: nullable(str) })),
          '400': error('Bad input'),
          '404': NOT_FOUND,
        },
      },
    },
    '/webhooks/{id}/replay': {
      post: {
        operationId: 'ReplayWebhook',
        summary: "Writes a hook's deliveries from a height again, sent in order before the rest",
        parameters: [idParam],
        requestBody: body(object({ from_height: { ...int, minimum: 0 } })),
        responses: {
          '202': json('Accepted', object({ from_height: int, to_height: int, deliveries: int })),
          '400': error('Bad input'),
          '404': NOT_FOUND,
        },
      },
    },
  };
}
