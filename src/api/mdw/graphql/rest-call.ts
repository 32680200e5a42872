/**
 * @module A GraphQL field answered by its /v3 operation's own handler: the handler is given a request context of
 * the operation's path and query, as the router would give it, and its JSON answer is what the field resolves to.
 * The numbers are the REST answer's by construction; a handler's 4xx becomes the field's GraphQL error.
 */
import type { RouterContext } from '@koa/router';
import { parseJson, type Json } from '../../../chain/json.ts';
import { AppError, ErrorCode } from '../../../errors.ts';
import type { V3Env, V3Operation } from '../rest/operation.ts';
import { V3_OPERATIONS } from '../rest/operations.ts';
import { answerAsValue, answeredValue } from '../rest/mdw-respond.ts';

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

/**
 * callOperation answers one request with the operation's handler and returns its answer: the value of a list whose
 * items are objects (respond.ts answerAsValue), else its JSON text parsed.
 */
export async function callOperation(op: V3Operation, env: V3Env, request: RestRequest): Promise<Json> {
  const ctx = handlerContext(op, request);
  answerAsValue(ctx);
  await op.handle(ctx, env);
  const value = answeredValue(ctx);
  if (value !== undefined) return value;
  if (typeof ctx.body !== 'string')
    throw new AppError(ErrorCode.INTERNAL, 500, `${op.operationId} answered no JSON text`);
  return parseJson(ctx.body);
}

/**
 * handlerContext is what a /v3 handler reads and writes of the router's context, and no more: the request's path,
 * path parameters and parsed query; the answer's status, type and body (and headers, ignored). A Koa context of a
 * request made up for the call (socket, request, response objects) cost a third of a small field's time.
 */
function handlerContext(op: V3Operation, { params, query }: RestRequest): RouterContext {
  const path = op.path.replace(/\{(\w+)\}/g, (_m, name: string) => encodeURIComponent(params[name] ?? ''));
  const ctx = { path: `/v3${path}`, params: { ...params }, query, status: 404, type: '', body: undefined, set() {} };
  return ctx as unknown as RouterContext;
}
