/**
 * @module `/mdw/v3/webhooks` (docs/webhooks.md) as rows of the route table: each route's method, path and what its
 * /v3/api entry says in shapes (shapes-webhooks.ts), and its handler: the request's owner, its body read, the
 * resource's answer (resources/webhooks.ts) with its status. A hook belongs to the request's API key; without one
 * (keys off) the API answers only when WEBHOOKS_ANONYMOUS is set, its hooks owned by no one.
 */
import { AppError, ErrorCode } from '../../../base/errors.ts';
import {
  CREATED_WEBHOOK,
  NEW_WEBHOOK,
  REPLAY_FROM,
  ROTATED_SECRET,
  WEBHOOK,
  WEBHOOK_CHANGE,
  WEBHOOK_DELIVERY,
  WEBHOOK_PING,
  WEBHOOK_REPLAY,
  WEBHOOKS,
} from '../../../shapes/v3/shapes-webhooks.ts';
import type { ApiContext } from '../../http/state.ts';
import { page, type V3Env } from '../resources/resource.ts';
import {
  changeHook,
  createHook,
  deleteHook,
  endHookPreviousSecret,
  hookDeliveries,
  listHooks,
  pingHook,
  readHook,
  replayHook,
  rotateHookSecret,
} from '../resources/webhooks.ts';
import { jsonBody } from './json-body.ts';
import { sendAnswer } from './mdw-respond.ts';
import type { HandledErrors, V3Handled } from './operation.ts';

const body = jsonBody('64kb');

/** a request without a key is 401 unless the operator allows keyless hooks, as one with an unknown key is */
const HOOK_ERRORS = {
  401: 'Webhooks need an API key (X-API-Key) on this server',
  404: 'No such hook of this key',
} as const satisfies HandledErrors;
const WITH_BODY = { 400: 'Bad input', ...HOOK_ERRORS } as const satisfies HandledErrors;

/** WEBHOOKS_OPERATIONS: the webhooks API's rows of the route table. */
export const WEBHOOKS_OPERATIONS: readonly V3Handled[] = [
  {
    path: '/webhooks',
    operationId: 'GetWebhooks',
    summary: "The key's hooks, oldest first",
    params: [],
    answer: { status: 200, description: 'OK', answers: WEBHOOKS },
    errors: HOOK_ERRORS,
    handle: async (ctx, env) => {
      ctx.body = await listHooks(env, ownerOf(ctx, env));
    },
  },
  {
    method: 'POST',
    path: '/webhooks',
    operationId: 'CreateWebhook',
    summary: "Creates a hook; its secret (whsec_…, the key of its deliveries' signatures) is shown this once",
    params: [],
    body: NEW_WEBHOOK,
    answer: { status: 201, description: 'Created', answers: CREATED_WEBHOOK },
    errors: WITH_BODY,
    handle: (ctx, env) => {
      const owner = ownerOf(ctx, env);
      return body(ctx, async () => {
        ctx.body = await createHook(env, owner, (ctx.request as { body?: unknown }).body);
        ctx.status = 201;
      });
    },
  },
  {
    path: '/webhooks/{id}',
    operationId: 'GetWebhook',
    summary: 'A hook',
    params: ['path:id'],
    answer: { status: 200, description: 'OK', answers: WEBHOOK },
    errors: HOOK_ERRORS,
    handle: async (ctx, env, { id }) => {
      ctx.body = await readHook(env, ownerOf(ctx, env), id!);
    },
  },
  {
    method: 'DELETE',
    path: '/webhooks/{id}',
    operationId: 'DeleteWebhook',
    summary: 'Deletes a hook with its deliveries',
    params: ['path:id'],
    answer: { status: 204, description: 'Deleted' },
    errors: HOOK_ERRORS,
    handle: async (ctx, env, { id }) => {
      await deleteHook(env, ownerOf(ctx, env), id!);
      ctx.status = 204;
    },
  },
  {
    method: 'PATCH',
    path: '/webhooks/{id}',
    operationId: 'UpdateWebhook',
    summary: "Changes a hook's url, filters, confirmations or enabled (true: sent again from its next delivery)",
    params: ['path:id'],
    body: WEBHOOK_CHANGE,
    answer: { status: 200, description: 'OK', answers: WEBHOOK },
    errors: WITH_BODY,
    handle: (ctx, env, { id }) => {
      const owner = ownerOf(ctx, env);
      return body(ctx, async () => {
        ctx.body = await changeHook(env, owner, id!, (ctx.request as { body?: unknown }).body);
      });
    },
  },
  {
    method: 'POST',
    path: '/webhooks/{id}/rotate-secret',
    operationId: 'RotateWebhookSecret',
    summary: 'Gives a hook a new secret, shown this once; the one it replaces signs beside it for 24 h',
    params: ['path:id'],
    answer: { status: 200, description: 'OK', answers: ROTATED_SECRET },
    errors: HOOK_ERRORS,
    handle: async (ctx, env, { id }) => {
      ctx.body = await rotateHookSecret(env, ownerOf(ctx, env), id!);
    },
  },
  {
    method: 'DELETE',
    path: '/webhooks/{id}/previous-secret',
    operationId: 'EndWebhookPreviousSecret',
    summary: 'Ends a rotation now: the secret it replaced signs nothing more',
    params: ['path:id'],
    answer: { status: 204, description: 'Ended (or none was signing)' },
    errors: HOOK_ERRORS,
    handle: async (ctx, env, { id }) => {
      await endHookPreviousSecret(env, ownerOf(ctx, env), id!);
      ctx.status = 204;
    },
  },
  {
    method: 'POST',
    path: '/webhooks/{id}/test',
    operationId: 'TestWebhook',
    summary: "Sends the hook a signed `ping` event now, outside its deliveries' order, and answers what came of it",
    params: ['path:id'],
    answer: { status: 200, description: "The receiver's answer (ok: a 2xx)", answers: WEBHOOK_PING },
    errors: HOOK_ERRORS,
    handle: async (ctx, env, { id }) => {
      ctx.body = await pingHook(env, ownerOf(ctx, env), id!);
    },
  },
  {
    path: '/webhooks/{id}/deliveries',
    operationId: 'GetWebhookDeliveries',
    summary: "A hook's deliveries, newest first",
    params: ['path:id', 'limit', 'cursor', 'direction', 'rev'],
    answer: { status: 200, description: 'OK', answers: page(WEBHOOK_DELIVERY) },
    errors: WITH_BODY,
    handle: async (ctx, env, { id }) => {
      sendAnswer(ctx, await hookDeliveries(env, ownerOf(ctx, env), id!, ctx.query), ctx.query);
    },
  },
  {
    method: 'POST',
    path: '/webhooks/{id}/replay',
    operationId: 'ReplayWebhook',
    summary: "Writes a hook's deliveries from a height again, sent in order before the rest",
    params: ['path:id'],
    body: REPLAY_FROM,
    answer: { status: 202, description: 'Accepted', answers: WEBHOOK_REPLAY },
    errors: WITH_BODY,
    handle: (ctx, env, { id }) => {
      const owner = ownerOf(ctx, env);
      return body(ctx, async () => {
        ctx.body = await replayHook(env, owner, id!, (ctx.request as { body?: unknown }).body);
        ctx.status = 202;
      });
    },
  },
];

/** ownerOf is the key the request's hooks belong to (null: the hooks of no key, where the operator allows them). */
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
