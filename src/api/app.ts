/** @module The HTTP API as a Koa app (no listen inside): cached node queries, middleware queries, forwarding, health, metrics. */
import Koa from 'koa';
import type { ApiMiddleware, ApiState } from './http/state.ts';
import compress from 'koa-compress';
import type prom from 'prom-client';
import { notFound } from '../base/errors.ts';
import { COMPRESS_THRESHOLD } from './http/content-encoding.ts';
import { createApiMetrics, type ApiMetrics } from './http/metrics.ts';
import { aeHeight } from './http/middleware/ae-height.ts';
import { cacheHeaders } from './http/middleware/cache-headers.ts';
import { topHeight } from '../db/queries/blocks.ts';
import { readServedTop } from './status/served-top.ts';
import { corsMethods, corsPolicy } from './http/middleware/cors-policy.ts';
import { errorBoundary } from './http/middleware/error-boundary.ts';
import { requestMetrics } from './http/middleware/request-metrics.ts';
import { responseCache } from './http/middleware/cached-answers.ts';
import { validText } from './http/middleware/valid-text.ts';
import { NodeHeight } from './http/node-height.ts';
import { pingDatabase, poolBusy, readiness, type ServerPhase } from './http/readiness.ts';
import { KeptReadiness } from './http/kept-readiness.ts';
import { Admission, admissionLimits } from './http/admission.ts';
import type { HeapTrim } from './http/heap-trim.ts';
import { createNodeProxy } from './http/proxy.ts';
import { apiRouters } from './legacy/legacy-api.ts';
import { swaggerUiRoutes } from './http/swagger-ui.ts';
import { v3Api } from './mdw/mdw-api.ts';
import { v3Methods } from './mdw/rest/rest-routes.ts';
import type { ApiAccess } from './quota/api-access.ts';
import type { RouteDeps } from './http/route-deps.ts';
import { apiQuota } from './quota/quota-middleware.ts';

/**
 * What the app needs: the parts of RouteDeps it hands its routes, and its own. The pool's search_path is the data
 * generation's schema; whoever passes a response cache must invalidate it on rollbacks; without an admission the app
 * makes one sized to the pool.
 */
export interface AppDeps extends Pick<
  RouteDeps,
  | 'cfg'
  | 'log'
  | 'pool'
  | 'primary'
  | 'writes'
  | 'replicas'
  | 'version'
  | 'responseCache'
  | 'listener'
  | 'outages'
  | 'admission'
> {
  readonly registry: prom.Registry;
  /** hears every transaction a client posted through our forwarding and the node accepted */
  readonly onTransactionPosted?: (body: string) => void;
  /** the server's trims after bursts, counted in /metrics */
  readonly heapTrim?: HeapTrim;
  /** API keys and quotas, started (API_KEYS on); absent: no request is counted, as before keys existed */
  readonly access?: ApiAccess;
  /** where the server is in its life: /readyz answers 503 while it starts or stops (absent: always serving) */
  readonly phase?: () => ServerPhase;
}

/** createApp wires the middleware chain; the caller listens (`app.callback()` in tests). */
export function createApp(deps: AppDeps): Koa {
  const { cfg, log, pool, registry } = deps;
  const metrics = createApiMetrics(registry);
  const nodeHeight = new NodeHeight({
    urls: cfg.nodeUrls,
    timeoutMs: cfg.nodeTimeoutMs,
    log,
    outage: deps.outages?.node,
    metrics: metrics.outbound,
  });
  metrics.watch(pool, nodeHeight);
  if (deps.replicas) metrics.watchReplicas(deps.replicas);
  const admission = deps.admission ?? new Admission(admissionLimits(cfg.databasePoolSize));
  metrics.watchAdmission(admission);
  if (deps.heapTrim) metrics.watchHeapTrim(deps.heapTrim);
  const forward = createNodeProxy({
    nodeUrl: cfg.nodeUrl,
    nodeInternalUrl: cfg.nodeInternalUrl,
    timeoutMs: cfg.nodeTimeoutMs,
    metrics: metrics.outbound,
    log,
    onTransactionPosted: deps.onTransactionPosted,
  });
  const app = new Koa<ApiState>();
  app.silent = true;

  const compressor = compress({ threshold: COMPRESS_THRESHOLD });
  app.use(requestMetrics(metrics));
  // CORS headers go on every answer, errors and forwarded ones included (the error boundary is inside); a page may
  // send every method the /mdw/v3 route table answers
  app.use(corsPolicy(cfg.corsOrigins, corsMethods(v3Methods())));
  // keys and quotas before any answer, the memory hits included; its refusals carry the CORS headers
  if (deps.access) app.use(apiQuota(deps.access));
  // outside the memory hits, which are answers of the node's API too
  app.use(aeHeight({ top: () => readServedTop(pool, deps.replicas, topHeight), nodeV3: cfg.rootV3 === 'node' }));
  // Memory hits are answered here, before the rest of the chain (see responseCache).
  if (deps.responseCache) {
    metrics.watchCache(deps.responseCache);
    app.use(responseCache(deps.responseCache, compressor, cfg.rootV3 === 'node'));
  }
  app.use(errorBoundary({ log, outages: deps.outages, shed: metrics.shed }));
  app.use(validText());
  app.use(compressor);
  app.use(cacheHeaders({ db: pool, forkWindow: cfg.forkWindow }));
  app.use(operations(deps, admission, metrics));
  const routeDeps = {
    cfg,
    log,
    pool,
    primary: deps.primary,
    writes: deps.writes,
    replicas: deps.replicas,
    metrics,
    forward,
    nodeHeight,
    version: deps.version,
    responseCache: deps.responseCache,
    listener: deps.listener,
    outages: deps.outages,
    admission,
  };
  // Swagger UI at /mdw/swagger, /mdw/v3/swagger and /middleware/swagger, before ae_mdw's API claims every path under /mdw
  app.use(swaggerUiRoutes().routes());
  // ae_mdw's API answers every path under /mdw itself (errors in its own shape); nothing there is forwarded.
  app.use(v3Api(routeDeps));
  for (const router of apiRouters(routeDeps)) app.use(router.routes());
  app.use(async function forwardRest(ctx) {
    if (ctx.path === '/middleware' || ctx.path.startsWith('/middleware/')) throw notFound('Not found');
    await forward(ctx);
  });
  return app;
}

/**
 * operations serves /healthz (the process answers), /readyz (the process can serve: see readiness) and /metrics, each
 * counted in the metrics under its path.
 */
function operations(deps: AppDeps, admission: Admission, metrics: ApiMetrics): ApiMiddleware {
  const pinged = new KeptReadiness({
    ping: () => pingDatabase(deps.pool),
    loaded: () => admission.counts.waiting > 0,
    busy: () => poolBusy(deps.pool),
    log: deps.log.child({ component: 'readiness' }),
    metrics: metrics.readiness,
  });
  return async function operations(ctx, next) {
    if (ctx.method !== 'GET' && ctx.method !== 'HEAD') return next();
    if (ctx.path === '/healthz') {
      ctx.body = { alive: true };
    } else if (ctx.path === '/readyz') {
      const phase = deps.phase?.() ?? 'serving';
      const answer = await readiness(phase, deps.outages?.database, replicaLag(deps), () => pinged.current());
      ctx.status = answer.ready ? 200 : 503;
      ctx.body = answer;
    } else if (ctx.path === '/metrics') {
      ctx.type = deps.registry.contentType;
      ctx.body = await deps.registry.metrics();
    } else {
      return next();
    }
    ctx.state.route = ctx.path;
    ctx.set('Cache-Control', 'no-store');
  };
}

/** replicaLag is the lag /readyz judges when reads go to replicas: the least lagging one's, against the bound. */
function replicaLag(deps: AppDeps): { seconds: number | null; maxSeconds: number } | undefined {
  return deps.replicas && { seconds: deps.replicas.lagSeconds(), maxSeconds: deps.cfg.readReplicaMaxLagSeconds };
}
