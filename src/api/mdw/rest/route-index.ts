/**
 * @module Dispatch of a router's routes by their static text: a parameterless route by one map lookup, any other by the
 * router's scan of only the routes whose static start the path begins with, never of the whole table.
 */
import Router from '@koa/router';
import type Koa from 'koa';

type Layer = Router['stack'][number];

/**
 * indexedRoutes runs what `router` would run for every request, without its scan of every route (90 under /v3, each a
 * pattern test and a debug call: more than half of the router's 2.8 µs a request, docs/benchmarks.md).
 * - A request whose method and path are those of a route without parameters (`/v3/status`, `/v3/transactions`, …) is
 *   answered by one map lookup, when the route is one handler and no other route or router middleware before it,
 *   and no router middleware at all, matches its path. The map sets `params` (none) and `_matchedRoute` (the request
 *   metrics' label) as the router does.
 * - Any other goes to a router of the routes whose static directory (`/v3/micro-blocks/` for
 *   `/v3/micro-blocks/:hash/txs`) is one of the path's, in the table's order: a route whose static start the path
 *   does not begin with cannot match it, so the routes matched, and what runs, are the whole router's.
 */
export function indexedRoutes(router: Router): Koa.Middleware {
  const routes = router.routes() as Koa.Middleware;
  const exact = exactRoutes(router);
  const byDirectory = directoryRouters(router);
  return function indexedRoute(ctx, next) {
    const route = exact.get(`${ctx.method} ${ctx.path}`);
    if (route) {
      ctx.params = {};
      (ctx as { _matchedRoute?: string })._matchedRoute = route.path;
      return route.handle(ctx, next);
    }
    return (deepestDirectory(byDirectory, ctx.path) ?? routes)(ctx, next);
  };
}

/** exactRoutes maps `METHOD path` to the route the router would run for it, for routes without parameters. */
function exactRoutes(router: Router): Map<string, { path: string; handle: Koa.Middleware }> {
  const exact = new Map<string, { path: string; handle: Koa.Middleware }>();
  router.stack.forEach((layer, i) => {
    const { path } = layer;
    const [handle, ...more] = layer.stack as Koa.Middleware[];
    if (typeof path !== 'string' || layer.paramNames.length > 0 || layer.methods.length === 0) return;
    if (!handle || more.length > 0) return;
    const shadowed = router.stack.some((other, j) => (j < i || other.methods.length === 0) && other.match(path));
    if (shadowed) return;
    for (const method of layer.methods) {
      const key = `${method} ${path}`;
      if (!exact.has(key)) exact.set(key, { path, handle });
    }
  });
  return exact;
}

/**
 * directoryRouters is, for each static directory of the routes, a router of the routes that may match a path in it:
 * those whose own directory it begins with. Lower case, as the router's patterns match whatever the case; a route
 * given as a regular expression has none and is in every one.
 */
function directoryRouters(router: Router): Map<string, Koa.Middleware> {
  const directories = router.stack.map(staticDirectory);
  const byDirectory = new Map<string, Koa.Middleware>();
  for (const directory of new Set(directories)) {
    const sub = new Router(router.opts);
    sub.stack = router.stack.filter((_, i) => directory.startsWith(directories[i]!));
    byDirectory.set(directory, sub.routes() as Koa.Middleware);
  }
  return byDirectory;
}

/**
 * staticDirectory is a route's text before its first parameter or pattern, up to its last `/`, in lower case; a route
 * without either is a directory of its own (it matches its path, with an ending slash too).
 */
export function staticDirectory(layer: Pick<Layer, 'path'>): string {
  if (typeof layer.path !== 'string') return '';
  const dynamic = layer.path.search(/[:*?{}()[\]\\]/);
  const text = (dynamic < 0 ? `${layer.path}/` : layer.path.slice(0, dynamic)).toLowerCase();
  return text.slice(0, text.lastIndexOf('/') + 1);
}

/** deepestDirectory is the router of the longest of `path`'s directories that has one, the path itself included. */
function deepestDirectory(byDirectory: Map<string, Koa.Middleware>, path: string): Koa.Middleware | undefined {
  const lower = `${path.toLowerCase()}/`;
  for (let end = lower.lastIndexOf('/'); end >= 0; end = lower.lastIndexOf('/', end - 1)) {
    const found = byDirectory.get(lower.slice(0, end + 1));
    if (found || end === 0) return found;
  }
  return undefined;
}

/**
 * routeTemplate is, for a method and path, the template of the route `router` would run (what it leaves as
 * `_matchedRoute`), without running it: a request refused before its turn is counted under the route it asked for.
 * One scan of the table: for refusals only, never on the way of an answer.
 */
export function routeTemplate(router: Router): (method: string, path: string) => string | undefined {
  return (method, path) => {
    // the first route that matches runs and answers (the router names each layer it runs, in turn)
    const layer = router.match(path, method).pathAndMethod.find((l) => l.methods.length > 0);
    return typeof layer?.path === 'string' ? layer.path : undefined;
  };
}
