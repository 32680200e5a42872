/**
 * @module `/mdw/v3/webhooks` (docs/webhooks.md) as rows of the route table: create a hook (its secret shown once),
 * list, read, change and delete an owner's hooks, rotate a hook's secret, send it a test event, page its deliveries,
 * replay from a height; each row its handler and its /v3/api entry. A hook belongs to the request's API key; without one (keys off) the API answers only when
 * WEBHOOKS_ANONYMOUS is set, its hooks owned by no one. Hooks are written, so they are read and written on the primary.
 */
import { randomUUID } from 'node:crypto';
import { AppError, ErrorCode, badRequest, notFound } from '../../../base/errors.ts';
import {
  deliveriesPage,
  listWebhooks,
  signingSecrets,
  storedTop,
  webhookOf,
  type DeliveryCursor,
  type WebhookRow,
} from '../../../db/queries/webhooks.ts';
import { replayDeliveries } from '../../../db/writes/webhook-deliveries.ts';
import {
  createWebhook,
  deleteWebhook,
  endPreviousSecret,
  rotateSecret,
  updateWebhook,
  type WebhookChange,
} from '../../../db/writes/webhooks.ts';
import { withTransaction } from '../../../db/connection/pool.ts';
import { pingBody } from '../../../webhooks/delivery-body.ts';
import { parseFilters } from '../../../webhooks/filters.ts';
import { deliveryJson, hookJson } from '../../../webhooks/hook-json.ts';
import { checkedUrl, postDelivery, Receivers } from '../../../webhooks/outbound.ts';
import { deliveryHeaders, newSecret } from '../../../webhooks/signature.ts';
import type { ApiContext } from '../../http/state.ts';
import { LIMITS } from '../resources/mdw-params.ts';
import type { V3Env } from '../resources/resource.ts';
import { jsonBody } from './json-body.ts';
import type { V3Handled } from './operation.ts';

/** The deepest confirmation depth a hook may ask: deeper than any fork the populator follows makes no sense. */
const MAX_CONFIRMATIONS = 1000;
/** How long the secret a rotation replaced still signs, unless its owner ends it sooner: a day to deploy the new one. */
const PREVIOUS_SECRET_MS = 86_400_000;
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
  previous_secret_until: nullable(time),
});
const CONFIRMATIONS = { ...int, minimum: 0, maximum: MAX_CONFIRMATIONS };
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
    summary: "Creates a hook; its secret (whsec_…, the key of its deliveries' signatures) is shown this once",
    params: [],
    body: object({ url: str, filters: FILTERS, confirmations: { ...CONFIRMATIONS, default: 0 } }, ['url', 'filters']),
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
    method: 'PATCH',
    path: '/webhooks/{id}',
    operationId: 'UpdateWebhook',
    summary: "Changes a hook's url, filters, confirmations or enabled (true: sent again from its next delivery)",
    params: ['path:id'],
    body: object({ url: str, filters: FILTERS, confirmations: CONFIRMATIONS, enabled: { type: 'boolean' } }, []),
    responses: { '200': json('OK', HOOK), '400': error('Bad input'), '401': NO_KEY, '404': NOT_FOUND },
    handle: (ctx, env, { id }) => {
      const owner = ownerOf(ctx, env);
      return body(ctx, () => update(ctx, env, owner, id!));
    },
  },
  {
    method: 'POST',
    path: '/webhooks/{id}/rotate-secret',
    operationId: 'RotateWebhookSecret',
    summary: 'Gives a hook a new secret, shown this once; the one it replaces signs beside it for 24 h',
    params: ['path:id'],
    responses: {
      '200': json('OK', object({ id: str, secret: str, previous_secret_until: time })),
      '401': NO_KEY,
      '404': NOT_FOUND,
    },
    handle: async (ctx, env, { id }) => {
      const secret = newSecret();
      const until = await rotateSecret(env.primary, id!, ownerOf(ctx, env), secret, PREVIOUS_SECRET_MS);
      if (until === undefined) throw notFound(`no such webhook: ${id}`);
      ctx.body = { id, secret, previous_secret_until: until.toISOString() };
    },
  },
  {
    method: 'DELETE',
    path: '/webhooks/{id}/previous-secret',
    operationId: 'EndWebhookPreviousSecret',
    summary: 'Ends a rotation now: the secret it replaced signs nothing more',
    params: ['path:id'],
    responses: { '204': { description: 'Ended (or none was signing)' }, '401': NO_KEY, '404': NOT_FOUND },
    handle: async (ctx, env, { id }) => {
      if (!(await endPreviousSecret(env.primary, id!, ownerOf(ctx, env)))) throw notFound(`no such webhook: ${id}`);
      ctx.status = 204;
    },
  },
  {
    method: 'POST',
    path: '/webhooks/{id}/test',
    operationId: 'TestWebhook',
    summary: "Sends the hook a signed `ping` event now, outside its deliveries' order, and answers what came of it",
    params: ['path:id'],
    responses: {
      '200': json(
        "The receiver's answer (ok: a 2xx)",
        object({ id: str, ok: { type: 'boolean' }, status: nullable(int), error: nullable(str) }),
      ),
      '401': NO_KEY,
      '404': NOT_FOUND,
    },
    handle: async (ctx, env, { id }) => ping(ctx, env, await hookOf(ctx, env, id!)),
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
  const fields = hookFields(ctx);
  if (fields.url === undefined) throw badRequest('url: expected a string');
  if (fields.filters === undefined) throw badRequest('filters: expected a list of 1 to 100 filters');
  const confirmations = fields.confirmations ?? 0;
  const id = `wh_${randomUUID()}`;
  const secret = newSecret();
  const createdHeight = await createWebhook(env.primary, {
    id,
    owner,
    url: fields.url,
    filters: fields.filters.given,
    confirmations,
    secret,
    keys: fields.filters.keys,
  });
  ctx.status = 201;
  ctx.body = {
    id,
    secret,
    url: fields.url,
    filters: fields.filters.given,
    confirmations,
    created_height: createdHeight,
  };
}

async function update(ctx: ApiContext, env: V3Env, owner: string | null, id: string): Promise<void> {
  const { enabled, ...fields } = hookFields(ctx);
  const change: WebhookChange = {
    ...fields,
    ...(enabled === undefined ? {} : { enabled: enabled || 'disabled by its owner' }),
  };
  if (!(await updateWebhook(env.primary, id, owner, change))) throw notFound(`no such webhook: ${id}`);
  ctx.body = hookJson(await hookOf(ctx, env, id));
}

/** HookFields are the fields of a create's or a PATCH's body, each checked; an absent one undefined. */
interface HookFields extends Omit<WebhookChange, 'enabled'> {
  readonly enabled?: boolean;
}

/** hookFields reads a create's or a PATCH's body: each field given checked in full, and no field it does not know. */
function hookFields(ctx: ApiContext): HookFields {
  const req = (ctx.request as { body?: unknown }).body;
  if (typeof req !== 'object' || req === null || Array.isArray(req)) throw badRequest('expected a JSON object');
  const { url, filters, confirmations, enabled, ...rest } = req as Record<string, unknown>;
  if (Object.keys(rest).length > 0) throw badRequest(`unknown field(s): ${Object.keys(rest).join(', ')}`);
  if (url !== undefined && typeof url !== 'string') throw badRequest('url: expected a string');
  const checked = url === undefined ? undefined : checkedUrl(url);
  if (typeof checked === 'string') throw badRequest(`url: ${checked}`);
  if (
    confirmations !== undefined &&
    (!Number.isSafeInteger(confirmations) ||
      (confirmations as number) < 0 ||
      (confirmations as number) > MAX_CONFIRMATIONS)
  )
    throw badRequest(`confirmations: expected an integer from 0 to ${MAX_CONFIRMATIONS}`);
  if (enabled !== undefined && typeof enabled !== 'boolean') throw badRequest('enabled: expected true or false');
  return {
    ...(checked === undefined ? {} : { url: checked.href }),
    ...(filters === undefined ? {} : { filters: { given: filters, keys: parseFilters(filters) } }),
    ...(confirmations === undefined ? {} : { confirmations: confirmations as number }),
    ...(enabled === undefined ? {} : { enabled }),
  };
}

/**
 * ping sends the hook a `ping` event now, signed as its deliveries are (by each secret in force), from this server
 * (the sender's queue and order are not involved), and answers what the receiver said; a disabled hook too.
 */
async function ping(ctx: ApiContext, env: V3Env, hook: WebhookRow): Promise<void> {
  const secrets = await signingSecrets(env.primary, hook.id, hook.owner);
  if (secrets === undefined) throw notFound(`no such webhook: ${hook.id}`);
  const id = randomUUID();
  const text = pingBody(id, hook.id, await storedTop(env.primary));
  const receivers = new Receivers(1);
  try {
    const headers = deliveryHeaders(secrets, id, Math.floor(Date.now() / 1000), text);
    const result = await postDelivery(new URL(hook.url), text, headers, env.cfg.webhooks, receivers);
    ctx.body = { id, ok: result.ok, status: result.status ?? null, error: result.error ?? null };
  } finally {
    receivers.close();
  }
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
