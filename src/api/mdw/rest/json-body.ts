/**
 * @module The JSON body of a route that reads one (the webhooks API, POST /v3/accounts/balances): parsed up to a
 * size, and a body in another content type refused 415 naming it. bodyparser leaves such a body unread, and the
 * route then answered about a missing field (`400 url: expected a string` for curl's `-d`, which sends a form).
 */
import { bodyParser } from '../../http/body-parser.ts';
import { AppError, ErrorCode } from '../../../base/errors.ts';
import type { ApiContext } from '../../http/state.ts';

/** JsonBody runs `handle` once the request's JSON body is at `ctx.request.body`. */
export type JsonBody = (ctx: ApiContext, handle: () => Promise<void> | void) => Promise<void>;

/** jsonBody reads JSON bodies of at most `limit` (bodyparser's size text, e.g. `64kb`). */
export function jsonBody(limit: string): JsonBody {
  const parse = bodyParser({ enableTypes: ['json'], jsonLimit: limit });
  return async (ctx, handle) => {
    // false: a body of another type; null: no body at all, which the route answers as a missing field
    if (ctx.is('json') === false)
      throw new AppError(
        ErrorCode.API_UNSUPPORTED_MEDIA_TYPE,
        415,
        `unsupported content type: ${ctx.request.type}; send the body as application/json`,
      );
    await parse(ctx, async () => {
      await handle();
    });
  };
}
