/** @module The websocket role of a server process: sockets, heartbeat and limits around the hub. */
import type { IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Duplex } from 'node:stream';
import type prom from 'prom-client';
import { WebSocket, WebSocketServer, type RawData } from 'ws';
import { TrustedProxies } from '../config/client-address.ts';
import type { Config, MdwWebsocketLimits } from '../config/middleware.ts';
import { originAllowed } from '../config/origins.ts';
import type { Logger } from '../base/log.ts';
import type { Pool } from '../db/connection/pool.ts';
import type { Role } from '../base/roles.ts';
import pLimit from 'p-limit';
import { topHeight } from '../db/queries/blocks.ts';
import { ChainFeed } from './chain-feed.ts';
import { readChainChunk } from './events-source.ts';
import { CLOSE_TOO_SLOW, Hub, type Peer } from './hub.ts';
import { MdwHub, type MdwPeer, type SubscriptionAllowance } from './mdw-hub.ts';
import { NotificationListener } from './listener.ts';
import { createWebsocketMetrics } from './metrics.ts';
import { decodeNotification, notifyChannel } from '../db/connection/notification.ts';
import { postedTx } from './posted-tx.ts';
import { PendingTxPoller } from './tx-update.ts';

export interface WebsocketServerDeps {
  readonly cfg: Config;
  readonly log: Logger;
  readonly pool: Pool;
  /**
   * The primary, when `pool` reads replicas (DATABASE_READ_URLS): replays read and render from it, since a replay
   * must see every block the feed counts as sent, and those it noted without a client to send them to raise no floor:
   * a replica at the floor may lack them. Absent: `pool`.
   */
  readonly primary?: Pool;
  /** Set when `pool` reads replicas: the live feed raises the server's floor to what it read before it pushes it. */
  readonly raiseFloor?: (lsn: bigint, signal: AbortSignal) => Promise<void>;
  readonly registry: prom.Registry;
  /** Ping period; a client that has not answered the previous ping is terminated. */
  readonly heartbeatIntervalMs?: number;
  /**
   * The process's started listener on the schema's channel, shared with other users (the API
   * cache); its owner stops it after this server. Without one the server LISTENs on its own.
   */
  readonly listener?: NotificationListener;
  /**
   * API keys and quotas (API_KEYS on: src/api/quota/socket-gate.ts): a handshake with an unknown or revoked key is
   * answered 401, one past its tier's websocket connections 429, and ae_mdw's sockets hold the tier's subscriptions.
   * Absent: no socket is counted.
   */
  readonly gate?: SocketGate;
}

/** SocketGate decides on a handshake before its upgrade: refused with an HTTP status, or let in holding its place. */
export interface SocketGate {
  admit(req: IncomingMessage): SocketRefusal | SocketAdmitted;
}

/** SocketRefusal answers a handshake instead of upgrading it. */
export interface SocketRefusal {
  readonly refused: { readonly status: number; readonly message: string; readonly headers: Record<string, string> };
}

/** SocketAdmitted is a handshake let in: its place, given back once (its TCP socket's end), and its subscriptions. */
export interface SocketAdmitted {
  readonly release: () => void;
  readonly allowance: SubscriptionAllowance;
}

/** Close code when the server is full: "try again later" (RFC 6455 registry). */
export const CLOSE_TOO_MANY_CONNECTIONS = 1013;
/** Close code on shutdown: "going away". */
export const CLOSE_SHUTDOWN = 1001;

const DEFAULT_HEARTBEAT_MS = 30_000;
// Client messages are tiny; a bigger frame is closed by ws with 1009 before it is buffered.
const MAX_CLIENT_MESSAGE_BYTES = 16 * 1024;
// Forks deeper than this are not re-sent; the fork window bounds them in practice.
const MIN_MEMORY_HEIGHTS = 100;
// Replays read the database a batch at a time, this many at once in all: live delivery keeps its share of the pool.
const MAX_CONCURRENT_REPLAY_READS = 2;

/**
 * WebsocketServer listens on cfg.websocket and sends every client the chain events it subscribed
 * to, read from the database after each populator NOTIFY. Every server process does this for its
 * own clients, so any number of servers fed by one populator all deliver events. `/v2/websocket`
 * and `/v3/websocket` (with or without `/mdw`) speak ae_mdw's protocol (MdwHub); every other path the
 * seed's (Hub). The HTTP port hands over ae_mdw's two paths under `/mdw` too (see `upgrade`).
 */
export class WebsocketServer implements Role {
  readonly name = 'websocket';
  readonly #deps: WebsocketServerDeps;
  readonly #log: Logger;
  readonly #metrics: ReturnType<typeof createWebsocketMetrics>;
  readonly #hub: Hub;
  readonly #mdwHub: MdwHub;
  readonly #feed: ChainFeed;
  readonly #listener: NotificationListener;
  readonly #ownsListener: boolean;
  readonly #poller: PendingTxPoller | undefined;
  readonly #connections = new Map<WebSocket, Connection>();
  readonly #mdwSockets = new Set<WebSocket>();
  /** ae_mdw sockets open per client address, for cfg.mdwWebsocket.maxConnectionsPerIp */
  readonly #mdwPerAddress = new Map<string, number>();
  /** TRUSTED_PROXIES: a client behind them is counted by its forwarded address, not the proxy's */
  readonly #trustedProxies: TrustedProxies;
  /** the subscriptions of each handshake the gate let in, until its connection is accepted */
  readonly #allowances = new WeakMap<IncomingMessage, SubscriptionAllowance>();
  #unsubscribe: (() => void) | undefined;
  #wss: WebSocketServer | undefined;
  #heartbeat: NodeJS.Timeout | undefined;
  #url = '';
  // One set of listeners for every seed-protocol socket (`this` is the WebSocket): nothing allocated per client.
  readonly #onPong: (this: WebSocket) => void;
  readonly #onMessage: (this: WebSocket, data: RawData, isBinary: boolean) => void;
  readonly #onError: (err: Error) => void;
  readonly #onClose: (this: WebSocket) => void;

  constructor(deps: WebsocketServerDeps) {
    const { cfg, pool } = deps;
    this.#deps = deps;
    this.#trustedProxies = new TrustedProxies(cfg.trustedProxies);
    const log = (this.#log = deps.log.child({ component: 'websocket' }));
    const metrics = (this.#metrics = createWebsocketMetrics(deps.registry));
    const hub = (this.#hub = new Hub({
      maxBufferedBytes: cfg.websocketMaxBufferedBytes,
      maxTotalBufferedBytes: cfg.websocketMaxTotalBufferedBytes,
      metrics,
      log,
    }));
    const memoryHeights = Math.max(MIN_MEMORY_HEIGHTS, 2 * cfg.forkWindow);
    const feed = (this.#feed = new ChainFeed({ pool, log, memoryHeights, raiseFloor: deps.raiseFloor }));
    const replayReads = pLimit(MAX_CONCURRENT_REPLAY_READS);
    const replayPool = deps.primary ?? pool;
    this.#mdwHub = new MdwHub({
      log,
      limits: cfg.mdwWebsocket,
      replay: {
        feed,
        read: (from, to, wants) => replayReads(() => readChainChunk(replayPool, from, to, { wants })),
        top: async () => (await topHeight(pool)) ?? -1,
        maxHeights: cfg.mdwWebsocket.maxReplayHeights,
        memoryHeights,
      },
    });
    feed.subscribe(hub);
    feed.subscribe(this.#mdwHub);
    const connections = this.#connections;
    this.#onPong = function onPong(this: WebSocket): void {
      const connection = connections.get(this);
      if (connection) connection.alive = true;
    };
    this.#onMessage = function onMessage(this: WebSocket, data: RawData, isBinary: boolean): void {
      const connection = connections.get(this);
      if (connection) hub.receive(connection, isBinary ? toBytes(data) : toBytes(data).toString('utf8'));
    };
    this.#onError = (err) => log.debug({ err: err.message }, 'websocket client error');
    this.#onClose = function onClose(this: WebSocket): void {
      const connection = connections.get(this);
      if (!connection) return;
      connections.delete(this);
      hub.remove(connection);
      metrics.connections.dec();
    };
    this.#ownsListener = deps.listener === undefined;
    this.#listener =
      deps.listener ?? new NotificationListener({ pool, channel: notifyChannel(cfg.databaseSchema), log });
    this.#poller =
      cfg.nodeInternalUrl === undefined
        ? undefined
        : new PendingTxPoller({
            nodeInternalUrl: cfg.nodeInternalUrl,
            intervalMs: cfg.mempoolPollIntervalMs,
            timeoutMs: cfg.nodeTimeoutMs,
            log,
            metrics,
            isWanted: () => hub.hasSubscribers('tx_update'),
            publish: (payloads) => hub.publishPending(payloads),
          });
  }

  /** url is the server's ws:// base URL, once started. */
  get url(): string {
    return this.#url;
  }

  /** reportPosted tells tx_update subscribers of a transaction a client posted through us (no mempool poll needed). */
  reportPosted(body: string): void {
    if (!this.#hub.hasSubscribers('tx_update')) return;
    const tx = postedTx(body);
    if (!tx) return;
    // the poll that finds it in the mempool next must not report it again
    this.#poller?.remember(tx.hash);
    this.#hub.publishPending([tx.json]);
  }

  /** start catches up with the stored chain, follows the populator's notifications and listens. */
  async start(): Promise<void> {
    const { cfg } = this.#deps;
    const log = this.#log;
    await this.#feed.start();
    this.#unsubscribe = this.#listener.subscribe({
      onNotification: (payload) => {
        const notification = decodeNotification(payload);
        // a backfill's derived rows change no block: nothing to push
        if (notification?.derived) return;
        if (notification) this.#feed.notify(notification);
        else log.warn({ payload: payload.slice(0, 200) }, 'ignoring a notification that is not ours');
      },
      onReconnected: () => {
        this.#metrics.listenerReconnects.inc();
        this.#feed
          .catchUp(true)
          .catch((err: unknown) => log.error({ err: (err as Error).message }, 'catching up after reconnect failed'));
      },
    });
    if (this.#ownsListener) await this.#listener.start();
    // Heights committed between reading the top and hearing the listener's notifications.
    await this.#feed.catchUp(false);
    this.#poller?.start();

    const wss = new WebSocketServer({
      host: cfg.websocket.host,
      port: cfg.websocket.port,
      maxPayload: MAX_CLIENT_MESSAGE_BYTES,
      // One client message per turn of the event loop, the socket read no further meanwhile: emitted all at once, a
      // flood of 100 000 small messages (everything read in one turn) held the loop for seconds, /healthz timing out.
      allowSynchronousEvents: false,
      // Connection writes pre-encoded frames to the socket, which needs uncompressed messages.
      perMessageDeflate: false,
      // `connections` tracks the clients; ws's own set would cost a second entry and a listener each.
      clientTracking: false,
      // a page of an origin CORS_ORIGINS does not list gets 403, as its requests get no CORS headers
      verifyClient: (
        { origin, req }: { origin?: string; req: IncomingMessage },
        done: (ok: boolean, status?: number, reason?: string, headers?: Record<string, string>) => void,
      ) => {
        if (!originAllowed(cfg.corsOrigins, origin)) return done(false, 403, 'origin not allowed (CORS_ORIGINS)');
        const refusal = this.#admitted(req);
        if (refusal) return done(false, refusal.status, refusal.message, refusal.headers);
        done(true);
      },
    });
    try {
      await new Promise<void>((resolve, reject) => {
        wss.once('listening', resolve);
        wss.once('error', reject);
      });
    } catch (err) {
      await this.#stopFollowing();
      throw err;
    }
    this.#wss = wss;
    wss.on('error', (err) => log.error({ err: err.message }, 'websocket server error'));
    wss.on('connection', (ws, req) => this.#accept(ws, req));
    this.#heartbeat = setInterval(() => this.#beat(), this.#deps.heartbeatIntervalMs ?? DEFAULT_HEARTBEAT_MS);
    this.#heartbeat.unref();
    this.#url = `ws://${formatHost(cfg.websocket.host)}:${(wss.address() as AddressInfo).port}`;
    log.info(
      { url: this.#url, maxConnections: cfg.websocketMaxConnections, pendingPolling: this.#poller !== undefined },
      'websocket server listening',
    );
  }

  /**
   * upgrade takes a websocket handshake that came to the HTTP port: ae_mdw's `/mdw/v3/websocket` and
   * `/mdw/v2/websocket`, where a client given only the gateway's URL looks for it (as on mainnet.aeternity.io).
   * Any other path, or a server not listening, is answered 404 and closed.
   */
  upgrade(req: IncomingMessage, socket: Duplex, head: Buffer): void {
    const wss = this.#wss;
    if (!wss || !isGatewayWebsocketPath(req.url)) {
      socket.end('HTTP/1.1 404 Not Found\r\nConnection: close\r\nContent-Length: 0\r\n\r\n');
      return;
    }
    wss.handleUpgrade(req, socket, head, (ws) => this.#accept(ws, req));
  }

  /**
   * #admitted asks the gate (API keys on) whether a handshake may connect: its refusal, or undefined when it may (its
   * place given back when its TCP socket ends, whatever became of the handshake).
   */
  #admitted(req: IncomingMessage): SocketRefusal['refused'] | undefined {
    const gate = this.#deps.gate;
    if (!gate) return undefined;
    const answer = gate.admit(req);
    if ('refused' in answer) {
      this.#metrics.connectionsRefused.inc();
      return answer.refused;
    }
    req.socket.once('close', answer.release);
    this.#allowances.set(req, answer.allowance);
    return undefined;
  }

  /** stop stops following the chain, closes every client (going away) and the listening socket. */
  async stop(): Promise<void> {
    clearInterval(this.#heartbeat);
    await this.#stopFollowing();
    const sockets = (): WebSocket[] => [...this.#connections.keys(), ...this.#mdwSockets];
    for (const ws of sockets()) ws.close(CLOSE_SHUTDOWN, 'server shutting down');
    const wss = this.#wss;
    if (!wss) return;
    await new Promise<void>((resolve) => {
      wss.close(() => resolve());
      // Peers that do not finish the closing handshake must not hold the shutdown.
      setTimeout(() => {
        for (const ws of sockets()) ws.terminate();
      }, 2000).unref();
    });
  }

  async #stopFollowing(): Promise<void> {
    this.#unsubscribe?.();
    await Promise.all([
      this.#ownsListener ? this.#listener.stop() : undefined,
      this.#feed.stop(),
      this.#poller?.stop(),
    ]);
  }

  #accept(ws: WebSocket, req: IncomingMessage): void {
    const { cfg } = this.#deps;
    if (this.#hub.size + this.#mdwHub.size >= cfg.websocketMaxConnections) {
      this.#metrics.connectionsRefused.inc();
      ws.close(CLOSE_TOO_MANY_CONNECTIONS, `server full (${cfg.websocketMaxConnections} connections); try again later`);
      return;
    }
    const version = mdwVersionOf(req.url);
    if (version !== undefined) return this.#acceptMdw(ws, version, req);
    const connection = new Connection(ws, req.socket);
    this.#connections.set(ws, connection);
    this.#hub.add(connection);
    this.#metrics.connections.inc();
    ws.on('pong', this.#onPong);
    ws.on('message', this.#onMessage);
    ws.on('error', this.#onError);
    ws.on('close', this.#onClose);
  }

  /**
   * #acceptMdw serves ae_mdw's protocol on one socket (its answers and events are plain text frames), within
   * ae_mdw's connection limits: beyond them the socket is closed at once, as ae_mdw does.
   */
  #acceptMdw(ws: WebSocket, version: 'v2' | 'v3', req: IncomingMessage): void {
    const { websocketMaxBufferedBytes: maxBuffered, mdwWebsocket: limits } = this.#deps.cfg;
    const socket = req.socket;
    const address = this.#trustedProxies.clientAddress(socket.remoteAddress, req.headers['x-forwarded-for']);
    const fromAddress = this.#mdwPerAddress.get(address) ?? 0;
    const refusal = mdwRefusal(limits, this.#mdwHub.size, fromAddress);
    if (refusal !== undefined) {
      this.#metrics.connectionsRefused.inc();
      ws.close(CLOSE_TOO_MANY_CONNECTIONS, refusal);
      return;
    }
    this.#mdwPerAddress.set(address, fromAddress + 1);
    const allowance = this.#allowances.get(req);
    const peer: MdwPeer = {
      version,
      ...(allowance ? { allowance } : {}),
      send: (text) => {
        if (ws.readyState !== WebSocket.OPEN) return;
        // The same bound as the seed's clients: a reader that does not keep up is closed, not buffered for.
        if (ws.bufferedAmount > maxBuffered) {
          this.#metrics.slowClientsClosed.inc();
          ws.close(CLOSE_TOO_SLOW, `too slow: more than ${maxBuffered} bytes unsent; reconnect`);
          return;
        }
        ws.send(text);
      },
      pause: () => ws.pause(),
      resume: () => ws.resume(),
      // A replay waits here: well below the bound above, until the socket's buffer is written out.
      writable: () => {
        if (ws.readyState !== WebSocket.OPEN || ws.bufferedAmount <= maxBuffered / 4) return Promise.resolve();
        return new Promise((resolve) => {
          const done = (): void => {
            socket.off('drain', done);
            ws.off('close', done);
            resolve();
          };
          socket.on('drain', done);
          ws.on('close', done);
        });
      },
    };
    this.#mdwHub.add(peer);
    this.#mdwSockets.add(ws);
    this.#metrics.connections.inc();
    ws.on('message', (data, isBinary) => {
      if (!isBinary) this.#mdwHub.receive(peer, toBytes(data).toString('utf8'));
    });
    ws.on('error', this.#onError);
    ws.on('close', () => {
      const left = (this.#mdwPerAddress.get(address) ?? 1) - 1;
      if (left > 0) this.#mdwPerAddress.set(address, left);
      else this.#mdwPerAddress.delete(address);
      this.#mdwSockets.delete(ws);
      this.#mdwHub.remove(peer);
      this.#metrics.connections.dec();
    });
  }

  /** #beat terminates seed-protocol clients that did not answer the last ping, and pings the others. */
  #beat(): void {
    for (const [ws, connection] of this.#connections) {
      if (!connection.alive) {
        this.#metrics.deadPeersTerminated.inc();
        ws.terminate();
        continue;
      }
      connection.alive = false;
      ws.ping();
    }
  }
}

/** startWebsocketServer creates and starts a WebsocketServer. */
export async function startWebsocketServer(deps: WebsocketServerDeps): Promise<WebsocketServer> {
  const server = new WebsocketServer(deps);
  await server.start();
  return server;
}

/**
 * Connection adapts a client socket for the hub. Event frames arrive encoded once for all clients
 * and go straight to the TCP socket the upgrade came on (the one ws writes to; no compression is
 * negotiated, so ws keeps no queue of its own): one write per client, nothing copied per client.
 */
class Connection implements Peer {
  /** alive is false from a ping until its pong: the heartbeat terminates a client still false at the next ping. */
  alive = true;
  readonly #ws: WebSocket;
  readonly #socket: Duplex;

  constructor(ws: WebSocket, socket: Duplex) {
    this.#ws = ws;
    this.#socket = socket;
  }

  send(text: string): void {
    this.#ws.send(text);
  }

  sendEncoded(bytes: Buffer): void {
    // After a close frame (ours or the client's) no data frame may follow.
    if (this.#ws.readyState === WebSocket.OPEN) this.#socket.write(bytes);
  }

  get bufferedAmount(): number {
    return this.#ws.bufferedAmount;
  }

  close(code: number, reason: string): void {
    this.#ws.close(code, reason);
  }
}

function toBytes(data: RawData): Buffer {
  if (Buffer.isBuffer(data)) return data;
  return Array.isArray(data) ? Buffer.concat(data) : Buffer.from(data);
}

/**
 * mdwRefusal is the close reason of a connection to ae_mdw's sockets beyond its limits (ae_mdw's reasons
 * too_many_connections and too_many_connections_from_ip), or undefined when it may open.
 */
export function mdwRefusal(
  limits: Pick<MdwWebsocketLimits, 'maxConnections' | 'maxConnectionsPerIp'>,
  open: number,
  openFromAddress: number,
): string | undefined {
  if (open >= limits.maxConnections) return `too many connections (${limits.maxConnections}); try again later`;
  if (openFromAddress >= limits.maxConnectionsPerIp)
    return `too many connections from your address (${limits.maxConnectionsPerIp}); try again later`;
  return undefined;
}

/** mdwVersionOf is the ae_mdw socket version a request path asks for (`/v2/websocket`, `/v3/websocket`, with or without `/mdw`). */
export function mdwVersionOf(url: string | undefined): 'v2' | 'v3' | undefined {
  const path = socketPath(url).replace(/^\/mdw(?=\/)/, '');
  return path === '/v2/websocket' ? 'v2' : path === '/v3/websocket' ? 'v3' : undefined;
}

/** isGatewayWebsocketPath is true for ae_mdw's sockets under `/mdw`, the ones the HTTP port serves. */
export function isGatewayWebsocketPath(url: string | undefined): boolean {
  return socketPath(url).startsWith('/mdw/') && mdwVersionOf(url) !== undefined;
}

function socketPath(url: string | undefined): string {
  return (url ?? '/').split('?')[0]!.replace(/\/$/, '');
}

function formatHost(host: string): string {
  return host.includes(':') ? `[${host}]` : host;
}
