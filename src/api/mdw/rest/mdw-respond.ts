/** @module How REST writes a resource's answer: a page as ae_mdw's envelope with its links, a value as it is; `int-as-string`. */
import type Koa from 'koa';
import { integersAsStrings, parseJson, stringifyJson } from '../../../chain/json.ts';
import { pageLink, type Query } from '../resources/page.ts';
import { ItemsPage, type Answer, type PagePosition } from '../resources/resource.ts';

/** sendAnswer writes a resource's answer to a request (its path and `query` make a page's links). */
export function sendAnswer(ctx: Koa.Context, answer: Answer, query: Query): void {
  ctx.status = 200;
  ctx.type = 'application/json';
  ctx.body = answerText(answer, ctx.path, query);
}

/**
 * answerText is an answer as REST writes it: a page as `{"data": [...], "next": link|null, "prev": link|null}`, its
 * links `path` with `query` (the parameters the request came with) or with the page's own link query; any other value
 * as it is. Integers are exact.
 */
export function answerText(answer: Answer, path: string, query: Query): string {
  if (!(answer instanceof ItemsPage)) return stringifyJson(answer);
  const linkQuery = answer.linkQuery ?? query;
  const link = (p: PagePosition | undefined): string | null =>
    p === undefined ? null : pageLink(path, linkQuery, p.cursor, p.rev);
  return stringifyJson({ data: answer.items, next: link(answer.next), prev: link(answer.prev) });
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
