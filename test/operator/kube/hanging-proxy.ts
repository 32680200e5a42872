/**
 * @module An HTTP proxy in front of an API server that can stop answering chosen requests: it accepts them and never
 * replies, as a half-open connection does (the peer gone without a FIN, a network partition), so the client's own
 * deadlines are what ends them.
 */
import { createServer, request } from 'node:http';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** HangingProxy forwards to its target until hang() picks requests it swallows. */
export interface HangingProxy {
  readonly url: string;
  /** hang swallows every later request for which `match` is true (method and path, e.g. the Lease's). */
  hang(match: (req: IncomingMessage) => boolean): void;
  /** held counts the requests swallowed so far. */
  held(): number;
  stop(): Promise<void>;
}

/** startHangingProxy listens on 127.0.0.1 (port 0) and forwards to `target` (an http:// URL). */
export async function startHangingProxy(target: string): Promise<HangingProxy> {
  const upstream = new URL(target);
  let match: (req: IncomingMessage) => boolean = () => false;
  let held = 0;
  const server = createServer((req, res) => {
    if (match(req)) {
      held++;
      return; // read nothing, answer nothing: the connection stays open until the client gives up
    }
    forward(upstream, req, res);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    hang: (m) => {
      match = m;
    },
    held: () => held,
    stop: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

function forward(upstream: URL, req: IncomingMessage, res: ServerResponse): void {
  const out = request(
    { host: upstream.hostname, port: upstream.port, method: req.method, path: req.url, headers: req.headers },
    (answer) => {
      res.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(res);
    },
  );
  out.on('error', () => res.destroy());
  res.on('close', () => out.destroy());
  req.pipe(out);
}
