/** @module Dispatch of a router's parameterless routes by one map lookup, ahead of the router's scan of every route. */
import type Router from '@koa/router';
import type Koa from 'koa';

/**
 * exactRoutes answers a request whose method and path are those of a route without parameters
 * (`/v3/status`, `/v3/transactions`, …) by one map lookup, and hands every other request to the
 * router, which tests the path against each route's pattern in turn (about 70 under /v3: half of
 * what /v3/status, answered from memory, cost beyond bare Koa). A route is taken into the map only
 * when it is one handler and no other route or router middleware before it, and no router
 * middleware at all, matches its path, so every request reaches the handler the router would run;
 * the map sets `params` (none) and `_matchedRoute` (the request metrics' label) as the router does.
 */
export function exactRoutes(router: Router): Koa.Middleware {
  const routes = router.routes() as Koa.Middleware;
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
  return function exactRoute(ctx, next) {
    const route = exact.get(`${ctx.method} ${ctx.path}`);
    if (!route) return routes(ctx, next);
    ctx.params = {};
    (ctx as { _matchedRoute?: string })._matchedRoute = route.path;
    return route.handle(ctx, next);
  };
}
