/** @module How /v3 answers are written: pages with ae_mdw's links, single objects, and `int-as-string`. */
import type Koa from 'koa';
import { integersAsStrings, parseJson, stringifyJson } from '../../../chain/json.ts';
import { pageLink, type Page, type Query } from './page.ts';

/** The parameters of requests whose scope the router read anew (ae_mdw's `transaction:` scope, as txis). */
const givenQueries = new WeakMap<Koa.Context, Query>();

/** keepGivenQuery records the parameters a request came with before the router rewrote them: its links carry those. */
export function keepGivenQuery(ctx: Koa.Context, query: Query): void {
  givenQueries.set(ctx, query);
}

/** givenQuery is the parameters the request came with (what its page links carry). */
export function givenQuery(ctx: Koa.Context): Query {
  return givenQueries.get(ctx) ?? ctx.query;
}

/** scopeGivenAsTransactions is true when the request's `txi:` scope was given as `transaction:th_A-th_B`. */
export function scopeGivenAsTransactions(ctx: Koa.Context): boolean {
  return givenQueries.has(ctx);
}

/**
 * sendPage writes `{"data": [...], "next": link|null, "prev": link|null}`; items are JSON texts.
 * Links carry the request's parameters, or `query` where given.
 */
export function sendPage<K>(
  ctx: Koa.Context,
  page: Page<K, string>,
  encodeCursor: (key: K) => string,
  query: Query = givenQuery(ctx),
): void {
  const link = (c: Page<K, string>['next']): string | null =>
    c === undefined ? null : pageLink(ctx.path, query, encodeCursor(c.key), c.rev);
  const next = link(page.next);
  const prev = link(page.prev);
  sendText(ctx, `{"data":[${page.items.join(',')}],"next":${JSON.stringify(next)},"prev":${JSON.stringify(prev)}}`);
}

/** sendValue writes one value (bigints as bare integers). */
export function sendValue(ctx: Koa.Context, value: unknown): void {
  sendText(ctx, stringifyJson(value));
}

/** sendText writes JSON that is already text. */
export function sendText(ctx: Koa.Context, json: string): void {
  ctx.status = 200;
  ctx.type = 'application/json';
  ctx.body = json;
}

/**
 * intAsString rewrites a JSON answer with every integer as a string when the request asks for
 * `int-as-string` (any value but `false`, as ae_mdw reads it), for clients whose JSON loses digits.
 */
export function intAsString(): Koa.Middleware {
  return async function intAsString(ctx, next) {
    await next();
    const flag = ctx.query['int-as-string'];
    if (flag === undefined || flag === 'false' || typeof ctx.body !== 'string') return;
    ctx.body = stringifyJson(integersAsStrings(parseJson(ctx.body)));
  };
}
