/**
 * @module The one HTTP error boundary of every API (/middleware, /v2, ae_mdw's /v3): one classifier of what was
 * thrown, one outage log per dependency, one overload log, and three body shapes: `{reason, code}`, ae_mdw's
 * `{error}` for the requests its API took (`ctx.state.aeMdw`) and GraphQL's `{errors}` for a GraphQL request refused.
 */
import type prom from 'prom-client';
import type { ApiContext, ApiMiddleware } from '../state.ts';
import { AppError, ErrorCode } from '../../../base/errors.ts';
import { isDatabaseUnavailable, isPoolBusy } from '../../../db/connection/errors.ts';
import { isStatementCancelled } from '../../../db/connection/statement-cancel.ts';
import type { Logger } from '../../../base/log.ts';
import type { DependencyOutage } from '../outage.ts';
import { overloaded } from '../admission.ts';
import { UNREACHABLE_REASON } from '../../../node/errors.ts';
import { askedPath } from './request-metrics.ts';

/** The outages requests are refused for: each logs its dependency's loss and return once, not once per request. */
export interface Outages {
  /** told of every 503 for a database that is away */
  readonly database?: DependencyOutage;
  /** told of every 502/504 for a node that does not answer (MDW_NODE_UNREACHABLE, MDW_NODE_TIMEOUT) */
  readonly node?: DependencyOutage;
}

export interface ErrorBoundaryOptions {
  readonly log: Logger;
  readonly outages?: Outages;
  /** counts the requests refused as overload (503 MDW_OVERLOADED) */
  readonly shed?: prom.Counter;
}

/** Seconds a client is told to wait before trying again, per refusal that passes (RFC 9110 Retry-After). */
const RETRY_AFTER_SECONDS: Partial<Record<ErrorCode, number>> = {
  [ErrorCode.OVERLOADED]: 1,
  [ErrorCode.DB_UNAVAILABLE]: 5,
  // what is held (a socket, an export) is let go by its holder: no window to wait for
  [ErrorCode.API_LIMIT_REACHED]: 1,
};

/** Overload is logged at most once per this long, with the count of refusals since the last line. */
const OVERLOAD_LOG_INTERVAL_MS = 10_000;
/**
 * A client's rejected requests (4xx) are logged at most once per this long, with the count since the last line: one
 * line per request was a log flood any client could cause (issue 59: 63,589 lines for one fuzz run).
 */
const REJECTED_LOG_INTERVAL_MS = 1000;

/**
 * countedLines counts calls and says which one is due a log line, at most one per `intervalMs`: that call gets the
 * count of calls since the last line (itself included), the others undefined.
 */
function countedLines(intervalMs: number): () => number | undefined {
  let count = 0;
  let loggedAt = -Infinity;
  return () => {
    count++;
    const now = Date.now();
    if (now - loggedAt < intervalMs) return undefined;
    const since = count;
    count = 0;
    loggedAt = now;
    return since;
  };
}

/** outageOf is the outage a refusal with `code` belongs to, if any. */
function outageOf(code: ErrorCode, outages: Outages): DependencyOutage | undefined {
  if (code === ErrorCode.DB_UNAVAILABLE) return outages.database;
  if (code === ErrorCode.NODE_UNREACHABLE || code === ErrorCode.NODE_TIMEOUT) return outages.node;
  return undefined;
}

/**
 * errorBoundary turns thrown errors into answers; a 500 body never carries internals. A request refused because a
 * dependency is away (503 for the database, 502/504 for the node) is told to its outage instead of being logged, one
 * refused for overload (503 with Retry-After) is counted and logged at most every few seconds.
 */
export function errorBoundary(opts: ErrorBoundaryOptions): ApiMiddleware {
  const { log, outages = {}, shed } = opts;
  const overloadLine = countedLines(OVERLOAD_LOG_INTERVAL_MS);
  const overloaded = (ctx: ApiContext, err: unknown): void => {
    shed?.inc();
    const refused = overloadLine();
    if (refused === undefined) return;
    log.warn(
      { refused, path: askedPath(ctx), reason: (err as Error).message },
      'overloaded: refusing requests with 503 and Retry-After until there is room',
    );
  };
  const rejectedLine = countedLines(REJECTED_LOG_INTERVAL_MS);
  const rejected = (ctx: ApiContext, e: AppError): void => {
    const count = rejectedLine();
    if (count !== undefined)
      log.info({ code: e.code, path: askedPath(ctx), reason: e.message, rejected: count }, 'request rejected');
  };
  return async function errorBoundary(ctx, next) {
    try {
      await next();
      // A forwarded answer (even a node 404) was already streamed to the client as it is.
      if (ctx.status === 404 && ctx.body === undefined && !ctx.state.forwarded) {
        throw new AppError(ErrorCode.API_NOT_FOUND, 404, 'Not found');
      }
    } catch (err) {
      const e = classifyError(err);
      const outage = outageOf(e.code, outages);
      if (outage) outage.refused(err);
      else if (e.code === ErrorCode.OVERLOADED) overloaded(ctx, err);
      else if (e.status >= 500) log.error({ err, code: e.code, path: askedPath(ctx) }, 'request failed');
      else rejected(ctx, e);
      ctx.status = e.status;
      ctx.set('Cache-Control', 'no-store');
      const retryAfter = RETRY_AFTER_SECONDS[e.code];
      if (retryAfter !== undefined) ctx.set('Retry-After', String(retryAfter));
      if (e.status === 401) challenge(ctx);
      ctx.body = errorBody(ctx, e);
    }
  };
}

/** challenge names the way to authenticate, as a 401 must (RFC 9110 §11.6.1): an API key. */
export function challenge(ctx: ApiContext): void {
  ctx.set('WWW-Authenticate', 'ApiKey realm="mdw"');
}

/**
 * errorBody is an error's answer in the shape of the API the request went to: GraphQL's refusals of a request (4xx) in
 * GraphQL's, with the code as its extension (a failure of the server's own stays ae_mdw's: it is not the document's),
 * ae_mdw's `{error}`, or `{reason, code}`.
 */
export function errorBody(ctx: ApiContext, e: AppError): unknown {
  const reason = clientReason(e, ctx.state.aeMdw === true);
  if (ctx.state.graphql && e.status < 500) return { errors: [{ message: reason, extensions: { code: e.code } }] };
  return ctx.state.aeMdw ? { error: reason } : { reason, code: e.code };
}

/**
 * clientReason is what a client reads of an error: upstream and availability errors carry messages written for
 * clients; a bug is hidden, and so is why the node could not be reached (an address, NODE_INTERNAL_URL's above all).
 */
function clientReason(e: AppError, aeMdw: boolean): string {
  if (e.code === ErrorCode.INTERNAL) return aeMdw ? 'internal error' : 'Internal Server Error';
  return e.code === ErrorCode.NODE_UNREACHABLE ? UNREACHABLE_REASON : e.message;
}

/**
 * classifyError is what a handler or a Koa helper threw as an AppError (bodyparser and Koa throw http-errors): a
 * pool with no room or a statement cancelled at its deadline is overload, a database that is away is an outage, anything else unknown is a bug.
 */
export function classifyError(err: unknown): AppError {
  if (err instanceof AppError) return err;
  const status = (err as { status?: unknown })?.status;
  if (typeof status === 'number' && status >= 400 && status < 500) {
    const code =
      status === 413
        ? ErrorCode.API_PAYLOAD_TOO_LARGE
        : status === 404
          ? ErrorCode.API_NOT_FOUND
          : ErrorCode.API_BAD_REQUEST;
    return new AppError(code, status, (err as Error).message || 'Invalid input', { cause: err });
  }
  // a statement cancelled is one whose request's deadline came (statement-cancel.ts): overload, retried later
  if (isPoolBusy(err) || isStatementCancelled(err)) return overloaded(err);
  if (isDatabaseUnavailable(err))
    return new AppError(ErrorCode.DB_UNAVAILABLE, 503, 'database unavailable', { cause: err });
  return new AppError(ErrorCode.INTERNAL, 500, 'unhandled', { cause: err });
}
