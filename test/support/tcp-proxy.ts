/**
 * @module A loopback TCP proxy in front of a real server (the test's PostgreSQL) for fault tests: it passes the bytes
 * through, holds back what the server sends by `delayMs` (a database that is slow to answer, its connections open),
 * or refuses: it resets new connections and cuts the open ones, as a database that went away, until `accept()`.
 */
import { connect, createServer, type Socket } from 'node:net';

export interface TcpProxy {
  readonly port: number;
  /** delays each chunk the server sends by `ms` from now on (0: none), keeping their order */
  setDelay(ms: number): void;
  /** cuts every open connection and resets each new one until `accept()` */
  refuse(): void;
  accept(): void;
  close(): Promise<void>;
}

/** startTcpProxy listens on a free loopback port and forwards each connection to `target`. */
export async function startTcpProxy(target: { host: string; port: number }): Promise<TcpProxy> {
  let delayMs = 0;
  let refusing = false;
  const open = new Set<Socket>();
  const server = createServer((client) => {
    if (refusing) return client.resetAndDestroy();
    const upstream = connect(target.port, target.host);
    open.add(client).add(upstream);
    // each chunk waits for the one before it: a delay made shorter never lets a later chunk overtake an earlier one
    let sent = Promise.resolve();
    upstream.on('data', (chunk: Buffer) => {
      const dueAt = Date.now() + delayMs;
      sent = sent
        .then(() => new Promise<void>((resolve) => setTimeout(resolve, Math.max(0, dueAt - Date.now()))))
        .then(() => void (client.destroyed || client.write(chunk)));
    });
    client.on('data', (chunk: Buffer) => void upstream.write(chunk));
    const end = (): void => {
      open.delete(client);
      open.delete(upstream);
      client.destroy();
      upstream.destroy();
    };
    for (const socket of [client, upstream]) socket.on('close', end).on('error', end);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  return {
    port,
    setDelay: (ms) => {
      delayMs = ms;
    },
    refuse: () => {
      refusing = true;
      for (const socket of open) socket.resetAndDestroy();
    },
    accept: () => {
      refusing = false;
    },
    close: async () => {
      for (const socket of open) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
