/** @module The only importer of 'pg': pools bound to one schema, lossless jsonb, transactions. */
import pg from 'pg';
import type { Config } from '../config.ts';
import type { Logger } from '../log.ts';
import { parseJson } from '../chain/json.ts';

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
  readonly max?: number;
  readonly applicationName?: string;
}

/** createPool opens connections whose search_path is the configured schema. */
export function createPool(opts: PoolOptions, log: Logger): Pool {
  const pool = new pg.Pool({
    connectionString: opts.databaseUrl,
    max: opts.max ?? 10,
    application_name: opts.applicationName ?? 'mdw',
    options: `-c search_path=${quoteIdent(opts.schema)}`,
    connectionTimeoutMillis: 10_000,
    idleTimeoutMillis: 30_000,
    // TCP keepalive lets the kernel notice a connection that died without a FIN (a node or NAT
    // restart), so the long-lived LISTEN connection learns it is lost sooner.
    keepAlive: true,
    keepAliveInitialDelayMillis: 10_000,
  });
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
export function poolOptions(cfg: Config, applicationName: string): PoolOptions {
  return { databaseUrl: cfg.databaseUrl, schema: cfg.databaseSchema, max: cfg.databasePoolSize, applicationName };
}

/** withTransaction runs fn on one client inside BEGIN/COMMIT, rolling back and rethrowing on error. */
export async function withTransaction<T>(pool: Pool, fn: (client: PoolClient) => Promise<T>, mode = ''): Promise<T> {
  const client = await pool.connect();
  try {
    await client.query(mode ? `BEGIN ${mode}` : 'BEGIN');
    const result = await fn(client);
    await client.query('COMMIT');
    return result;
  } catch (err) {
    await client.query('ROLLBACK').catch(() => {});
    throw err;
  } finally {
    client.release();
  }
}

/** quoteIdent quotes an SQL identifier (schema names come from validated configuration only). */
export function quoteIdent(name: string): string {
  return `"${name.replace(/"/g, '""')}"`;
}
