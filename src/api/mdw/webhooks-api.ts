/**
 * @module `/mdw/v3/webhooks` (docs/webhooks.md): create a hook (its secret shown once), list, read and delete an
 * owner's hooks, page a hook's deliveries, replay from a height. A hook belongs to the request's API key; without one
 * (keys off) the API answers only when WEBHOOKS_ANONYMOUS is set, its hooks owned by no one.
 */
import { randomUUID } from 'node:crypto';
import { bodyParser } from '@koa/bodyparser';
import { AppError, ErrorCode, badRequest, notFound } from '../../base/errors.ts';
import type { WebhookSettings } from '../../config/middleware.ts';
import type { Pool } from '../../db/connection/pool.ts';
import {
  deliveriesPage,
  listWebhooks,
  storedTop,
  webhookOf,
  type DeliveryCursor,
  type DeliveryRow,
  type WebhookRow,
} from '../../db/queries/webhooks.ts';
import { replayDeliveries } from '../../db/writes/webhook-deliveries.ts';
import { createWebhook, deleteWebhook } from '../../db/writes/webhooks.ts';
import { withTransaction } from '../../db/connection/pool.ts';
import { parseFilters } from '../../webhooks/filters.ts';
import { checkedUrl } from '../../webhooks/outbound.ts';
import { newSecret } from '../../webhooks/signature.ts';
import type { ApiContext } from '../http/state.ts';
import { DELIVERY_LIMITS, MAX_CONFIRMATIONS } from './rest/webhooks-paths.ts';

const MAX_BODY = '64kb';
const { default: DEFAULT_LIMIT, max: MAX_LIMIT } = DELIVERY_LIMITS;

/** isWebhooksPath tells the paths this API answers (below /v3, once /mdw is taken off). */
export function isWebhooksPath(path: string): boolean {
  return path === '/v3/webhooks' || path.startsWith('/v3/webhooks/');
}

/** webhooksApi answers `/v3/webhooks…` with the primary pool (it writes). */
export function webhooksApi(pool: Pool, settings: WebhookSettings): (ctx: ApiContext) => Promise<void> {
  const body = bodyParser({ enableTypes: ['json'], jsonLimit: MAX_BODY });
  return async function webhooks(ctx) {
    ctx.set('Cache-Control', 'no-store');
    const owner = ownerOf(ctx, settings);
    const [, id, sub, extra] = ctx.path.slice('/v3/webhooks'.length).split('/');
    ctx.state.route = `/mdw/v3/webhooks${id === undefined ? '' : '/{id}'}${sub === undefined ? '' : `/${sub}`}`;
    if (extra !== undefined || (id === '' && sub === undefined)) throw notFound('no such route');
    if (id === undefined) {
      if (ctx.method === 'GET') return void (ctx.body = { data: (await listWebhooks(pool, owner)).map(hookJson) });
      if (ctx.method === 'POST') return body(ctx, () => create(ctx, pool, owner));
    } else if (sub === undefined) {
      if (ctx.method === 'GET') return void (ctx.body = hookJson(await hookOrThrow(pool, id, owner)));
      if (ctx.method === 'DELETE') {
        if (!(await deleteWebhook(pool, id, owner))) throw notFound(`no such webhook: ${id}`);
        return void (ctx.status = 204);
      }
    } else if (sub === 'deliveries' && ctx.method === 'GET') {
      return deliveries(ctx, pool, await hookOrThrow(pool, id, owner));
    } else if (sub === 'replay' && ctx.method === 'POST') {
      const hook = await hookOrThrow(pool, id, owner);
      return body(ctx, () => replay(ctx, pool, hook, settings.maxReplayHeights));
    }
    throw notFound('no such route');
  };
}

function ownerOf(ctx: ApiContext, settings: WebhookSettings): string | null {
  const key = ctx.state.apiKey;
  if (key !== undefined) return key.id;
  if (settings.anonymous) return null;
  throw new AppError(
    ErrorCode.API_NOT_FOUND,
    404,
    'webhooks need an API key (X-API-Key) on this server; without keys, the operator enables them with WEBHOOKS_ANONYMOUS',
  );
}

async function create(ctx: ApiContext, pool: Pool, owner: string | null): Promise<void> {
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
  const createdHeight = await createWebhook(pool, {
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

async function deliveries(ctx: ApiContext, pool: Pool, hook: WebhookRow): Promise<void> {
  const limit = ctx.query.limit === undefined ? DEFAULT_LIMIT : Number(ctx.query.limit);
  if (!Number.isSafeInteger(limit) || limit < 1 || limit > MAX_LIMIT)
    throw badRequest(`limit: expected an integer from 1 to ${MAX_LIMIT}`);
  const cursor = ctx.query.cursor === undefined ? undefined : parseCursor(ctx.query.cursor);
  const rows = await deliveriesPage(pool, hook.id, cursor, limit + 1);
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

async function replay(ctx: ApiContext, pool: Pool, hook: WebhookRow, maxHeights: number): Promise<void> {
  const from = ((ctx.request as { body?: unknown }).body as { from_height?: unknown } | undefined)?.from_height;
  const top = await storedTop(pool);
  if (!Number.isSafeInteger(from) || (from as number) < 0) throw badRequest('from_height: expected a height');
  if ((from as number) > top) throw badRequest(`from_height above the top (${top}): ${from as number}`);
  if (top - (from as number) >= maxHeights)
    throw badRequest(`from_height further back than ${maxHeights} heights from the top (${top}): ${from as number}`);
  const rows = await withTransaction(pool, (db) => replayDeliveries(db, hook.id, from as number, top));
  ctx.status = 202;
  ctx.body = { from_height: from, to_height: top, deliveries: rows };
}

async function hookOrThrow(pool: Pool, id: string, owner: string | null): Promise<WebhookRow> {
  const hook = await webhookOf(pool, id, owner);
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
