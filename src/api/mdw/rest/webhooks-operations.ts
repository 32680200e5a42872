/**
 * @module `/mdw/v3/webhooks` (docs/webhooks.md) as rows of the route table: create a hook (its secret shown once),
 * list, read and delete an owner's hooks, page a hook's deliveries, replay from a height; each row its handler and its
 * /v3/api entry. A hook belongs to the request's API key; without one (keys off) the API answers only when
 * WEBHOOKS_ANONYMOUS is set, its hooks owned by no one. Hooks are written, so they are read and written on the primary.
 */
import { randomUUID } from 'node:crypto';
import { AppError, ErrorCode, badRequest, notFound } from '../../../base/errors.ts';
import {
  deliveriesPage,
  listWebhooks,
  storedTop,
  webhookOf,
  type DeliveryCursor,
  type DeliveryRow,
  type WebhookRow,
} from '../../../db/queries/webhooks.ts';
import { replayDeliveries } from '../../../db/writes/webhook-deliveries.ts';
import { createWebhook, deleteWebhook } from '../../../db/writes/webhooks.ts';
import { withTransaction } from '../../../db/connection/pool.ts';
import { parseFilters } from '../../../webhooks/filters.ts';
import { checkedUrl } from '../../../webhooks/outbound.ts';
import { newSecret } from '../../../webhooks/signature.ts';
import type { ApiContext } from '../../http/state.ts';
import { LIMITS } from '../resources/mdw-params.ts';
import type { V3Env } from '../resources/resource.ts';
import { jsonBody } from './json-body.ts';
import type { V3Handled } from './operation.ts';

/** The deepest confirmation depth a hook may ask: deeper than any fork the populator follows makes no sense. */
const MAX_CONFIRMATIONS = 1000;
const body = jsonBody('64kb');

const int = { type: 'integer' } as const;
const str = { type: 'string' } as const;
const time = { type: 'string', format: 'date-time' } as const;
const nullable = (schema: object): object => ({ ...schema, nullable: true });
const error = (description: string) => ({
  description,
  content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } },
});
const json = (description: string, schema: object) => ({ description, content: { 'application/json': { schema } } });
const object = (properties: Record<string, object>, required = Object.keys(properties)) => ({
  type: 'object',
  required,
  properties,
});

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
const NOT_FOUND = error('No such hook of this key');
/** a request without a key is 401 unless the operator allows keyless hooks, as one with an unknown key is */
const NO_KEY = error('Webhooks need an API key (X-API-Key) on this server');

/** WEBHOOKS_OPERATIONS: the webhooks API's rows of the route table. */
export const WEBHOOKS_OPERATIONS: readonly V3Handled[] = [
  {
    path: '/webhooks',
    operationId: 'GetWebhooks',
    summary: "The key's hooks, oldest first",
    params: [],
    responses: { '200': json('OK', object({ data: { type: 'array', items: HOOK } })), '401': NO_KEY, '404': NOT_FOUND },
    handle: async (ctx, env) => {
      ctx.body = { data: (await listWebhooks(env.primary, ownerOf(ctx, env))).map(hookJson) };
    },
  },
  {
    method: 'POST',
    path: '/webhooks',
    operationId: 'CreateWebhook',
    summary: 'Creates a hook; its secret (the HMAC key of Mdw-Signature) is shown this once',
    params: [],
    body: object(
      { url: str, filters: FILTERS, confirmations: { ...int, minimum: 0, maximum: MAX_CONFIRMATIONS, default: 0 } },
      ['url', 'filters'],
    ),
    responses: {
      '201': json(
        'Created',
        object({ id: str, secret: str, url: str, filters: FILTERS, confirmations: int, created_height: int }),
      ),
      '400': error('Bad input'),
      '401': NO_KEY,
      '404': NOT_FOUND,
    },
    handle: (ctx, env) => {
      const owner = ownerOf(ctx, env);
      return body(ctx, () => create(ctx, env, owner));
    },
  },
  {
    path: '/webhooks/{id}',
    operationId: 'GetWebhook',
    summary: 'A hook',
    params: ['path:id'],
    responses: { '200': json('OK', HOOK), '401': NO_KEY, '404': NOT_FOUND },
    handle: async (ctx, env, { id }) => {
      ctx.body = hookJson(await hookOf(ctx, env, id!));
    },
  },
  {
    method: 'DELETE',
    path: '/webhooks/{id}',
    operationId: 'DeleteWebhook',
    summary: 'Deletes a hook with its deliveries',
    params: ['path:id'],
    responses: { '204': { description: 'Deleted' }, '401': NO_KEY, '404': NOT_FOUND },
    handle: async (ctx, env, { id }) => {
      if (!(await deleteWebhook(env.primary, id!, ownerOf(ctx, env)))) throw notFound(`no such webhook: ${id}`);
      ctx.status = 204;
    },
  },
  {
    path: '/webhooks/{id}/deliveries',
    operationId: 'GetWebhookDeliveries',
    summary: "A hook's deliveries, newest first",
    params: ['path:id', 'cursor', 'limit'],
    responses: {
      '200': json('OK', object({ data: { type: 'array', items: DELIVERY }, next: nullable(str) })),
      '400': error('Bad input'),
      '401': NO_KEY,
      '404': NOT_FOUND,
    },
    handle: async (ctx, env, { id }) => deliveries(ctx, env, await hookOf(ctx, env, id!)),
  },
  {
    method: 'POST',
    path: '/webhooks/{id}/replay',
    operationId: 'ReplayWebhook',
    summary: "Writes a hook's deliveries from a height again, sent in order before the rest",
    params: ['path:id'],
    body: object({ from_height: { ...int, minimum: 0 } }),
    responses: {
      '202': json('Accepted', object({ from_height: int, to_height: int, deliveries: int })),
      '400': error('Bad input'),
      '401': NO_KEY,
      '404': NOT_FOUND,
    },
    handle: async (ctx, env, { id }) => {
      const hook = await hookOf(ctx, env, id!);
      return body(ctx, () => replay(ctx, env, hook));
    },
  },
];

function ownerOf(ctx: ApiContext, env: V3Env): string | null {
  const key = ctx.state.apiKey;
  if (key !== undefined) return key.id;
  if (env.cfg.webhooks.anonymous) return null;
  throw new AppError(
    ErrorCode.API_KEY_REQUIRED,
    401,
    'webhooks need an API key (X-API-Key) on this server; without keys, the operator enables them with WEBHOOKS_ANONYMOUS',
  );
}

async function create(ctx: ApiContext, env: V3Env, owner: string | null): Promise<void> {
  const req = (ctx.request as { body?: unknown }).body;
  if (typeof req !== 'object' || req === null || Array.isArray(req)) throw badRequest('expected a JSON object');
  const { url, filters, confirmations = 0, ...rest } = req as Record<string, unknown>;
  if (Object.keys(rest).length > 0) throw badRequest(`unknown field(s): ${Object.keys(rest).join(', ')}`);
  if (typeof url !== 'string') throw badRequest('url: expected a string');
  const checked = checkedUrl(url);
  if (typeof checked === 'string') throw badRequest(`url: ${checked}`);
  const keys = parseFilters(filters);
  if (
    !Number.isSafeInteger(confirmations) ||
    (confirmations as number) < 0 ||
    (confirmations as number) > MAX_CONFIRMATIONS
  )
    throw badRequest(`confirmations: expected an integer from 0 to ${MAX_CONFIRMATIONS}`);
  const id = `wh_${randomUUID()}`;
  const secret = newSecret();
  const createdHeight = await createWebhook(env.primary, {
    id,
    owner,
    url: checked.href,
    filters,
    confirmations: confirmations as number,
    secret,
    keys,
  });
  ctx.status = 201;
  ctx.body = { id, secret, url: checked.href, filters, confirmations, created_height: createdHeight };
}

async function deliveries(ctx: ApiContext, env: V3Env, hook: WebhookRow): Promise<void> {
  const limit = ctx.query.limit === undefined ? LIMITS.default : Number(ctx.query.limit);
  if (!Number.isSafeInteger(limit) || limit < 1 || limit > LIMITS.max)
    throw badRequest(`limit: expected an integer from 1 to ${LIMITS.max}`);
  const cursor = ctx.query.cursor === undefined ? undefined : parseCursor(ctx.query.cursor);
  const rows = await deliveriesPage(env.primary, hook.id, cursor, limit + 1);
  const page = rows.slice(0, limit);
  const last = page.at(-1);
  ctx.body = {
    data: page.map(deliveryJson),
    next:
      rows.length > limit && last
        ? `/mdw/v3/webhooks/${hook.id}/deliveries?cursor=${cursorText(last)}&limit=${limit}`
        : null,
  };
}

async function replay(ctx: ApiContext, env: V3Env, hook: WebhookRow): Promise<void> {
  const maxHeights = env.cfg.webhooks.maxReplayHeights;
  const from = ((ctx.request as { body?: unknown }).body as { from_height?: unknown } | undefined)?.from_height;
  const top = await storedTop(env.primary);
  if (!Number.isSafeInteger(from) || (from as number) < 0) throw badRequest('from_height: expected a height');
  if ((from as number) > top) throw badRequest(`from_height above the top (${top}): ${from as number}`);
  if (top - (from as number) >= maxHeights)
    throw badRequest(`from_height further back than ${maxHeights} heights from the top (${top}): ${from as number}`);
  const rows = await withTransaction(env.primary, (db) => replayDeliveries(db, hook.id, from as number, top));
  ctx.status = 202;
  ctx.body = { from_height: from, to_height: top, deliveries: rows };
}

/** hookOf is the request's owner's hook `id`, or a 404. */
async function hookOf(ctx: ApiContext, env: V3Env, id: string): Promise<WebhookRow> {
  const hook = await webhookOf(env.primary, id, ownerOf(ctx, env));
  if (hook === undefined) throw notFound(`no such webhook: ${id}`);
  return hook;
}

function hookJson(h: WebhookRow): Record<string, unknown> {
  return {
    id: h.id,
    url: h.url,
    filters: h.filters,
    confirmations: h.confirmations,
    created_height: h.createdHeight,
    created_at: h.createdAt.toISOString(),
    enabled: h.disabledReason === null,
    disabled_reason: h.disabledReason,
    next_attempt_at: h.nextAttemptAt.toISOString(),
    pending: h.pending,
  };
}

function deliveryJson(d: DeliveryRow): Record<string, unknown> {
  return {
    id: d.deliveryId,
    type: d.type,
    height: d.height,
    micro_index: d.type === 'reorg' ? null : d.microIndex,
    block_hash: d.blockHash,
    tx_hash: d.txHash,
    ...(d.type === 'reorg' ? { invalidated: d.invalidated } : {}),
    status: d.status,
    attempts: d.attempts,
    last_error: d.lastError,
    last_attempt_at: d.lastAttemptAt?.toISOString() ?? null,
    sent_at: d.sentAt?.toISOString() ?? null,
  };
}

function cursorText(c: DeliveryCursor): string {
  return [c.height, c.rank, c.microIndex, c.txIndex, c.seq].join('-');
}

function parseCursor(value: string | string[]): DeliveryCursor {
  const parts = typeof value === 'string' ? value.split('-') : [];
  if (parts.length !== 5 || !parts.every((p) => /^\d{1,18}$/.test(p)))
    throw badRequest(`invalid cursor: ${String(value)}`);
  const [height, rank, microIndex, txIndex] = parts.map(Number) as [number, number, number, number];
  if (![height, rank, microIndex, txIndex].every((n) => n <= 2 ** 31 - 1)) throw badRequest(`invalid cursor: ${value}`);
  return { height, rank, microIndex, txIndex, seq: parts[4]! };
}
