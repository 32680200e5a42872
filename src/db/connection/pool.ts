/**
 * @module Pools bound to one schema, lossless jsonb, transactions. Reads and writes go through
 * separate pools: a server only ever reads, through connections whose transactions are read-only
 * by default and which rely on no session setting but search_path, so its reads could be served by
 * a PostgreSQL replica; the populator and a reload write through a write pool.
 */
import pg from 'pg';
import type { Config } from '../../config/middleware.ts';
import type { Logger } from '../../base/log.ts';
import { parseJson } from '../../chain/json.ts';
import type { TurnQueue } from '../../base/turns.ts';
import { isDatabaseUnavailable, isPoolBusy, PoolBusyError } from './errors.ts';
import { CancellingClient, inWork } from './statement-cancel.ts';

export type Pool = pg.Pool;
export type PoolClient = pg.PoolClient;
/** Queryable is what query functions take: a pool or a client inside a transaction. */
export type Queryable = Pick<pg.Pool, 'query'>;

// jsonb and json come back through the lossless parser so big integers keep every digit.
pg.types.setTypeParser(pg.types.builtins.JSONB, parseJson);
pg.types.setTypeParser(pg.types.builtins.JSON, parseJson);

export interface PoolOptions {
  readonly databaseUrl: string;
  readonly schema: string;
  /** the schema of the users' configuration, on the search_path after `schema` when it is another (migration 1133) */
  readonly configSchema?: string;
  readonly max?: number;
  readonly applicationName?: string;
  /** Every transaction is read-only unless it says otherwise (default_transaction_read_only). */
  readonly readOnly?: boolean;
  /**
   * Most requests that may wait for a connection of a full pool; one more is refused at once with PoolBusyError
   * (a server sheds load so: a bounded queue is a bounded wait, well before the connection timeout). Unbounded
   * when not set.
   */
  readonly maxWaiting?: number;
  /**
   * The turns a server's queries hand their results over in, one a turn (src/base/turns.ts): what a request does with its
   * rows (rendering a page) runs in a turn of its own, so the server reads its sockets between two pages. Needs
   * `maxWaiting`.
   */
  readonly turns?: TurnQueue;
}

type ConnectCallback = (
  err: Error | undefined,
  client: PoolClient | undefined,
  done: (release?: unknown) => void,
) => void;

/** Query is pg's query method in all its forms (a pool's or a connection's). */
type Query = (...args: unknown[]) => unknown;

/**
 * afterTurn is `query` whose promised rows are handed over in a turn of `turns`; a failure comes at once (answering it
 * is cheap). The callback form passes through untouched: it is pg-pool's own, which releases the connection first (a
 * pool's query hands its result over in its own turn).
 */
function afterTurn(query: Query, turns: TurnQueue): Query {
  const inTurn = async (rows: unknown): Promise<unknown> => {
    await turns.next();
    return rows;
  };
  return (...args) => {
    const result = query(...args);
    return result instanceof Promise ? result.then(inTurn) : result;
  };
}

/** queriesInTurns makes a pool's own queries hand their rows over in turns of `turns` (its connections' are theirs). */
function queriesInTurns(pool: pg.Pool, turns: TurnQueue): void {
  pool.query = afterTurn(pool.query.bind(pool) as Query, turns) as pg.Pool['query'];
}

/** clientTakingTurns is a connection class whose queries hand their results over in turns of `turns`. */
function clientTakingTurns(turns: TurnQueue): typeof pg.Client {
  return class extends CancellingClient {
    constructor(config?: string | pg.ClientConfig) {
      super(config);
      this.query = afterTurn(this.query.bind(this) as Query, turns) as pg.Client['query'];
    }
  };
}

/**
 * SheddingPool is the pg pool createPool makes: its queue of requests waiting for a connection is bounded (a server's;
 * unbounded otherwise), its queries (its own and its connections') hand their results over in turns of `turns` when
 * given, and a waiter is called back in its own request's work (statement-cancel.ts inWork).
 */
class SheddingPool extends pg.Pool {
  readonly #maxWaiting: number;

  constructor(config: pg.PoolConfig, maxWaiting: number, turns?: TurnQueue) {
    super(turns ? { ...config, Client: clientTakingTurns(turns) } : config);
    this.#maxWaiting = maxWaiting;
    if (turns) queriesInTurns(this, turns);
  }

  // pool.query() takes its connection through connect(callback), so both forms are bounded here.
  override connect(): Promise<PoolClient>;
  override connect(callback: ConnectCallback): void;
  override connect(callback?: ConnectCallback): Promise<PoolClient> | void {
    const full = this.idleCount === 0 && this.totalCount >= (this.options.max ?? 10);
    if (full && this.waitingCount >= this.#maxWaiting) {
      const err = new PoolBusyError(`all ${this.totalCount} database connections busy, ${this.waitingCount} waiting`);
      if (!callback) return Promise.reject(err);
      process.nextTick(() => callback(err, undefined, () => {}));
      return;
    }
    // pg-pool calls a waiter back from the release of another's connection: bound to the waiter's own context, the
    // query pool.query() then sends is cancelled with its own request's deadline, not the releaser's
    return callback ? super.connect(inWork(callback)) : super.connect();
  }
}

/**
 * searchPath is the connections' search_path: the generation's schema, then the configuration's when it has one of its
 * own, which migration 1133 reads as mdw.config_schema to move the configuration's tables there.
 */
function searchPath({ schema, configSchema }: PoolOptions): string {
  if (configSchema === undefined || configSchema === schema) return `-c search_path=${quoteIdent(schema)}`;
  return `-c search_path=${quoteIdent(schema)},${quoteIdent(configSchema)} -c mdw.config_schema=${configSchema}`;
}

/** createPool opens connections whose search_path is the configured schema (and the configuration's). */
export function createPool(opts: PoolOptions, log: Logger): Pool {
  const config: pg.PoolConfig = {
    connectionString: opts.databaseUrl,
    max: opts.max ?? 10,
    application_name: opts.applicationName ?? 'mdw',
    options: `${searchPath(opts)}${opts.readOnly ? ' -c default_transaction_read_only=on' : ''}`,
    connectionTimeoutMillis: 10_000,
    idleTimeoutMillis: 30_000,
    // TCP keepalive lets the kernel notice a connection that died without a FIN (a node or NAT
    // restart), so the long-lived LISTEN connection learns it is lost sooner.
    keepAlive: true,
    keepAliveInitialDelayMillis: 10_000,
    // a statement is cancelled with the request whose deadline passed (statement-cancel.ts)
    Client: CancellingClient,
  };
  const pool = new SheddingPool(config, opts.maxWaiting ?? Infinity, opts.turns);
  // Without a listener a client's error would crash the process: an idle client's comes through the pool, a
  // checked-out client's (a restart or pg_terminate_backend during a query) from the client itself, after its
  // query has already failed with it. Whoever uses the connection reports the outage, once; these are details.
  pool.on('error', (err) => log.debug({ err: err.message }, 'idle database connection lost'));
  pool.on('connect', (client) => {
    client.on('error', (err) => log.debug({ err: err.message }, 'database connection lost'));
  });
  return pool;
}

/** poolOptions picks the pool settings out of the configuration. */
function poolOptions(cfg: Config, applicationName: string, max: number | undefined): PoolOptions {
  return {
    databaseUrl: cfg.databaseUrl,
    schema: cfg.databaseSchema,
    configSchema: cfg.databaseConfigSchema,
    max: max ?? cfg.databasePoolSize,
    applicationName,
  };
}

/** How a read pool is sized: its connections (default DATABASE_POOL_SIZE) and its bounded queue, if any. */
export interface ReadPoolLimits {
  readonly max?: number;
  readonly maxWaiting?: number;
  readonly turns?: TurnQueue;
}

/**
 * createReadPool is a role's pool for reading: a write through it fails (read-only transactions). It reads
 * DATABASE_URL, or `databaseUrl` (a server's read replica).
 */
export function createReadPool(
  cfg: Config,
  applicationName: string,
  log: Logger,
  limits: ReadPoolLimits = {},
  databaseUrl = cfg.databaseUrl,
): Pool {
  return createPool(
    {
      ...poolOptions(cfg, applicationName, limits.max),
      databaseUrl,
      readOnly: true,
      maxWaiting: limits.maxWaiting,
      turns: limits.turns,
    },
    log,
  );
}

/** How a RoutingPool chooses, checks and gives up on the pools it routes to. */
export interface Routing {
  /** the pool to use now, none of `avoid` (it throws when there is none: the use fails) */
  readonly pick: (avoid: ReadonlySet<Pool>) => Pool;
  /** resolves when a connection may be handed out (it throws: the connection is dropped and the use fails) */
  readonly ready: (client: PoolClient) => Promise<void>;
  /** told of a pool that could not connect, before another is tried */
  readonly unreachable: (pool: Pool) => void;
}

/**
 * RoutingPool sends each query and each connection request to the pool its routing picks at that moment (one of the
 * read replicas), and hands a connection out only once the routing accepted it; a pool that cannot connect (nothing
 * was sent) is left for another. It holds no connection of its own; its counts are those of the pools it routes to.
 */
class RoutingPool extends pg.Pool {
  readonly #routing: Routing;
  readonly #pools: readonly Pool[];

  constructor(pools: readonly Pool[], routing: Routing, turns?: TurnQueue) {
    super({ max: 1 });
    this.#pools = pools;
    this.#routing = routing;
    if (turns) queriesInTurns(this, turns);
    const sum = (count: (p: Pool) => number) => ({ get: () => pools.reduce((n, p) => n + count(p), 0) });
    // pg.Pool declares its counts as fields: they are made the sums on the instance
    Object.defineProperties(this, {
      totalCount: sum((p) => p.totalCount),
      idleCount: sum((p) => p.idleCount),
      waitingCount: sum((p) => p.waitingCount),
    });
  }

  // pool.query() takes its connection through connect(callback): both forms are routed here.
  override connect(): Promise<PoolClient>;
  override connect(callback: ConnectCallback): void;
  override connect(callback?: ConnectCallback): Promise<PoolClient> | void {
    const connected = this.#connect();
    if (!callback) return connected;
    connected.then(
      (client) => callback(undefined, client, (release) => client.release(release as Error | boolean | undefined)),
      (err: Error) => callback(err, undefined, () => {}),
    );
  }

  async #connect(): Promise<PoolClient> {
    const avoid = new Set<Pool>();
    for (;;) {
      const pool = this.#routing.pick(avoid);
      let client: PoolClient;
      try {
        client = await pool.connect();
      } catch (err) {
        if (!isDatabaseUnavailable(err) || isPoolBusy(err)) throw err;
        this.#routing.unreachable(pool);
        avoid.add(pool);
        continue;
      }
      try {
        await this.#routing.ready(client);
        return client;
      } catch (err) {
        // a connection that failed its check is dropped, not handed to the next request
        client.release(true);
        throw err;
      }
    }
  }

  override async end(): Promise<void> {
    await Promise.all(this.#pools.map((p) => p.end()));
  }
}

/** createRoutingPool is a pool whose every use goes to a pool `routing` picks then, on a connection it accepted. */
export function createRoutingPool(pools: readonly Pool[], routing: Routing, turns?: TurnQueue): Pool {
  return new RoutingPool(pools, routing, turns);
}

/** createWritePool is the pool of a role that writes the chain (the populator, a reload). */
export function createWritePool(cfg: Config, applicationName: string, log: Logger, max?: number): Pool {
  return createPool(poolOptions(cfg, applicationName, max), log);
}

/**
 * warmPool opens `count` connections at once and leaves them idle in the pool: each is a connect and an authentication
 * (30–40 ms on a local server), which a role's first statements would otherwise pay one after another. It never
 * rejects: a database that does not answer is met by the statements that need it, which wait as they do.
 */
export async function warmPool(pool: Pool, count: number): Promise<void> {
  const clients = await Promise.allSettled(Array.from({ length: count }, () => pool.connect()));
  for (const c of clients) if (c.status === 'fulfilled') c.value.release();
}

/**
 * concurrently runs independent reads at once on a pool (a connection each) and one after another on a client, which
 * answers one statement at a time: pg queues a second query on a busy client with a deprecation warning, and pg@9
 * refuses it. A read given a snapshot's or a transaction's client is as right as one given the pool.
 */
export async function concurrently<T extends unknown[]>(
  db: Queryable,
  reads: { readonly [K in keyof T]: () => Promise<T[K]> },
): Promise<T> {
  if (db instanceof pg.Pool) return (await Promise.all(reads.map((read) => read()))) as T;
  const results: unknown[] = [];
  for (const read of reads) results.push(await read());
  return results as T;
}

/** withTransaction runs fn on one client inside BEGIN/COMMIT, rolling back and rethrowing on error. */
export async function withTransaction<T>(pool: Pool, fn: (client: PoolClient) => Promise<T>, mode = ''): Promise<T> {
  const client = await pool.connect();
  try {
    return await inTransaction(client, () => fn(client), mode);
  } finally {
    client.release();
  }
}

/** inTransaction runs fn inside one transaction on a connection the caller holds: committed, or rolled back on error. */
export async function inTransaction<T>(client: pg.ClientBase, fn: () => Promise<T>, mode = ''): Promise<T> {
  await client.query(mode ? `BEGIN ${mode}` : 'BEGIN');
  try {
    const result = await fn();
    await client.query('COMMIT');
    return result;
  } catch (err) {
    await client.query('ROLLBACK').catch(() => {});
    throw err;
  }
}

/**
 * withSnapshot runs fn inside one read-only REPEATABLE READ transaction: every statement sees the
 * same committed state, so a concurrent fork cannot mix two chains in one answer.
 */
export function withSnapshot<T>(pool: Pool, fn: (client: PoolClient) => Promise<T>): Promise<T> {
  return withTransaction(pool, fn, 'ISOLATION LEVEL REPEATABLE READ READ ONLY');
}

/** quoteIdent quotes an SQL identifier (schema names come from validated configuration only). */
export function quoteIdent(name: string): string {
  return `"${name.replace(/"/g, '""')}"`;
}
