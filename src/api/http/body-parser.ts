/**
 * @module @koa/bodyparser, loaded by the first request whose body a route reads: the package (co-body, qs and its
 * get-intrinsic tree, about 60 modules) cost each `mdw -s` start about 0.06 CPU-s, for the few routes that take a body
 * (GraphQL, the webhooks API, the balances' POST, the contracts' verification).
 */
import type Koa from 'koa';
import type { bodyParser as BodyParser } from '@koa/bodyparser';

type Options = Parameters<typeof BodyParser>[0];
type Parse = ReturnType<typeof BodyParser>;

let loaded: Promise<typeof BodyParser> | undefined;

/** bodyParser is @koa/bodyparser's middleware with `options`, the package loaded when it first runs. */
export function bodyParser(options: Options): Parse {
  let parse: Parse | undefined;
  return async (ctx: Koa.Context, next: Koa.Next) => {
    parse ??= (await (loaded ??= import('@koa/bodyparser').then((m) => m.bodyParser)))(options);
    return parse(ctx, next);
  };
}
