/** @module How /v3 answers are written: pages with ae_mdw's links, single objects, and `int-as-string`. */
import type Koa from 'koa';
import { integersAsStrings, parseJson, stringifyJson, type Json } from '../../../chain/json.ts';
import { pageLink, type Page, type Query } from '../resources/page.ts';

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
 * Requests answered in process (GraphQL's fields, mdw/graphql/rest-call.ts) that take a page's items as values, not as the
 * JSON text a client reads: the value is kept here for the caller instead of being written and parsed again.
 */
const valueAnswers = new WeakMap<Koa.Context, { value?: Json }>();

/** answerAsValue marks a request whose lists of objects answer a value (answeredValue reads it), not JSON text. */
export function answerAsValue(ctx: Koa.Context): void {
  valueAnswers.set(ctx, {});
}

/** answeredValue is the value a request marked by answerAsValue was answered with (undefined: it answered text). */
export function answeredValue(ctx: Koa.Context): Json | undefined {
  return valueAnswers.get(ctx)?.value;
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
  const { next, prev } = pageLinks(ctx, page, encodeCursor, query);
  sendText(ctx, `{"data":[${page.items.join(',')}],"next":${JSON.stringify(next)},"prev":${JSON.stringify(prev)}}`);
}

/**
 * sendObjectPage is sendPage of items that are values: the page written in one stringify (sendPage's text, as one
 * call costs less than one per item), or the page's value itself for a request marked by answerAsValue (the same
 * page, never written as text).
 */
export function sendObjectPage<K>(
  ctx: Koa.Context,
  page: Page<K, Json>,
  encodeCursor: (key: K) => string,
  query: Query = givenQuery(ctx),
): void {
  const value = { data: page.items, ...pageLinks(ctx, page, encodeCursor, query) };
  const answer = valueAnswers.get(ctx);
  if (!answer) return sendText(ctx, stringifyJson(value));
  answer.value = value;
  ctx.status = 200;
}

function pageLinks<K>(
  ctx: Koa.Context,
  page: Page<K, unknown>,
  encodeCursor: (key: K) => string,
  query: Query,
): { next: string | null; prev: string | null } {
  const link = (c: Page<K, unknown>['next']): string | null =>
    c === undefined ? null : pageLink(ctx.path, query, encodeCursor(c.key), c.rev);
  return { next: link(page.next), prev: link(page.prev) };
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
