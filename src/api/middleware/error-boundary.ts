/** @module The one HTTP error boundary: every failure becomes JSON `{reason, code}` with the right status. */
import type { ApiMiddleware } from '../state.ts';
import { AppError, ErrorCode } from '../../errors.ts';
import { isDatabaseUnavailable } from '../../db/errors.ts';
import type { Logger } from '../../log.ts';
import type { DependencyOutage } from '../../outage.ts';

/** The outages requests are refused for: each logs its dependency's loss and return once, not once per request. */
export interface Outages {
  /** told of every 503 for a database that is away */
  readonly database?: DependencyOutage;
  /** told of every 502/504 for a node that does not answer */
  readonly node?: DependencyOutage;
}

/** outageOf is the outage a refusal with `code` belongs to, if any. */
function outageOf(code: ErrorCode, outages: Outages): DependencyOutage | undefined {
  if (code === ErrorCode.DB_UNAVAILABLE) return outages.database;
  if (code === ErrorCode.NODE_UNREACHABLE || code === ErrorCode.NODE_TIMEOUT) return outages.node;
  return undefined;
}

/**
 * errorBoundary turns thrown errors into `{reason, code}`; a 500 body never carries internals. A request refused
 * because a dependency is away (503 for the database, 502/504 for the node) is told to its outage instead of
 * being logged.
 */
export function errorBoundary(log: Logger, outages: Outages = {}): ApiMiddleware {
  return async function errorBoundary(ctx, next) {
    try {
      await next();
      // A forwarded answer (even a node 404) was already streamed to the client as it is.
      if (ctx.status === 404 && ctx.body === undefined && !ctx.state.forwarded) {
        throw new AppError(ErrorCode.API_NOT_FOUND, 404, 'Not found');
      }
    } catch (err) {
      const e = toAppError(err);
      const outage = outageOf(e.code, outages);
      if (outage) outage.refused(err);
      else if (e.status >= 500) log.error({ err, code: e.code, path: ctx.path }, 'request failed');
      else log.info({ code: e.code, path: ctx.path, reason: e.message }, 'request rejected');
      ctx.status = e.status;
      ctx.set('Cache-Control', 'no-store');
      // Upstream and availability errors carry messages written for clients; only bugs are hidden.
      ctx.body = { reason: e.code === ErrorCode.INTERNAL ? 'Internal Server Error' : e.message, code: e.code };
    }
  };
}

/** toAppError classifies what a handler or a Koa helper threw (bodyparser and Koa throw http-errors). */
function toAppError(err: unknown): AppError {
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
  if (isDatabaseUnavailable(err))
    return new AppError(ErrorCode.DB_UNAVAILABLE, 503, 'database unavailable', { cause: err });
  return new AppError(ErrorCode.INTERNAL, 500, 'unhandled', { cause: err });
}
