/**
 * @module A GraphQL field answered by its /v3 operation's own handler: the handler is given a request context of
 * the operation's path and query, as the router would give it, and its JSON answer is what the field resolves to.
 * The numbers are the REST answer's by construction; a handler's 4xx becomes the field's GraphQL error.
 */
import { IncomingMessage, ServerResponse } from 'node:http';
import { Socket } from 'node:net';
import type { RouterContext } from '@koa/router';
import Koa from 'koa';
import { parseJson, type Json } from '../../chain/json.ts';
import { AppError, ErrorCode } from '../../errors.ts';
import type { V3Env, V3Operation } from '../routes/v3/operation.ts';
import { V3_OPERATIONS } from '../routes/v3/operations.ts';

/** A request to an operation: its path parameters and its query (a list is a repeated parameter). */
export interface RestRequest {
  readonly params: Readonly<Record<string, string>>;
  readonly query: Readonly<Record<string, string | readonly string[]>>;
}

const BY_ID = new Map(V3_OPERATIONS.map((op) => [op.operationId, op]));

/** operation finds an operation of the route table by its operationId (a field table naming another is a bug). */
export function operation(operationId: string): V3Operation {
  const op = BY_ID.get(operationId);
  if (!op) throw new Error(`no /v3 operation ${operationId}`);
  return op;
}

/** the app whose contexts the handlers are given (no middleware, never listening) */
const contexts = new Koa();

/** callOperation answers one request with the operation's handler and returns its JSON answer. */
export async function callOperation(op: V3Operation, env: V3Env, request: RestRequest): Promise<Json> {
  const path = op.path.replace(/\{(\w+)\}/g, (_m, name: string) => encodeURIComponent(request.params[name] ?? ''));
  const search = new URLSearchParams();
  for (const [name, value] of Object.entries(request.query))
    for (const v of typeof value === 'string' ? [value] : value) search.append(name, v);
  const req = new IncomingMessage(new Socket());
  req.method = 'GET';
  req.url = `/v3${path}${search.size > 0 ? `?${search}` : ''}`;
  const ctx = contexts.createContext(req, new ServerResponse(req)) as RouterContext;
  ctx.params = { ...request.params };
  await op.handle(ctx, env);
  if (typeof ctx.body !== 'string')
    throw new AppError(ErrorCode.INTERNAL, 500, `${op.operationId} answered no JSON text`);
  return parseJson(ctx.body);
}
