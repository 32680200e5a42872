/** @module The one HTTP error boundary: every failure becomes JSON `{reason, code}` with the right status. */
import type { ApiMiddleware } from '../state.ts';
import { AppError, ErrorCode } from '../../errors.ts';
import { isDatabaseUnavailable } from '../../db/errors.ts';
import type { Logger } from '../../log.ts';
import type { DependencyOutage } from '../../outage.ts';

/**
 * errorBoundary turns thrown errors into `{reason, code}`; a 500 body never carries internals. A request refused
 * because the database is away is 503 and is told to `databaseOutage`, which logs the outage once, not per request.
 */
export function errorBoundary(log: Logger, databaseOutage?: DependencyOutage): ApiMiddleware {
  return async function errorBoundary(ctx, next) {
    try {
      await next();
      // A forwarded answer (even a node 404) was already streamed to the client as it is.
      if (ctx.status === 404 && ctx.body === undefined && !ctx.state.forwarded) {
        throw new AppError(ErrorCode.API_NOT_FOUND, 404, 'Not found');
      }
    } catch (err) {
      const e = toAppError(err);
      if (e.code === ErrorCode.DB_UNAVAILABLE && databaseOutage) databaseOutage.refused(err);
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
