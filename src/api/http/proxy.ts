/**
 * @module Forwarding to the node: method, path, query, body and end-to-end headers pass through
 * over a pool of keep-alive connections (streamed, outside http-get.ts); counted in the outbound metric as every
 * other request to the node, and its failures are the node's errors (node/errors.ts): a node that refused the request
 * for load (its 503, a 429) or could not be reached is our own 503 with a Retry-After, never the node's bare answer;
 * 504 for a timeout.
 */
import type {
  Agent as HttpAgent,
  ClientRequest,
  IncomingHttpHeaders,
  IncomingMessage,
  ServerResponse,
} from 'node:http';
import { Agent as HttpsAgent } from 'node:https';
import { Readable } from 'node:stream';
import type { ApiContext } from './state.ts';
// before koa-proxies (loaded with the first request forwarded), which loads http-proxy: its util._extend without
// Node's deprecation warning
import './util-extend.ts';
import type Koa from 'koa';
import type koaProxies from 'koa-proxies';
import vary from 'vary';
import { AppError, ErrorCode } from '../../base/errors.ts';
import type { Logger } from '../../base/log.ts';
import { http } from '../../base/node-http.ts';
import { badResponse, isRefusalStatus, timedOut, unreachable } from '../../node/errors.ts';
import { statusOutcome } from '../../node/http-get.ts';
import type { OutboundMetrics } from '../../node/outbound-metrics.ts';

/** Where and how long to forward. */
export interface NodeProxyOptions {
  readonly nodeUrl: string;
  /** the node's internal API; internal paths are refused while it is undefined */
  readonly nodeInternalUrl: string | undefined;
  readonly timeoutMs: number;
  readonly metrics: OutboundMetrics;
  readonly log: Logger;
  /** hears the body of every `POST /v2/transactions` (or /v3) the node accepted (tx_update reports it as pending) */
  readonly onTransactionPosted?: (body: string) => void;
}

/** forwardToNode sends the current request to the node and streams the node's answer back as it is. */
export type ForwardToNode = (ctx: ApiContext) => Promise<void>;

// Hop-by-hop headers (RFC 9110 §7.6.1) describe one connection and are never forwarded, nor is any
// header a message names in its own `Connection` field.
const HOP_BY_HOP = [
  'connection',
  'keep-alive',
  'proxy-authenticate',
  'proxy-authorization',
  'proxy-connection',
  'te',
  'trailer',
  'transfer-encoding',
  'upgrade',
];

/** hopByHopHeaders lists the headers of a message that end at this hop: the fixed ones and those its `Connection` names. */
export function hopByHopHeaders(headers: IncomingHttpHeaders): string[] {
  const named = String(headers.connection ?? '')
    .split(',')
    .map((h) => h.trim().toLowerCase())
    .filter((h) => h !== '');
  return [...new Set([...HOP_BY_HOP, ...named])];
}

/**
 * withoutNodeCors takes the node's CORS headers out of its answer's headers (the node allows every origin, with
 * credentials): the answer goes out with the middleware's own (CORS_ORIGINS, set before the request was forwarded)
 * and no other. The node's `Vary` is kept, added to ours (`Origin`) rather than replacing it. Pure but for `headers`.
 */
export function withoutNodeCors(headers: IncomingHttpHeaders, ourVary: string): void {
  for (const name of Object.keys(headers)) if (name.startsWith('access-control-')) delete headers[name];
  const theirs = headers.vary;
  if (theirs !== undefined) headers.vary = vary.append(ourVary, theirs);
}

/** Connections to the node are reused; at most this many per node at once. */
const MAX_SOCKETS_PER_NODE = 256;
/**
 * An idle pooled connection is closed after this long (unless the node's `Keep-Alive: timeout`
 * says sooner): before the node's own idle timeout (cowboy's 60 s), so a request is never sent on
 * a connection the node is closing.
 */
const IDLE_SOCKET_TIMEOUT_MS = 30_000;

/**
 * The largest request body forwarded (a posted transaction or a dry-run is far smaller); a bigger one is a 413. A body
 * is read whole before the leg to the node starts: streamed, a client trickling its body held one of the
 * MAX_SOCKETS_PER_NODE connections to the node for as long as it liked, and 300 such clients stalled every
 * forwarded request (36 s for /v2/status).
 */
const MAX_FORWARDED_BODY_BYTES = 8 * 1024 * 1024;

const LEG = Symbol('mdw.proxy.leg');
const BODY = Symbol('mdw.proxy.body');
type Tagged = IncomingMessage & {
  /**
   * what the leg to the node came to: the node's status, or an error or a timeout; `refused` is told of a refusal for
   * load (its answer is not passed on), with its Retry-After
   */
  [LEG]?: {
    error?: NodeJS.ErrnoException;
    timedOut?: boolean;
    status?: number;
    retryAfter?: string;
    refused?: () => void;
  };
  /** the request's body, read whole before the leg to the node starts */
  [BODY]?: Buffer;
};
/** A posted transaction bigger than this is forwarded but not reported as pending (the node takes far smaller ones). */
const MAX_POSTED_TX_BYTES = 1024 * 1024;

/**
 * normalisedPath is the path as a lenient server may read it: percent-decoded once, a backslash
 * taken as `/`, empty and `.` segments dropped, `..` applied, lower case. The internal-API guard decides on
 * this form, so `/v2//debug/…`, `/v2/%64ebug/…` and `/v2/Debug/…` are internal paths too.
 */
export function normalisedPath(path: string): string {
  let decoded = path;
  try {
    decoded = decodeURIComponent(path);
  } catch {
    // malformed escapes stay as they are (invalid UTF-8 was refused before any route)
  }
  const segments: string[] = [];
  for (const segment of decoded.toLowerCase().split(/[/\\]/)) {
    if (segment === '' || segment === '.') continue;
    if (segment === '..') segments.pop();
    else segments.push(segment);
  }
  return `/${segments.join('/')}`;
}

/** isInternalPath is true for the node's internal-port API, in /v2 and /v3: debug builders and key block submission. */
export function isInternalPath(method: string, path: string): boolean {
  const p = normalisedPath(path).replace(/^\/v3(?=\/|$)/, '/v2');
  return p === '/v2/debug' || p.startsWith('/v2/debug/') || (method.toUpperCase() === 'POST' && p === '/v2/key-blocks');
}

/**
 * withoutApiKey is a request URL without its `apikey` query parameters (however encoded: `api%6Bey` is one too), the
 * rest of its query byte for byte as sent. A client's key is ours to check (quota-middleware.ts), never the node's to
 * see nor its logs to keep. Pure.
 */
export function withoutApiKey(url: string): string {
  const q = url.indexOf('?');
  if (q < 0) return url;
  const parts = url.slice(q + 1).split('&');
  const kept = parts.filter((part) => new URLSearchParams(part.split('=', 1)[0]).keys().next().value !== 'apikey');
  if (kept.length === parts.length) return url;
  return kept.length === 0 ? url.slice(0, q) : `${url.slice(0, q)}?${kept.join('&')}`;
}

/** createNodeProxy builds the forwarder used by the catch-all and by cached routes on a miss. */
export function createNodeProxy(opts: NodeProxyOptions): ForwardToNode {
  const agents = new Map<string, HttpAgent>();
  const agentFor = (url: string): HttpAgent => {
    let agent = agents.get(url);
    if (!agent) {
      const options = { keepAlive: true, maxSockets: MAX_SOCKETS_PER_NODE, timeout: IDLE_SOCKET_TIMEOUT_MS };
      agent = url.startsWith('https:') ? new HttpsAgent(options) : new http.Agent(options);
      agents.set(url, agent);
    }
    return agent;
  };
  const meter = opts.metrics.meter('node', 'forward');
  const events = {
    proxyReq(proxyReq: ClientRequest, req: IncomingMessage) {
      proxyReq.on('timeout', () => {
        leg(req).timedOut = true;
      });
    },
    proxyRes(proxyRes: IncomingMessage, req: IncomingMessage, res: ServerResponse) {
      const answer = leg(req);
      answer.status = proxyRes.statusCode;
      if (isRefusalStatus(proxyRes.statusCode ?? 0)) {
        // the node's refusal for load is answered as ours (forwardToNode), its body dropped
        const value = proxyRes.headers['retry-after'];
        answer.retryAfter = Array.isArray(value) ? value[0] : value;
        proxyRes.resume();
        answer.refused?.();
        return;
      }
      for (const h of hopByHopHeaders(proxyRes.headers)) delete proxyRes.headers[h];
      withoutNodeCors(proxyRes.headers, String(res.getHeader('vary') ?? ''));
      // The client's connection is this server's to keep or close, as it decided from the client's request: left
      // unset, http-proxy writes `keep-alive` (the client's `Connection` is gone by now), and a client that asked for
      // `close` had its socket kept open.
      proxyRes.headers.connection = res.shouldKeepAlive ? 'keep-alive' : 'close';
      const body = (req as Tagged)[BODY];
      if (body && proxyRes.statusCode === 200 && isTransactionPost(req) && body.length <= MAX_POSTED_TX_BYTES)
        opts.onTransactionPosted?.(body.toString('utf8'));
      passOn(proxyRes, res);
    },
    error(error: NodeJS.ErrnoException, req: IncomingMessage) {
      leg(req).error = error;
    },
  };
  const options: koaProxies.IKoaProxiesOptions = (_params, ctx) =>
    ({
      ...bodyOption(ctx.req as Tagged),
      target: isInternalPath(ctx.method, ctx.path) ? opts.nodeInternalUrl! : opts.nodeUrl,
      agent: agentFor(isInternalPath(ctx.method, ctx.path) ? opts.nodeInternalUrl! : opts.nodeUrl),
      changeOrigin: true,
      rewrite: withoutApiKey,
      proxyTimeout: opts.timeoutMs,
      // the answer is written here (proxyRes, passOn), so that a refusal can be answered otherwise
      selfHandleResponse: true,
      events,
    }) as koaProxies.IBaseKoaProxiesOptions;
  // koa-proxies and http-proxy (about 25 modules, 0.05 CPU-s) load with the first request forwarded: a server that
  // forwards none (most test servers, a /mdw-only deployment) does without them
  let toNode: Promise<Koa.Middleware> | undefined;
  const forwarder = (): Promise<Koa.Middleware> =>
    (toNode ??= import('koa-proxies').then(({ default: proxies }) => proxies('/', options)));

  return async function forwardToNode(ctx) {
    if (isInternalPath(ctx.method, ctx.path) && opts.nodeInternalUrl === undefined) {
      throw new AppError(
        ErrorCode.API_NOT_FOUND,
        404,
        "the node's internal API is not forwarded by this middleware (NODE_INTERNAL_URL is unset)",
      );
    }
    const forward = await forwarder();
    const hasBody =
      ctx.req.headers['content-length'] !== undefined || ctx.req.headers['transfer-encoding'] !== undefined;
    const body = hasBody ? await wholeBody(ctx.req) : undefined;
    (ctx.req as Tagged)[BODY] = body;
    const sentAt = performance.now();
    ctx.state.forwarded = true;
    // Both before the node leg exists, not in its proxyReq event: that event comes when the leg gets a socket, which a
    // leg queued behind the agent's busy sockets gets after its headers and body are written (removing a header then
    // throws, uncaught). http-proxy copies the request's headers into the leg's; the agent sets the leg's own
    // `Connection: keep-alive`.
    for (const h of hopByHopHeaders(ctx.req.headers)) delete ctx.req.headers[h];
    // a client's API key is ours to check (quota-middleware.ts), never the node's to see (its apikey= goes in rewrite)
    delete ctx.req.headers['x-api-key'];
    if (body) ctx.req.headers['content-length'] = String(body.length);
    let clientLeft = false;
    const refusal = new Promise<void>((resolve) => (leg(ctx.req).refused = resolve));
    // after a refusal the leg's promise settles with the client's answer (ours): nobody waits for it then
    const proxied = forward(ctx, async () => {});
    proxied.catch(() => {});
    try {
      await Promise.race([proxied, refusal]);
    } catch (err) {
      // koa-proxies rejects when the answer's connection closes before it is written out: the client hung up, or the
      // node's leg failed (told below). Neither is a bug to log with its stack, once for every client that leaves.
      if (ctx.res.writableFinished) throw err;
      clientLeft = true;
    }
    const { error, timedOut: late, status, retryAfter } = leg(ctx.req);
    const failed = late === true || error !== undefined;
    const outcome = late ? 'timeout' : error ? 'unreachable' : clientLeft ? 'aborted' : statusOutcome(status ?? 0);
    meter(outcome, (performance.now() - sentAt) / 1000);
    if (!failed && !clientLeft && status !== undefined && isRefusalStatus(status))
      throw badResponse(ctx.path, `node refused ${ctx.path}: ${status}`, status, retryAfter);
    if (!failed) {
      if (clientLeft) opts.log.debug({ path: ctx.path }, 'the client left before the node answered');
      ctx.respond = false;
      return;
    }
    // a detail: the error boundary tells the node's outage, which logs its loss and return once each
    opts.log.debug({ path: ctx.path, outcome, err: error?.code ?? error?.message }, 'node request failed');
    if (ctx.res.headersSent) {
      ctx.res.destroy();
      ctx.respond = false;
      return;
    }
    throw late ? timedOut(ctx.path, opts.timeoutMs) : unreachable(ctx.path, error);
  };
}

/**
 * passOn writes the node's answer to the client as http-proxy would (its web-outgoing passes that apply: the status and
 * the headers left, then the body streamed).
 */
function passOn(proxyRes: IncomingMessage, res: ServerResponse): void {
  for (const [name, value] of Object.entries(proxyRes.headers)) if (value !== undefined) res.setHeader(name, value);
  res.statusCode = proxyRes.statusCode ?? 502;
  if (proxyRes.statusMessage) res.statusMessage = proxyRes.statusMessage;
  proxyRes.pipe(res);
}

/** isTransactionPost is true for a client posting a signed transaction to the node (its /v2 or /v3). */
function isTransactionPost(req: IncomingMessage): boolean {
  const path = normalisedPath(new URL(req.url ?? '/', 'http://x').pathname);
  return req.method === 'POST' && (path === '/v2/transactions' || path === '/v3/transactions');
}

/** wholeBody reads a request's body, at most MAX_FORWARDED_BODY_BYTES (a 413 beyond). */
async function wholeBody(req: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > MAX_FORWARDED_BODY_BYTES)
      throw new AppError(
        ErrorCode.API_PAYLOAD_TOO_LARGE,
        413,
        `request body larger than ${MAX_FORWARDED_BODY_BYTES} bytes`,
      );
    chunks.push(chunk);
  }
  return Buffer.concat(chunks);
}

/** bodyOption has http-proxy send the body read before, instead of piping the request (already consumed). */
function bodyOption(req: Tagged): { buffer?: Readable } {
  const body = req[BODY];
  return body ? { buffer: Readable.from([body]) } : {};
}

function leg(req: IncomingMessage): NonNullable<Tagged[typeof LEG]> {
  const tagged = req as Tagged;
  return (tagged[LEG] ??= {});
}
