/** @module A small JSON router on node:http for the devnode's two listeners: lossless bodies, `{reason}` errors. */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { parseJson, stringifyJson, type Json } from '../../chain/json.ts';
import type { Logger } from '../../base/log.ts';
import type { Pacer } from './pacing.ts';

/** Reply is a status and a JSON body already serialised, with the headers it needs besides (a 503's Retry-After). */
export interface Reply {
  readonly status: number;
  readonly body: string;
  readonly headers?: Readonly<Record<string, string>>;
}

/** RouteRequest is what a handler sees: path parameters, query string and the parsed body. */
export interface RouteRequest {
  readonly params: readonly string[];
  readonly query: URLSearchParams;
  readonly body: Json | undefined;
}

/** Route binds a method and a path pattern (`:name` segments) to a handler. */
export interface Route {
  readonly method: 'GET' | 'POST';
  readonly path: string;
  readonly handler: (req: RouteRequest) => Reply | Promise<Reply>;
  /**
   * jsonOnly: the node's REST layer takes the body as `application/json` only, and answers another content type (or
   * none: no body) 415 with no body, before the handler (a real 7.2.2 node's dry-runs and transactions)
   */
  readonly jsonOnly?: boolean;
}

/** alsoUnderV3 serves each /v2 route under /v3 as well: the node's handlers answer both of its APIs alike. */
export function alsoUnderV3(routes: readonly Route[]): Route[] {
  const v3 = routes.filter((r) => r.path.startsWith('/v2/')).map((r) => ({ ...r, path: `/v3${r.path.slice(3)}` }));
  return [...routes, ...v3];
}

/** HttpError is an error answer with the node's `{reason, …}` body (a client's error, or one the node gives itself). */
export class HttpError extends Error {
  override readonly name = 'HttpError';
  readonly status: number;
  readonly body: { [k: string]: Json };

  constructor(status: number, reason: string, extra: { [k: string]: Json } = {}) {
    super(reason);
    this.status = status;
    this.body = { reason, ...extra };
  }
}

/** ok is a 200 reply of a JSON value. */
export function ok(value: unknown): Reply {
  return { status: 200, body: typeof value === 'string' ? value : stringifyJson(value) };
}

/** validationError is the node's swagger-layer 400 (`reason: validation_error`). */
export function validationError(parameter: string, error: string, data?: Json): HttpError {
  return new HttpError(400, 'validation_error', { parameter, info: data === undefined ? { error } : { error, data } });
}

const MAX_BODY = 1 << 20;

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (c: Buffer) => {
      size += c.length;
      if (size > MAX_BODY) reject(new HttpError(413, 'body_too_big'));
      else chunks.push(c);
    });
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}

type CompiledRoute = Route & { readonly regex: RegExp };

/** firstSegments is a path's first two segments (`/v2/micro-blocks` of `/v2/micro-blocks/hash/mh_…/header`). */
function firstSegments(path: string): string {
  const second = path.indexOf('/', 1);
  const third = second < 0 ? -1 : path.indexOf('/', second + 1);
  return third < 0 ? path : path.slice(0, third);
}

/**
 * RouteTable finds the routes a path may match: those with the path's first two segments, in the routes' order (a
 * request tries a handful of patterns instead of every one: the search was a tenth of the devnode's own work per
 * answer). A route with a parameter in its first two segments would match any, so then every route is tried.
 */
class RouteTable {
  readonly #all: readonly CompiledRoute[];
  readonly #byPrefix = new Map<string, CompiledRoute[]>();
  readonly #anyPrefix: boolean;

  constructor(routes: readonly Route[]) {
    this.#all = routes.map((r) => ({ ...r, regex: new RegExp(`^${r.path.replace(/:[a-z_]+/g, '([^/]+)')}$`) }));
    this.#anyPrefix = this.#all.some((r) => firstSegments(r.path).includes(':'));
    for (const r of this.#all) {
      const key = firstSegments(r.path);
      const list = this.#byPrefix.get(key);
      if (list) list.push(r);
      else this.#byPrefix.set(key, [r]);
    }
  }

  /** candidates are the routes that may match `path`, in order. */
  candidates(path: string): readonly CompiledRoute[] {
    return this.#anyPrefix ? this.#all : (this.#byPrefix.get(firstSegments(path)) ?? []);
  }
}

function parseUrl(raw: string | undefined): URL {
  try {
    return new URL(raw ?? '/', 'http://devnode');
  } catch {
    throw new HttpError(400, 'Invalid request path');
  }
}

function decodeParam(raw: string): string {
  try {
    return decodeURIComponent(raw);
  } catch {
    throw new HttpError(400, 'Invalid request path');
  }
}

/**
 * corsHeaders are the node's CORS headers (aehttp_cors_middleware with its defaults: every origin allowed): sent
 * only to a request that names its origin, echoing it, with the headers a preflight asks for.
 */
export function corsHeaders(origin: string | undefined, requestHeaders: string | undefined): Record<string, string> {
  if (origin === undefined) return {};
  return {
    vary: 'origin',
    'access-control-allow-origin': origin,
    'access-control-allow-methods': 'DELETE, GET, HEAD, OPTIONS, PATCH, POST, PUT',
    'access-control-allow-credentials': 'true',
    'access-control-expose-headers': 'retry-after, x-ae-height',
    'access-control-max-age': '1800',
    ...(requestHeaders === undefined ? {} : { 'access-control-allow-headers': requestHeaders }),
  };
}

function send(res: ServerResponse, reply: Reply, stamped: Record<string, string>): void {
  // the node's router and REST layer answer an unknown path or method with no body at all
  const type: Record<string, string> = reply.body === '' ? {} : { 'content-type': 'application/json' };
  res.writeHead(reply.status, {
    ...stamped,
    ...reply.headers,
    ...type,
    'content-length': Buffer.byteLength(reply.body),
  });
  res.end(reply.body);
}

/** OPTIONS is answered before routing, as the node's CORS middleware does: 200, no body. */
const PREFLIGHT: Reply = { status: 200, body: '' };

/**
 * noRoute is the answer to a path no route has (404) or a method its routes lack (405): the node's, with no body,
 * except under /v2, where the devnode has always said why in a `{reason}` (and its clients read it).
 */
function noRoute(path: string, pathMatched: boolean): Reply {
  const status = pathMatched ? 405 : 404;
  if (path !== '/v2' && !path.startsWith('/v2/')) return { status, body: '' };
  return { status, body: pathMatched ? '{"reason":"Method not allowed"}' : '{"reason":"Not found"}' };
}

/** UNSUPPORTED_MEDIA_TYPE: the node's answer to a body that is not `application/json` (Route.jsonOnly). */
const UNSUPPORTED_MEDIA_TYPE: Reply = { status: 415, body: '' };

/** isJson says whether a `content-type` header is `application/json` (parameters such as a charset aside). */
const isJson = (contentType: string | undefined): boolean =>
  contentType?.split(';')[0]!.trim().toLowerCase() === 'application/json';

/** answer computes the reply to one request: the route's, or the node's 404/405/400/500. */
async function answer(table: RouteTable, req: IncomingMessage, log: Logger): Promise<Reply> {
  try {
    const url = parseUrl(req.url);
    const path = url.pathname.length > 1 ? url.pathname.replace(/\/$/, '') : url.pathname;
    let pathMatched = false;
    for (const route of table.candidates(path)) {
      const m = route.regex.exec(path);
      if (!m) continue;
      pathMatched = true;
      if (route.method !== req.method) continue;
      let body: Json | undefined;
      if (req.method === 'POST') {
        const text = await readBody(req);
        if (route.jsonOnly && !isJson(header(req, 'content-type'))) return UNSUPPORTED_MEDIA_TYPE;
        if (text.trim() !== '') {
          try {
            body = parseJson(text);
          } catch {
            // the node's answer: no parameter named, the text it could not read as the data
            throw validationError('', 'invalid_body', text);
          }
        }
      }
      const params = m.slice(1).map(decodeParam);
      return await route.handler({ params, query: url.searchParams, body });
    }
    return noRoute(path, pathMatched);
  } catch (err) {
    if (err instanceof HttpError) return { status: err.status, body: stringifyJson(err.body) };
    log.error({ err, url: req.url }, 'devnode request failed');
    return { status: 500, body: '{"reason":"Internal error"}' };
  }
}

function header(req: IncomingMessage, name: string): string | undefined {
  const value = req.headers[name];
  return Array.isArray(value) ? value.join(', ') : value;
}

/** What a listener does besides routing. */
export interface JsonServerOptions {
  /** the realistic mode (pacing.ts): each request waits for a slot, its answer is written when its latency is up */
  readonly pacer?: Pacer;
  /** refuses requests with 503 and Retry-After while told to (overload.ts), before they queue, as the node's queue does */
  readonly overload?: { take(): Reply | undefined };
  /** the chain's height, stamped on every answer as `X-Ae-Height`, as a node after 7.2.2 does (before routing) */
  readonly height?: () => number;
}

/**
 * createJsonServer answers every request with JSON (and the node's CORS headers, which expose its Retry-After and
 * X-Ae-Height to browsers); unexpected errors are logged and become 500 `{reason}`.
 */
export function createJsonServer(routes: readonly Route[], log: Logger, options: JsonServerOptions = {}): Server {
  const table = new RouteTable(routes);
  const { pacer, overload, height } = options;
  return createServer((req, res) => {
    const stamped = {
      ...(height === undefined ? {} : { [AE_HEIGHT_HEADER]: String(height()) }),
      ...corsHeaders(header(req, 'origin'), header(req, 'access-control-request-headers')),
    };
    if (req.method === 'OPTIONS') return send(res, PREFLIGHT, stamped);
    const refusal = overload?.take();
    if (refusal) return send(res, refusal, stamped);
    const work = (): Promise<Reply> => answer(table, req, log);
    if (pacer) void pacer.serve(work, (reply) => send(res, reply, stamped));
    else void work().then((reply) => send(res, reply, stamped));
  });
}

/** AE_HEIGHT_HEADER: the node's chain-state height header (aehttp_state_version; a lower bound of the answer's state). */
export const AE_HEIGHT_HEADER = 'x-ae-height';

/** listen starts a server and resolves with its URL. */
export function listen(server: Server, host: string, port: number): Promise<string> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      const address = server.address() as AddressInfo;
      resolve(`http://${host.includes(':') ? `[${host}]` : host}:${address.port}`);
    });
  });
}

/** close stops accepting connections and drops idle keep-alive sockets. */
export function close(server: Server): Promise<void> {
  return new Promise((resolve) => {
    server.close(() => resolve());
    server.closeIdleConnections();
  });
}
