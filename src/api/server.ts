/**
 * @module The -s role: the HTTP API (with /metrics and health) on cfg.port and the websocket server on
 * cfg.websocket (ae_mdw's sockets also on cfg.port, under /mdw).
 */
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type prom from 'prom-client';
import type { Config } from '../config/middleware.ts';
import { createReadPool, createWritePool, type Pool } from '../db/connection/pool.ts';
import { ReadReplicas } from '../db/connection/read-replicas.ts';
import { NotificationListener } from '../events/listener.ts';
import { notifyChannel } from '../db/connection/notification.ts';
import { startWebsocketServer } from '../events/ws-server.ts';
import type { Logger } from '../base/log.ts';
import { http } from '../base/node-http.ts';
import { createOutageMetrics, DependencyOutage } from './http/outage.ts';
import { httpGet } from '../node/http-get.ts';
import { createOutboundMetrics, type Meter } from '../node/outbound-metrics.ts';
import { ping } from '../db/queries/stats.ts';
import { walEnd } from '../db/connection/replication.ts';
import type { Role } from '../base/roles.ts';
import { StopList } from '../base/stop-list.ts';
import { TurnQueue } from '../base/turns.ts';
import { Admission, admissionLimits } from './http/admission.ts';
import { createApp } from './app.ts';
import type { Outages } from './http/middleware/error-boundary.ts';
import { startCacheInvalidation } from './http/cache-invalidation.ts';
import { HeapTrim, processSampler } from './http/heap-trim.ts';
import { ResponseCache } from './http/response-cache.ts';
import { STATUS_READ_MAX_MS } from './http/node-height.ts';
import type { ServerPhase } from './http/readiness.ts';
import { ApiAccess, loadTiers } from './quota/api-access.ts';
import { socketGate } from './quota/socket-gate.ts';
import { sleep } from '../base/retry.ts';

/**
 * Queries that may wait for each connection of the server's pool; more are refused at once with 503 and Retry-After
 * (docs/operations.md, "Overload"). ae_mdw's API takes turns before it queries (Admission), but one of its pages may
 * ask a hundred things at once; at a millisecond or so per query the queue empties in about a second, far within the
 * pool's connection timeout, and a burst on the other APIs costs no memory beyond it.
 */
const WAITING_PER_CONNECTION = 100;

/**
 * Connections to the primary of a server that reads replicas: the LISTEN connection, the status's reading of the
 * populator and the WAL position the replicas' lag is measured against.
 */
const PRIMARY_CONNECTIONS_BESIDE_REPLICAS = 3;

/** Connections a server writes through: the quota's flush and the webhooks API's few writes take turns on them. */
const SERVER_WRITE_CONNECTIONS = 3;

/** Connections the kernel may hold for accepting (Node's default is 511). */
const LISTEN_BACKLOG = 4096;

/**
 * NODE_BUSY_QUIET_MS: a node that refused requests for load is logged as admitting them again once none was refused
 * for this long (the outage of `node_capacity`: one line when it starts refusing, one when it stopped).
 */
const NODE_BUSY_QUIET_MS = 5000;

/**
 * How long a client may take to send a request's headers, and the whole request (a forwarded body is at most 8 MiB),
 * checked every second; past either its socket is answered 408 and closed. With Node's defaults (60 s and 300 s,
 * checked every 30 s) a client trickling its headers held a socket for minutes, and a few thousand such clients held
 * thousands. An idle keep-alive connection is keepAliveTimeout's.
 */
const REQUEST_TIMEOUTS = { headersTimeout: 10_000, requestTimeout: 30_000, connectionsCheckingInterval: 1_000 };

/** What the server role needs; it creates its own pool. */
export interface ServerDeps {
  readonly cfg: Config;
  readonly log: Logger;
  readonly registry: prom.Registry;
  readonly version: string;
}

/**
 * ApiServer listens for HTTP on cfg.port and starts the websocket server. One LISTEN connection feeds both the
 * websocket server and the response cache's invalidation. Each part it starts pushes its stop on one list, which a
 * failed start and stop() run last first: the server stops being ready and serves SHUTDOWN_DELAY_MS more (#delayStop),
 * the websocket's clients are told the server is going away, in-flight requests finish, then the cache's
 * invalidation, the listener, the replicas and the pool stop.
 */
export class ApiServer implements Role {
  readonly name = 'server';
  readonly #deps: ServerDeps;
  readonly #stops = new StopList();
  #httpUrl = '';
  #websocket: Awaited<ReturnType<typeof startWebsocketServer>> | undefined;
  /**
   * starting until the websocket listens too, stopping once the stop has begun: /readyz answers 503 in both, and when
   * stopping every answer closes its connection
   */
  #phase: ServerPhase = 'starting';

  constructor(deps: ServerDeps) {
    this.#deps = deps;
  }

  /** the HTTP API's URL, for people (loopback when it listens on every interface) */
  get httpUrl(): string {
    return this.#httpUrl;
  }

  get wsUrl(): string {
    return this.#websocket?.url ?? '';
  }

  start(): Promise<void> {
    return this.#stops.starting(() => this.#start());
  }

  async stop(): Promise<void> {
    await this.#stops.unwind();
    this.#deps.log.debug('http api stopped');
  }

  /**
   * #start runs the steps in order, each pushing its stops: the database (pools, replicas, outages), the notification
   * listener with the cache it guards, the HTTP API, the websocket server, and the work in the background.
   */
  async #start(): Promise<void> {
    const db = await this.#openDatabase();
    const listening = await this.#listen(db);
    const access = await this.#startAccess(db.writes);
    const { server, heapTrim } = await this.#serveHttp(db, listening, access);
    await this.#startWebsocket(db, listening.listener, server, access);
    this.#startBackground(heapTrim);
    this.#phase = 'serving';
    // the first step of a stop, every part still serving; a start that failed stops without it
    this.#stops.push(() => this.#delayStop());
  }

  /**
   * #delayStop begins a stop: /readyz answers 503 `stopping` and each answer carries `Connection: close`, while the
   * server goes on serving for SHUTDOWN_DELAY_MS. Kubernetes removes a deleted pod from its Service's endpoints
   * asynchronously (the EndpointSlice controller, then each kube-proxy and ingress controller): for a second or more
   * clients are still sent to it, and a closed listener would refuse them. A keep-alive client told to close its
   * connection opens its next one elsewhere.
   */
  async #delayStop(): Promise<void> {
    const { cfg, log } = this.#deps;
    this.#phase = 'stopping';
    if (cfg.shutdownDelayMs === 0) return;
    log.info({ delayMs: cfg.shutdownDelayMs }, 'stopping: not ready, serving for SHUTDOWN_DELAY_MS before closing');
    await sleep(cfg.shutdownDelayMs);
  }

  /**
   * #openDatabase opens the server's pools (the primary, and the replicas when DATABASE_READ_URLS lists any) with the
   * outages of its two dependencies, and starts the wait for a replica to replay what the primary holds now.
   */
  async #openDatabase(): Promise<ServerDatabase> {
    const { cfg, log, registry } = this.#deps;
    const stops = this.#stops;
    const maxWaiting = cfg.databasePoolSize * WAITING_PER_CONNECTION;
    // a request's start and what it does with each query's rows take turns of the event loop, one a turn, so the loop
    // reads its sockets between two pages of a burst (src/base/turns.ts)
    const turns = new TurnQueue();
    const replicated = cfg.databaseReadUrls.length > 0;
    // a server only reads; its LISTEN is allowed in a read-only transaction too
    const primary = createReadPool(cfg, 'mdw-server', log, {
      maxWaiting,
      turns,
      ...(replicated ? { max: PRIMARY_CONNECTIONS_BESIDE_REPLICAS } : {}),
    });
    stops.push(() => primary.end());
    // the one place a server writes (the quota counts, the keys file's keys, the webhooks API's hooks): a few
    // connections of their own on the primary, opened at their first use
    const writes = createWritePool(cfg, 'mdw-server-writes', log, SERVER_WRITE_CONNECTIONS);
    stops.push(() => writes.end());
    const outageMetrics = createOutageMetrics(registry);
    // reads go to the replicas when there are any (DATABASE_READ_URLS); the LISTEN connection stays on the primary
    const replicas = replicated
      ? new ReadReplicas({
          pools: cfg.databaseReadUrls.map((url) => ({
            url,
            pool: createReadPool(cfg, 'mdw-server', log, { maxWaiting, turns }, url),
          })),
          primary,
          log: log.child({ component: 'read-replicas' }),
          onUnavailable: (err) => outages.database.unavailable(err),
          turns,
        })
      : undefined;
    const pool = replicas?.pool ?? primary;
    const probeMeter = createOutboundMetrics(registry).meter('node', 'status');
    const outages = {
      database: new DependencyOutage({ dependency: 'database', log, metrics: outageMetrics, probe: () => ping(pool) }),
      node: new DependencyOutage({
        dependency: 'node',
        log,
        metrics: outageMetrics,
        // the statuses ask the node again once this finds it back: bounded as their own readings are, a probe sent
        // to a node that hung is not waited for NODE_TIMEOUT_MS after the node answers again (issue 79)
        probe: () => nodeAnswers(cfg.nodeUrl, Math.min(cfg.nodeTimeoutMs, STATUS_READ_MAX_MS), probeMeter),
      }),
      nodeBusy: new DependencyOutage({
        dependency: 'node_capacity',
        log,
        metrics: outageMetrics,
        messages: {
          lost: 'the node refuses requests for load: answering them 503 with Retry-After while it does',
          back: 'the node admits requests again',
        },
        // back once nothing was refused for a while, not at the first request it admits: a busy node refuses some
        // requests and serves others, and a probe that got through would have the next refusal log a new loss
        probe: async () => {
          if (outages.nodeBusy.quietMs < NODE_BUSY_QUIET_MS) throw new Error('the node still refuses requests');
        },
        backoff: { initialMs: NODE_BUSY_QUIET_MS, maxMs: NODE_BUSY_QUIET_MS, jitter: 0 },
      }),
    };
    stops.push(() => {
      outages.database.stop();
      outages.node.stop();
      outages.nodeBusy.stop();
    });
    if (replicas) {
      await replicas.start();
      stops.push(() => replicas.stop());
    }
    // no read goes to a replica before it has replayed what the primary holds now (this start's migrations with it):
    // until then reads answer 503 and /readyz is not ready, rather than a replica's missing tables answering 500
    const replayedAtStart = replicas?.caughtUp(await walEnd(primary));
    // stopping the replicas ends the wait: its rejection is then a failure's, already being thrown
    void replayedAtStart?.catch(() => {});
    return { primary, writes, replicas, pool, turns, outages, replayedAtStart };
  }

  /**
   * #listen starts the LISTEN connection (on the primary) that the response cache's invalidation and the websocket
   * share, before the first request, so no answer is cached unguarded.
   */
  async #listen(db: ServerDatabase): Promise<Listening> {
    const { cfg, log } = this.#deps;
    const { replicas } = db;
    const listener = new NotificationListener({
      pool: db.primary,
      channel: notifyChannel(cfg.databaseSchema),
      log: log.child({ component: 'listener' }),
      ...(replicas ? { replayed: (lsn: bigint) => replicas.replayed(lsn) } : {}),
    });
    await listener.start();
    this.#stops.push(() => listener.stop());
    const responseCache = cfg.apiCacheMaxBytes > 0 ? new ResponseCache({ maxBytes: cfg.apiCacheMaxBytes }) : undefined;
    if (responseCache) {
      const invalidation = startCacheInvalidation({ listener, log, cache: responseCache });
      this.#stops.push(() => invalidation.stop());
    }
    return { listener, responseCache };
  }

  /**
   * #startAccess reads the tiers and the keys and starts flushing the quota counts through `pool` (the server's
   * writes), when API keys are on. Stopped after the HTTP server, so the last requests' counts are flushed.
   */
  async #startAccess(pool: Pool): Promise<ApiAccess | undefined> {
    const { cfg, log, registry } = this.#deps;
    if (!cfg.apiKeys.enabled) return undefined;
    const access = new ApiAccess({ cfg, pool, log, registry, tiers: await loadTiers(cfg.apiKeys) });
    await access.start();
    this.#stops.push(() => access.stop());
    return access;
  }

  /**
   * #serveHttp composes the app, with the admission of its queries and the heap's trim after a burst, and listens on
   * cfg.port.
   */
  async #serveHttp(
    db: ServerDatabase,
    listening: Listening,
    access: ApiAccess | undefined,
  ): Promise<{ server: Server; heapTrim: HeapTrim }> {
    const { cfg, log } = this.#deps;
    const { pool, primary, writes, replicas, outages } = db;
    const admission = new Admission(admissionLimits(cfg.databasePoolSize), db.turns);
    // the memory a burst took goes back to the system once it is over (no request waiting for a turn, the loop idle)
    const heapTrim = new HeapTrim({
      sample: processSampler(() => admission.counts.pressure),
      log: log.child({ component: 'heap-trim' }),
    });
    const app = createApp({
      ...this.#deps,
      pool,
      primary,
      writes,
      replicas,
      ...listening,
      outages,
      admission,
      heapTrim,
      ...(access ? { access } : {}),
      // the websocket server starts after the app: posted transactions reach it once it is there
      onTransactionPosted: (body) => this.#websocket?.reportPosted(body),
      phase: () => this.#phase,
    });
    const handle = app.callback();
    const server = http.createServer(REQUEST_TIMEOUTS, (req, res) => {
      // Node then answers `Connection: close` and closes the socket after the answer; the forwarding proxy reads the
      // same flag for the node's answers it passes on
      if (this.#phase === 'stopping') res.shouldKeepAlive = false;
      void handle(req, res);
    });
    server.keepAliveTimeout = 65_000;
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      // a burst of new connections waits in the kernel's accept queue (capped by net.core.somaxconn), not refused
      server.listen({ port: cfg.port, host: cfg.httpHost, backlog: LISTEN_BACKLOG }, resolve);
    });
    this.#stops.push(() => closeHttp(server));
    const { port } = server.address() as AddressInfo;
    log.info({ port }, 'http api listening');
    this.#httpUrl = `http://${shownHost(cfg.httpHost)}:${port}`;
    return { server, heapTrim };
  }

  /**
   * #startWebsocket starts the websocket server on the shared listener, once a replica has what the primary held at
   * start, and hands it ae_mdw's sockets under /mdw on the HTTP port.
   */
  async #startWebsocket(
    db: ServerDatabase,
    listener: NotificationListener,
    server: Server,
    access: ApiAccess | undefined,
  ): Promise<void> {
    const { cfg, log, registry } = this.#deps;
    const { pool, primary, replicas } = db;
    // the live feed starts from what a replica has; the process stays up meanwhile, however long the replica is away
    await db.replayedAtStart;
    const websocket = await startWebsocketServer({
      cfg,
      log,
      pool,
      primary,
      registry,
      listener,
      ...(access ? { gate: socketGate(access) } : {}),
      ...(replicas ? { raiseFloor: (lsn: bigint, signal: AbortSignal) => replicas.raiseFloor(lsn, signal) } : {}),
    });
    this.#websocket = websocket;
    this.#stops.push(() => websocket.stop());
    // ae_mdw's sockets under /mdw on the HTTP port too, where a client given the gateway's URL looks
    server.on('upgrade', (req, socket, head) => websocket.upgrade(req, socket, head));
  }

  /** #startBackground starts the work that runs beside the requests: the heap's trim. */
  #startBackground(heapTrim: HeapTrim): void {
    heapTrim.start();
    this.#stops.push(() => heapTrim.stop());
  }
}

/** The LISTEN connection the server's parts share, and the response cache its notifications invalidate. */
interface Listening {
  readonly listener: NotificationListener;
  readonly responseCache: ResponseCache | undefined;
}

/** What the server's database step opens (ApiServer #openDatabase). */
interface ServerDatabase {
  readonly primary: Pool;
  /** the primary's pool that writes, beside the read-only ones */
  readonly writes: Pool;
  readonly replicas: ReadReplicas | undefined;
  /** where reads go: the replicas' pool when there are any, else the primary */
  readonly pool: Pool;
  readonly turns: TurnQueue;
  readonly outages: Outages;
  /** resolves once a replica has replayed the primary's position at start (undefined: no replicas) */
  readonly replayedAtStart: Promise<void> | undefined;
}

/** startServer starts an ApiServer: the -s role. */
export async function startServer(deps: ServerDeps): Promise<ApiServer> {
  const server = new ApiServer(deps);
  await server.start();
  return server;
}

/** closeHttp stops accepting and resolves once in-flight requests have been answered. */
function closeHttp(server: Server): Promise<void> {
  return new Promise<void>((resolve) => {
    if (!server.listening) return resolve();
    server.close(() => resolve());
    server.closeIdleConnections();
  });
}

/** shownHost is the host to put in the URL printed for people: loopback when listening on every interface. */
function shownHost(host: string | undefined): string {
  if (host === undefined || host === '0.0.0.0' || host === '::') return '127.0.0.1';
  return host.includes(':') ? `[${host}]` : host;
}

/** nodeAnswers resolves when the node's status answers (any answer below 500: it is there and serving). */
async function nodeAnswers(nodeUrl: string, timeoutMs: number, meter: Meter): Promise<void> {
  const { status } = await httpGet(new URL(`${nodeUrl}/v2/status`), timeoutMs, { meter });
  if (status >= 500) throw new Error(`the node answered ${status}`);
}
