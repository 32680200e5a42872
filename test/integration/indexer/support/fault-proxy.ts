/** @module A fault-injecting HTTP proxy for node tests: outages, 5xx storms, slow, malformed and pruned answers. */
import { createServer, request, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { GC_REASON } from '../../../../src/devnode/api/gc.ts';

/**
 * Fault mode: pass through, drop connections, answer 503 (the node's refusal for load: its pace), answer 500 (a
 * failure), delay, or cut the JSON short.
 */
export type Fault = 'none' | 'down' | '5xx' | '500' | 'slow' | 'malformed';

export interface FaultProxy {
  readonly url: string;
  /** fault applies to every request from now on; `rate` (0..1) is the share of requests hit. */
  set(fault: Fault, rate?: number): void;
  /** answers every request whose path matches `paths` with the node's 404 from now on (undefined: none) */
  notFound(paths: RegExp | undefined): void;
  /**
   * answers every request whose path matches `paths` with the node's 410 from now on, as a node that garbage-collected
   * the state they read (undefined: none)
   */
  gone(paths: RegExp | undefined): void;
  /** holds every request whose path matches `paths` unanswered from now on, as a hanging node (undefined: none) */
  hang(paths: RegExp | undefined): void;
  /**
   * forwards the body of every request whose path matches `paths` as `edit` makes it from now on (undefined: none),
   * as a client that asks otherwise would
   */
  rewrite(paths: RegExp | undefined, edit?: (body: string) => string): void;
  /**
   * requests seen, and how many got a fault; `paths`: each request's method and path, in order; `answered`: the status
   * of each answer sent whole (not one the client gave up on first, as a client timing out on a loaded machine does)
   */
  readonly stats: { requests: number; faulted: number; paths: string[]; answered: number[] };
  close(): Promise<void>;
}

/**
 * relay sends a request on to `upstream` (its body as `edit` makes it, when given) and its answer back, the body read
 * whole and passed through `answer` (which may change it) first; a failure of the leg drops the client's connection, a
 * client gone ends the leg.
 */
export function relay(
  upstream: URL,
  req: IncomingMessage,
  res: ServerResponse,
  answer: (body: Buffer) => Buffer = (body) => body,
  edit?: (body: string) => string,
): void {
  const up = request(
    { host: upstream.hostname, port: upstream.port, path: req.url, method: req.method, headers: req.headers },
    (upRes) => {
      const chunks: Buffer[] = [];
      upRes.on('data', (c: Buffer) => chunks.push(c));
      upRes.on('end', () => {
        const body = answer(Buffer.concat(chunks));
        res.writeHead(upRes.statusCode ?? 502, { ...upRes.headers, 'content-length': String(body.length) });
        res.end(body);
      });
    },
  );
  up.on('error', () => res.destroy());
  res.on('close', () => up.destroy());
  if (!edit) return void req.pipe(up);
  const sent: Buffer[] = [];
  req.on('data', (c: Buffer) => sent.push(c));
  req.on('end', () => {
    const body = edit(Buffer.concat(sent).toString('utf8'));
    up.setHeader('content-length', Buffer.byteLength(body));
    up.end(body);
  });
}

/** startFaultProxy forwards to `target` (an http://host:port URL) and injects the current fault. */
export async function startFaultProxy(
  target: string,
  opts: { slowMs?: number; seed?: number } = {},
): Promise<FaultProxy> {
  const upstream = new URL(target);
  let fault: Fault = 'none';
  let rate = 1;
  let missing: RegExp | undefined;
  let collected: RegExp | undefined;
  let hanging: RegExp | undefined;
  let rewriting: { paths: RegExp; edit: (body: string) => string } | undefined;
  let seed = opts.seed ?? 1;
  const random = (): number => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
  const stats = { requests: 0, faulted: 0, paths: [] as string[], answered: [] as number[] };
  const server: Server = createServer((req, res) => {
    stats.requests++;
    stats.paths.push(`${req.method} ${req.url}`);
    res.on('finish', () => stats.answered.push(res.statusCode));
    if (missing?.test(req.url ?? '')) {
      res.writeHead(404, { 'content-type': 'application/json' });
      return res.end('{"reason":"Contract not found"}');
    }
    if (collected?.test(req.url ?? '')) {
      res.writeHead(410, { 'content-type': 'application/json' });
      return res.end(JSON.stringify({ reason: GC_REASON }));
    }
    if (hanging?.test(req.url ?? '')) return;
    const hit = fault !== 'none' && random() < rate;
    if (hit) stats.faulted++;
    if (hit && fault === 'down') return req.socket.destroy();
    if (hit && fault === '5xx') {
      res.writeHead(503, { 'content-type': 'application/json' });
      return res.end('{"reason":"Temporary overload"}');
    }
    if (hit && fault === '500') {
      res.writeHead(500, { 'content-type': 'application/json' });
      return res.end('{"reason":"Internal server error"}');
    }
    const forward = (): void => {
      // the client gave up while a slow answer was held back: forwarding now would leave the node a request whose
      // body never ends (its server then cannot close)
      if (res.destroyed) return;
      relay(
        upstream,
        req,
        res,
        (body) => (hit && fault === 'malformed' ? body.subarray(0, Math.floor(body.length / 2)) : body),
        rewriting?.paths.test(req.url ?? '') ? rewriting.edit : undefined,
      );
    };
    if (hit && fault === 'slow') setTimeout(forward, opts.slowMs ?? 2000);
    else forward();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    set(f, r = 1) {
      fault = f;
      rate = r;
    },
    notFound(paths) {
      missing = paths;
    },
    gone(paths) {
      collected = paths;
    },
    hang(paths) {
      hanging = paths;
    },
    rewrite(paths, edit) {
      rewriting = paths && edit ? { paths, edit } : undefined;
    },
    stats,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
