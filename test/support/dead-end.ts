/**
 * @module An address for a peer that is down: a loopback listener of the test's own that resets every connection.
 * A port found free and left closed is not one: on a busy machine another process may listen on it meanwhile, and
 * then a request meant to be refused hangs (a 504 for a 502). While this listener is open nothing else can take its
 * port, and every connection to it fails at once, as a node or database that is down does.
 */
import { createServer, type Server, type Socket } from 'node:net';

export interface DeadEnd {
  readonly port: number;
  /** `http://127.0.0.1:<port>` */
  readonly url: string;
  /** stops resetting: connections reach the server's own handlers from now on (the peer is back, same address) */
  open(): void;
  close(): Promise<void>;
}

/**
 * deadEnd listens on a free loopback port and resets each connection until `open()`; `server` answers once open
 * (an http.Server whose handler plays the peer come back), or does nothing by default.
 */
export async function deadEnd(server: Server = createServer()): Promise<DeadEnd> {
  let down = true;
  // prepended so the reset comes before the server's own handler of the connection
  server.prependListener('connection', (socket: Socket) => {
    if (down) socket.resetAndDestroy();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  return {
    port,
    url: `http://127.0.0.1:${port}`,
    open: () => {
      down = false;
    },
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
