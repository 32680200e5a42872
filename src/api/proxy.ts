/** @module Forwarding to the node: method, path, query, body and end-to-end headers pass through; failures become 502/504. */
import type { ClientRequest, IncomingMessage } from 'node:http';
import type Koa from 'koa';
import koaProxies from 'koa-proxies';
import { AppError, ErrorCode } from '../errors.ts';
import type { Logger } from '../log.ts';
import type { ApiMetrics } from './metrics.ts';

/** Where and how long to forward. */
export interface NodeProxyOptions {
  readonly nodeUrl: string;
  /** the node's internal API; internal paths are refused while it is undefined */
  readonly nodeInternalUrl: string | undefined;
  readonly timeoutMs: number;
  readonly metrics: ApiMetrics;
  readonly log: Logger;
}

/** forwardToNode sends the current request to the node and streams the node's answer back as it is. */
export type ForwardToNode = (ctx: Koa.Context) => Promise<void>;

// Hop-by-hop headers (RFC 9110 §7.6.1) describe one connection and are never forwarded; http-proxy
// itself manages `connection` and `transfer-encoding` for the two legs.
const HOP_BY_HOP = [
  'keep-alive',
  'proxy-authenticate',
  'proxy-authorization',
  'proxy-connection',
  'te',
  'trailer',
  'upgrade',
];
const FAILURE = Symbol('mdw.proxy.failure');
type Tagged = IncomingMessage & { [FAILURE]?: { error?: NodeJS.ErrnoException; timedOut?: boolean } };

/** isInternalPath is true for the node's internal-port API: debug builders and key block submission. */
export function isInternalPath(method: string, path: string): boolean {
  return (
    path === '/v2/debug' || path.startsWith('/v2/debug/') || (method === 'POST' && /^\/v2\/key-blocks\/?$/.test(path))
  );
}

/** createNodeProxy builds the forwarder used by the catch-all and by cached routes on a miss. */
export function createNodeProxy(opts: NodeProxyOptions): ForwardToNode {
  const events = {
    proxyReq(proxyReq: ClientRequest, req: IncomingMessage) {
      for (const h of HOP_BY_HOP) proxyReq.removeHeader(h);
      proxyReq.on('timeout', () => {
        failure(req).timedOut = true;
      });
    },
    proxyRes(proxyRes: IncomingMessage) {
      for (const h of HOP_BY_HOP) delete proxyRes.headers[h];
    },
    error(error: NodeJS.ErrnoException, req: IncomingMessage) {
      failure(req).error = error;
    },
  };
  const toNode = koaProxies(
    '/',
    (_params, ctx) =>
      ({
        target: isInternalPath(ctx.method, ctx.path) ? opts.nodeInternalUrl! : opts.nodeUrl,
        changeOrigin: true,
        proxyTimeout: opts.timeoutMs,
        events,
      }) as koaProxies.IBaseKoaProxiesOptions,
  );

  return async function forwardToNode(ctx) {
    if (isInternalPath(ctx.method, ctx.path) && opts.nodeInternalUrl === undefined) {
      throw new AppError(
        ErrorCode.API_NOT_FOUND,
        404,
        "the node's internal API is not forwarded by this middleware (NODE_INTERNAL_URL is unset)",
      );
    }
    const end = opts.metrics.nodeDuration.startTimer();
    ctx.state.forwarded = true;
    await toNode(ctx, async () => {});
    const failed = (ctx.req as Tagged)[FAILURE];
    if (!failed) {
      end({ outcome: 'answered' });
      ctx.respond = false;
      return;
    }
    const kind = failed.timedOut ? 'timeout' : 'unreachable';
    end({ outcome: kind });
    opts.metrics.nodeErrors.inc({ kind });
    opts.log.warn({ path: ctx.path, kind, err: failed.error?.code ?? failed.error?.message }, 'node request failed');
    if (ctx.res.headersSent) {
      ctx.res.destroy();
      ctx.respond = false;
      return;
    }
    if (failed.timedOut)
      throw new AppError(ErrorCode.NODE_TIMEOUT, 504, `the node did not answer within ${opts.timeoutMs} ms`);
    throw new AppError(ErrorCode.NODE_UNREACHABLE, 502, 'the node is unreachable');
  };
}

function failure(req: IncomingMessage): NonNullable<Tagged[typeof FAILURE]> {
  const tagged = req as Tagged;
  return (tagged[FAILURE] ??= {});
}
