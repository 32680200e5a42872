/** @module A small JSON router on node:http for the devnode's two listeners: lossless bodies, `{reason}` errors. */
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { setImmediate as nextTurn } from 'node:timers/promises';
import { parseJson, stringifyJson, withSortedKeys, type Json } from '../../chain/json.ts';
import type { Logger } from '../../base/log.ts';
import { http } from '../../base/node-http.ts';

/** Reply is a status and a JSON body already serialised, with the headers it needs besides (a 503's Retry-After). */
export interface Reply {
  readonly status: number;
  readonly body: string;
  readonly headers?: Readonly<Record<string, string>>;
  /**
   * a paced node's time for this answer beyond its kind's service time (a dry-run's items past its first:
   * endpoint-gates.ts): the pace (pacing.ts) holds the worker that much longer
   */
  readonly holdMs?: number;
  /**
   * a dry-run's time reading the state at its block (a replay to a past block: chain.ts stateAfter), where a node reads
   * its state trees at once: its time limit (endpoint-gates.ts) counts the rest, the dry-run's own
   */
  readonly stateMs?: number;
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
  /** shut by the node's configuration (endpoint-gates.ts): 403 with no body, before the body is read, as the node */
  readonly forbidden?: boolean;
}

/** alsoUnderV3 serves each /v2 route under /v3 as well: the node's handlers answer both of its APIs alike. */
export function alsoUnderV3(routes: readonly Route[]): Route[] {
  const v3 = routes.filter((r) => r.path.startsWith('/v2/')).map((r) => ({ ...r, path: `/v3${r.path.slice(3)}` }));
  return [...routes, ...v3];
}

/**
 * HttpError is an error answer with the node's `{reason, …}` body (a client's error, or one the node gives itself),
 * its keys in the node's order, or the node's empty body (`reason` undefined: its router's and REST layer's own 4xx
 * and 500s carry none).
 */
export class HttpError extends Error {
  override readonly name = 'HttpError';
  readonly status: number;
  readonly body: Json | undefined;

  constructor(status: number, reason: string | undefined, extra: { [k: string]: Json } = {}) {
    super(reason ?? `empty ${status}`);
    this.status = status;
    this.body = reason === undefined ? undefined : withSortedKeys({ reason, ...extra });
  }
}

/** ok is a 200 reply of a JSON value (its keys sorted, as the node writes them) or of a body already written. */
export function ok(value: unknown): Reply {
  return { status: 200, body: typeof value === 'string' ? value : stringifyJson(withSortedKeys(value as Json)) };
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

/** SERVER is the node's `server` header: its HTTP server's name, on every answer. */
const SERVER = { server: 'Cowboy' };

function send(res: ServerResponse, reply: Reply, stamped: Record<string, string>): void {
  // the node's router and REST layer answer an unknown path or method with no body at all, and no content type
  const type: Record<string, string> = reply.body === '' ? {} : { 'content-type': 'application/json' };
  res.writeHead(reply.status, {
    ...SERVER,
    ...stamped,
    ...reply.headers,
    ...type,
    'content-length': Buffer.byteLength(reply.body),
  });
  res.end(reply.body);
}

/** FORBIDDEN: the node's REST layer refusing an operation its configuration shuts (cowboy_rest forbidden). */
const FORBIDDEN: Reply = { status: 403, body: '' };

/** CLIENT_GONE: what a request whose client closed its connection before its turn gets: nothing anyone reads. */
const CLIENT_GONE: Reply = { status: 499, body: '' };

/**
 * clientGone says whether the client of `req` closed its connection before the request's turn: a client that gave up
 * (its timeout) closes it, and a busy devnode reads the request and the close together, the close a turn of the loop
 * later (two turns: the poll that read the request, then the one that reads the close). A node's request process
 * ends with its connection (cowboy); the devnode's one thread ran each abandoned request, a replay to a past block
 * for an answer no one read, while its client asked again behind them (issue 88: a populator's dry-runs timed out by
 * the thousand at 1 % of mainnet).
 */
async function clientGone(req: IncomingMessage): Promise<boolean> {
  await nextTurn();
  await nextTurn();
  // its end read (a client does not half-close: the server ends the connection then) or the socket torn down
  return req.socket.readableEnded || req.socket.destroyed;
}

/** OPTIONS is answered before routing, as the node's CORS middleware does: 200, no body. */
const PREFLIGHT: Reply = { status: 200, body: '' };

/** noRoute is the node's answer to a path no route has (404) or a method its routes lack (405): no body, /v2 too. */
function noRoute(pathMatched: boolean): Reply {
  return { status: pathMatched ? 405 : 404, body: '' };
}

/** isJsonRequest: the request says its body is JSON; the node's REST layer answers any other an empty 415. */
function isJsonRequest(req: IncomingMessage): boolean {
  const type = req.headers['content-type'];
  return type !== undefined && type.split(';')[0]!.trim().toLowerCase() === 'application/json';
}

/**
 * answer computes the reply to one request: the route's, or the node's 404/405/400/415/500. A routed request with its
 * body read goes through `regulate` (the node's queues: a turn, its service time, or a refusal), as the node's router
 * and validation answer before its queues do.
 */
async function answer(
  table: RouteTable,
  req: IncomingMessage,
  log: Logger,
  regulate: Regulate | undefined,
): Promise<Reply> {
  try {
    const url = parseUrl(req.url);
    const path = url.pathname.length > 1 ? url.pathname.replace(/\/$/, '') : url.pathname;
    let pathMatched = false;
    for (const route of table.candidates(path)) {
      const m = route.regex.exec(path);
      if (!m) continue;
      pathMatched = true;
      if (route.method !== req.method) continue;
      if (route.forbidden) return FORBIDDEN;
      let body: Json | undefined;
      if (req.method === 'POST') {
        if (!isJsonRequest(req)) throw new HttpError(415, undefined);
        const text = await readBody(req);
        if (text.trim() !== '') {
          try {
            body = parseJson(text);
          } catch {
            // the node names no parameter and echoes the text it could not read
            throw validationError('', 'invalid_body', text);
          }
        }
      }
      const params = m.slice(1).map(decodeParam);
      const work = async (): Promise<Reply> =>
        (await clientGone(req)) ? CLIENT_GONE : route.handler({ params, query: url.searchParams, body });
      return await (regulate ? regulate.serve(route.method, path, work) : work());
    }
    return noRoute(pathMatched);
  } catch (err) {
    if (err instanceof HttpError)
      return { status: err.status, body: err.body === undefined ? '' : stringifyJson(err.body) };
    log.error({ err, url: req.url }, 'devnode request failed');
    return { status: 500, body: '{"reason":"Internal error"}' };
  }
}

function header(req: IncomingMessage, name: string): string | undefined {
  const value = req.headers[name];
  return Array.isArray(value) ? value.join(', ') : value;
}

/**
 * Regulate is what a listener puts each routed request's work through: the node's queues and service times
 * (pacing.ts), declared here so that the router depends on no regulator.
 */
export interface Regulate {
  serve(method: string, path: string, work: () => Promise<Reply>): Promise<Reply>;
}

/** What a listener does besides routing. */
export interface JsonServerOptions {
  /** the node's queues and service times (pacing.ts), which a routed request goes through */
  readonly regulate?: Regulate;
  /** the chain's height, stamped on every answer as `X-Ae-Height`, as a node after 7.2.2 does (before routing) */
  readonly height?: () => number;
}

/**
 * createJsonServer answers every request with JSON (and the node's CORS headers, which expose its Retry-After and
 * X-Ae-Height to browsers); unexpected errors are logged and become 500 `{reason}`.
 */
export function createJsonServer(routes: readonly Route[], log: Logger, options: JsonServerOptions = {}): Server {
  const table = new RouteTable(routes);
  const { regulate, height } = options;
  return http.createServer((req, res) => {
    const stamped = {
      ...(height === undefined ? {} : { [AE_HEIGHT_HEADER]: String(height()) }),
      ...corsHeaders(header(req, 'origin'), header(req, 'access-control-request-headers')),
    };
    if (req.method === 'OPTIONS') return send(res, PREFLIGHT, stamped);
    void answer(table, req, log, regulate).then((reply) => send(res, reply, stamped));
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
