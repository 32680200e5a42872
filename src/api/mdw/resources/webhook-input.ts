/**
 * @module The bodies the webhooks API reads (shapes-webhooks.ts: NEW_WEBHOOK, WEBHOOK_CHANGE, REPLAY_FROM), each field
 * checked in full, a 400 saying what is wrong. Pure but for the filters' and the url's own checks.
 */
import { badRequest } from '../../../base/errors.ts';
import type { NewWebhook } from '../../../db/queries/webhooks.ts';
import type { WebhookChange } from '../../../db/writes/webhooks.ts';
import { MAX_CONFIRMATIONS } from '../../../shapes/v3/shapes-webhooks.ts';
import { parseFilters } from '../../../webhooks/filters.ts';
import { checkedUrl } from '../../../webhooks/outbound.ts';

/** HookFields are the fields of a create's or a PATCH's body, each checked; an absent one undefined. */
export interface HookFields extends Omit<WebhookChange, 'enabled'> {
  readonly enabled?: boolean;
}

/** NewHook is a create's body: its url and filters, and its confirmations (0 unless given). */
export type NewHook = Pick<NewWebhook, 'url' | 'confirmations'> & {
  readonly filters: NonNullable<HookFields['filters']>;
};

/** hookFields reads a create's or a PATCH's body: each field given checked in full, and no field it does not know. */
export function hookFields(body: unknown): HookFields {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) throw badRequest('expected a JSON object');
  const { url, filters, confirmations, enabled, ...rest } = body as Record<string, unknown>;
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

/** newHook reads a create's body: a url and filters it must have, and what hookFields checks. */
export function newHook(body: unknown): NewHook {
  const fields = hookFields(body);
  if (fields.url === undefined) throw badRequest('url: expected a string');
  if (fields.filters === undefined) throw badRequest('filters: expected a list of 1 to 100 filters');
  return { url: fields.url, filters: fields.filters, confirmations: fields.confirmations ?? 0 };
}

/** replayFrom reads a replay's `from_height`: a height at most `top`, and fewer than `maxHeights` below it. */
export function replayFrom(body: unknown, top: number, maxHeights: number): number {
  const from = (body as { from_height?: unknown } | undefined)?.from_height;
  if (!Number.isSafeInteger(from) || (from as number) < 0) throw badRequest('from_height: expected a height');
  const height = from as number;
  if (height > top) throw badRequest(`from_height above the top (${top}): ${height}`);
  if (top - height >= maxHeights)
    throw badRequest(`from_height further back than ${maxHeights} heights from the top (${top}): ${height}`);
  return height;
}
