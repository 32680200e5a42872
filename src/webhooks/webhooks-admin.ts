/**
 * @module What `mdw webhooks` does (docs/webhooks.md, "Managing hooks as the operator"): list every hook or one key's,
 * show one with its latest deliveries, disable one with a reason, delete one with its deliveries, whoever owns it, in
 * the schema DATABASE_SCHEMA names (the hooks of a revoked key, which its owner can no longer reach, among them).
 */
import type { Logger } from '../base/log.ts';
import type { Config } from '../config/middleware.ts';
import { withAdminPool } from '../db/connection/admin-pool.ts';
import { deliveriesPage, everyWebhook, webhookById, type WebhookRow } from '../db/queries/webhooks.ts';
import { deleteWebhook, updateWebhook } from '../db/writes/webhooks.ts';
import { renderDelivery, renderWebhook } from '../shapes/v3/render-webhooks.ts';

/** How many of a hook's latest deliveries `show` prints. */
const SHOWN_DELIVERIES = 10;

/** hookList is every hook, or those `owner` (a key id) made, oldest first. */
export function hookList(cfg: Config, log: Logger, owner: string | undefined): Promise<WebhookRow[]> {
  return withAdminPool(cfg, log, (pool) => everyWebhook(pool, owner));
}

/** hookLine is one hook in `mdw webhooks list`: id, owner, state, pending deliveries, url. Pure. */
export function hookLine(h: WebhookRow): string {
  const state = h.disabledReason === null ? 'enabled' : `disabled: ${h.disabledReason}`;
  return [h.id, h.owner ?? '-', state, `${h.pending} pending`, h.url].join('\t');
}

/** ownedHookJson is a hook as the API shows it, with the key that owns it (null: none). Pure. */
export function ownedHookJson(h: WebhookRow): Record<string, unknown> {
  return { ...renderWebhook(h), owner: h.owner };
}

/** hookShown is a hook with its owner and latest deliveries, newest first; undefined for no such hook. */
export function hookShown(cfg: Config, log: Logger, id: string): Promise<Record<string, unknown> | undefined> {
  return withAdminPool(cfg, log, async (pool) => {
    const hook = await webhookById(pool, id);
    if (hook === undefined) return undefined;
    const deliveries = await deliveriesPage(pool, id, { walk: 'backward', from: undefined, n: SHOWN_DELIVERIES });
    return { ...ownedHookJson(hook), deliveries: deliveries.map(renderDelivery) };
  });
}

/** disable disables a hook with `reason` (its sender stops before its next attempt); false for no such hook. */
export function disable(cfg: Config, log: Logger, id: string, reason: string): Promise<boolean> {
  return withAdminPool(cfg, log, async (pool) => {
    const hook = await webhookById(pool, id);
    return hook !== undefined && updateWebhook(pool, id, hook.owner, { enabled: reason });
  });
}

/** remove deletes a hook with its deliveries; false for no such hook. */
export function remove(cfg: Config, log: Logger, id: string): Promise<boolean> {
  return withAdminPool(cfg, log, async (pool) => {
    const hook = await webhookById(pool, id);
    return hook !== undefined && deleteWebhook(pool, id, hook.owner);
  });
}
