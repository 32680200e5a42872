/**
 * @module `/mdw/v3/webhooks` (docs/webhooks.md): create a hook (its secret shown once), list, read, change and delete
 * an owner's hooks, rotate a hook's secret, send it a test event, page its deliveries, replay from a height. Each
 * answers its shape (shapes-webhooks.ts) for the owner the request names (`null`: the hooks of no key). Hooks are
 * written, so they are read and written on the primary.
 */
import { randomUUID } from 'node:crypto';
import { notFound } from '../../../base/errors.ts';
import type { Json } from '../../../chain/json.ts';
import { withTransaction } from '../../../db/connection/pool.ts';
import {
  deliveriesPage,
  listWebhooks,
  signingSecrets,
  storedTop,
  webhookOf,
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
import type { ShapeValue } from '../../../shapes/shape-table.ts';
import { renderDelivery, renderWebhook } from '../../../shapes/v3/render-webhooks.ts';
import type {
  CREATED_WEBHOOK,
  ROTATED_SECRET,
  WEBHOOK_PING,
  WEBHOOK,
  WEBHOOK_REPLAY,
  WEBHOOKS,
} from '../../../shapes/v3/shapes-webhooks.ts';
import { pingBody } from '../../../webhooks/delivery-body.ts';
import { postDelivery, Receivers } from '../../../webhooks/outbound.ts';
import { deliveryHeaders, newSecret } from '../../../webhooks/signature.ts';
import { DELIVERY_CURSOR } from './cursors.ts';
import { listPage } from './list.ts';
import { parsePaging } from './mdw-params.ts';
import type { Query } from './page.ts';
import type { ItemsPage, V3Env } from './resource.ts';
import { hookFields, newHook, replayFrom } from './webhook-input.ts';

/** How long the secret a rotation replaced still signs, unless its owner ends it sooner: a day to deploy the new one. */
const PREVIOUS_SECRET_MS = 86_400_000;

/** Who a request acts for: the key that owns the hooks it reaches (null: the hooks of no key). */
type Owner = string | null;

/** listHooks is the owner's hooks, oldest first. */
export async function listHooks(env: V3Env, owner: Owner): Promise<ShapeValue<typeof WEBHOOKS>> {
  return { data: (await listWebhooks(env.primary, owner)).map(renderWebhook) };
}

/** createHook creates a hook from a create's body: its secret (`whsec_…`) is in this answer only. */
export async function createHook(env: V3Env, owner: Owner, body: unknown): Promise<ShapeValue<typeof CREATED_WEBHOOK>> {
  const { url, filters, confirmations } = newHook(body);
  const id = `wh_${randomUUID()}`;
  const secret = newSecret();
  const hook = { id, owner, url, filters: filters.given, confirmations, secret, keys: filters.keys };
  const createdHeight = await createWebhook(env.primary, hook);
  // filters are given as a list of 1 to 100 (newHook checked them) and answered as given
  return { id, secret, url, filters: filters.given as Json[], confirmations, created_height: createdHeight };
}

/** readHook is the owner's hook `id` as the API shows it. */
export async function readHook(env: V3Env, owner: Owner, id: string): Promise<ShapeValue<typeof WEBHOOK>> {
  return renderWebhook(await hookOf(env, owner, id));
}

/** changeHook applies a PATCH's body to the owner's hook `id` and answers the hook as it is now. */
export async function changeHook(
  env: V3Env,
  owner: Owner,
  id: string,
  body: unknown,
): Promise<ShapeValue<typeof WEBHOOK>> {
  const { enabled, ...fields } = hookFields(body);
  const change: WebhookChange = {
    ...fields,
    ...(enabled === undefined ? {} : { enabled: enabled || 'disabled by its owner' }),
  };
  if (!(await updateWebhook(env.primary, id, owner, change))) throw noSuchHook(id);
  return readHook(env, owner, id);
}

/** deleteHook deletes the owner's hook `id` with its deliveries. */
export async function deleteHook(env: V3Env, owner: Owner, id: string): Promise<void> {
  if (!(await deleteWebhook(env.primary, id, owner))) throw noSuchHook(id);
}

/** rotateHookSecret gives the hook a new secret, shown this once; the one it replaces signs beside it for a day. */
export async function rotateHookSecret(
  env: V3Env,
  owner: Owner,
  id: string,
): Promise<ShapeValue<typeof ROTATED_SECRET>> {
  const secret = newSecret();
  const until = await rotateSecret(env.primary, id, owner, secret, PREVIOUS_SECRET_MS);
  if (until === undefined) throw noSuchHook(id);
  return { id, secret, previous_secret_until: until.toISOString() };
}

/** endHookPreviousSecret ends a rotation now: the secret it replaced signs nothing more. */
export async function endHookPreviousSecret(env: V3Env, owner: Owner, id: string): Promise<void> {
  if (!(await endPreviousSecret(env.primary, id, owner))) throw noSuchHook(id);
}

/**
 * pingHook sends the hook a `ping` event now, signed as its deliveries are (by each secret in force), from this server
 * (the sender's queue and order are not involved), and answers what the receiver said; a disabled hook too.
 */
export async function pingHook(env: V3Env, owner: Owner, id: string): Promise<ShapeValue<typeof WEBHOOK_PING>> {
  const hook = await hookOf(env, owner, id);
  const secrets = await signingSecrets(env.primary, hook.id, hook.owner);
  if (secrets === undefined) throw noSuchHook(hook.id);
  const pingId = randomUUID();
  const text = pingBody(pingId, hook.id, await storedTop(env.primary));
  const receivers = new Receivers(1);
  try {
    const headers = deliveryHeaders(secrets, pingId, Math.floor(Date.now() / 1000), text);
    const result = await postDelivery(new URL(hook.url), text, headers, env.cfg.webhooks, receivers);
    return { id: pingId, ok: result.ok, status: result.status ?? null, error: result.error ?? null };
  } finally {
    receivers.close();
  }
}

/** hookDeliveries is a page of the owner's hook's deliveries, newest first unless the query walks forward. */
export async function hookDeliveries(env: V3Env, owner: Owner, id: string, query: Query): Promise<ItemsPage> {
  const hook = await hookOf(env, owner, id);
  return listPage(parsePaging(query), {
    cursor: DELIVERY_CURSOR,
    read: (window) => deliveriesPage(env.primary, hook.id, window),
    // a row is its own place in the order
    key: (row) => row,
    item: renderDelivery,
  });
}

/** replayHook writes the hook's deliveries from a replay's `from_height` to the top again, sent before the rest. */
export async function replayHook(
  env: V3Env,
  owner: Owner,
  id: string,
  body: unknown,
): Promise<ShapeValue<typeof WEBHOOK_REPLAY>> {
  const hook = await hookOf(env, owner, id);
  const top = await storedTop(env.primary);
  const from = replayFrom(body, top, env.cfg.webhooks.maxReplayHeights);
  const deliveries = await withTransaction(env.primary, (db) => replayDeliveries(db, hook.id, from, top));
  return { from_height: from, to_height: top, deliveries };
}

/** hookOf is the owner's hook `id`, or a 404. */
async function hookOf(env: V3Env, owner: Owner, id: string): Promise<WebhookRow> {
  const hook = await webhookOf(env.primary, id, owner);
  if (hook === undefined) throw noSuchHook(id);
  return hook;
}

function noSuchHook(id: string): Error {
  return notFound(`no such webhook: ${id}`);
}
