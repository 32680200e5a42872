/** @module ae_mdw's error answers: `{"error": "<kind>: <value>"}`, 404 for `not found`, 400 for every other input error. */
import type Koa from 'koa';
import { AppError, ErrorCode } from '../../../errors.ts';
import type { Logger } from '../../../log.ts';

/** v3BadRequest is a 400 whose message is ae_mdw's error text (e.g. `invalid id: ak_x`). */
export function v3BadRequest(message: string): AppError {
  return new AppError(ErrorCode.API_BAD_REQUEST, 400, message);
}

/** v3NotFound is ae_mdw's 404 `not found: <what>`. */
export function v3NotFound(what: string): AppError {
  return new AppError(ErrorCode.API_NOT_FOUND, 404, `not found: ${what}`);
}

/**
 * v3Errors writes every failure under /v3 in ae_mdw's shape. Client errors carry their text;
 * database loss is a 503 and anything else a 500 with no internals, both logged.
 */
export function v3Errors(log: Logger): Koa.Middleware {
  return async function v3Errors(ctx, next) {
    try {
      await next();
    } catch (err) {
      const status = err instanceof AppError ? err.status : statusOf(err);
      const message =
        err instanceof AppError && err.status < 500
          ? err.message
          : status < 500
            ? (err as Error).message
            : status === 503
              ? 'unavailable'
              : 'internal error';
      if (status >= 500) log.error({ err, path: ctx.path }, 'v3 request failed');
      ctx.status = status;
      ctx.set('Cache-Control', 'no-store');
      ctx.type = 'application/json';
      ctx.body = JSON.stringify({ error: message });
    }
  };
}

function statusOf(err: unknown): number {
  const status = (err as { status?: unknown })?.status;
  if (typeof status === 'number' && status >= 400 && status < 500) return status;
  const code = (err as { code?: unknown })?.code;
  return code === 'ECONNREFUSED' || code === '57P01' || code === '57P03' ? 503 : 500;
}
