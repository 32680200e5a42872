/**
 * @module A webhook receiver on loopback for tests: it records every request (its delivery id, signature, headers and
 * body) and answers as told: 200, 500, 200 after a while (slow), never (a hang), or not at all (down: its port closed).
 */
import {
  createServer,
  type IncomingHttpHeaders,
  type IncomingMessage,
  type Server,
  type ServerResponse,
} from 'node:http';
import type { AddressInfo } from 'node:net';

/** A request the receiver got. */
export interface Received {
  readonly path: string;
  readonly deliveryId: string;
  readonly signature: string;
  /** every header as received (a Standard Webhooks verifier reads webhook-id, -timestamp and -signature) */
  readonly headers: IncomingHttpHeaders;
  readonly text: string;
  readonly body: Record<string, unknown>;
  /** when its body had come in (Date.now()) */
  readonly at: number;
}

export type Behaviour = 'ok' | 'fail' | 'hang' | 'slow';

/** How long a slow receiver takes to answer 200. */
export const SLOW_MS = 150;

export interface Receiver {
  /** the base URL; a hook's URL is this plus a path naming the hook, so one receiver serves many */
  readonly url: string;
  readonly port: number;
  readonly received: Received[];
  /** connections accepted, whatever came of them */
  connections: number;
  /** how each path (or '*') is answered */
  readonly behaviour: Map<string, Behaviour>;
  /** of one path */
  on(path: string): Received[];
  down(): Promise<void>;
  up(): Promise<void>;
  close(): Promise<void>;
}

/** startReceiver listens on 127.0.0.1 (on `port` when given: the same one again after `down`). */
export async function startReceiver(port = 0): Promise<Receiver> {
  const hanging = new Set<ServerResponse>();
  let server: Server;
  const receiver: Receiver = {
    url: '',
    port,
    received: [],
    connections: 0,
    behaviour: new Map(),
    on: (path) => receiver.received.filter((r) => r.path === path),
    async down() {
      for (const res of hanging) res.destroy();
      hanging.clear();
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
    },
    async up() {
      server = await listen(receiver.port);
    },
    close: () => receiver.down(),
  };
  const listen = (at: number): Promise<Server> =>
    new Promise((resolve) => {
      const s = createServer((req, res) => void handle(req, res));
      s.on('connection', () => (receiver.connections += 1));
      s.listen(at, '127.0.0.1', () => resolve(s));
    });
  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const text = Buffer.concat(chunks).toString();
    const path = req.url ?? '/';
    receiver.received.push({
      path,
      deliveryId: String(req.headers['mdw-delivery-id']),
      signature: String(req.headers['mdw-signature']),
      headers: req.headers,
      text,
      body: JSON.parse(text) as Record<string, unknown>,
      at: Date.now(),
    });
    const behaviour = receiver.behaviour.get(path) ?? receiver.behaviour.get('*') ?? 'ok';
    if (behaviour === 'hang') return void hanging.add(res);
    if (behaviour === 'slow') await new Promise((r) => setTimeout(r, SLOW_MS));
    res.statusCode = behaviour === 'fail' ? 500 : 200;
    res.end(behaviour === 'fail' ? 'no' : 'ok');
  }
  server = await listen(port);
  const actual = (server.address() as AddressInfo).port;
  Object.assign(receiver, { port: actual, url: `http://127.0.0.1:${actual}` });
  return receiver;
}
