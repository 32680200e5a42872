/**
 * @module Operations on the scale bench's loaded chain (issue 57, part 4): the kept database of `BENCH_SCALE` (one
 * size; with BENCH_SCALE_PG_MEMORY its server stays in its memory cgroup) while a server answers. Each operation runs
 * as an operator runs it, `mdw …` in a process of its own under /usr/bin/time: its wall and CPU time, peak RSS, the load
 * average, the server's and PostgreSQL's peak memory meanwhile, and its log lines that tell progress (kept in
 * bench/results/scale-ops-<op>.log), and the devnode's peak RSS meanwhile and its memory after a full collection
 * once it ended (what it keeps from serving it). BENCH_SCALE_OPS picks them and their order (default all, in this
 * order; `H,…` first, with BENCH_SCALE_OPS_HEIGHTS past a fork round's depth, brings a kept database whose top the
 * round left behind onto the new devnode's chain: `fork` does not run on it, the populator refusing a fork that deep):
 *   v          `mdw -v`
 *   full       `mdw -v --full --sample 1000`
 *   state      `mdw -v --state --sample 1000`: `-v --full`'s last part alone, the derived state against the chain's at
 *              the top (dry-runs of every token's holders, names, oracles, channels, sampled balances)
 *   H          `mdw -H` over the last min(top, BENCH_SCALE_OPS_HEIGHTS = 10 000) heights, in place
 *   fork       a fork of depth 20 at the top (the devnode's /v2/debug/dev/fork), then `mdw -p` until it holds the new top
 *              (at most 10 minutes); the fork is the same each time, so a database that followed it once holds it (`H`
 *              first brings back the devnode's own top), and one whose chain left the devnode's deeper than
 *              MAX_FORK_DEPTH is not asked
 *   migration  a migration adding an index to the largest table (the migrator's transaction: CREATE INDEX), then the
 *              same with CREATE INDEX CONCURRENTLY, each while requests go to the server (their slowest answer)
 *   reload     blue/green: `mdw -H 0-top --schema <schema>_g2` beside the live schema, and the disk it took
 * BENCH_SCALE_OPS_MAX_SECONDS stops `v`, `full` and `reload` after that long (SIGTERM) and reports how far they came
 * (their progress lines give done / total and the rate); the reload is then started again for as long, to see whether
 * it goes on from there. The devnode's memory after generation and at the end is reported beside the operations.
 *
 *   BENCH_SCALE=0.5 BENCH_SCALE_PG_MEMORY=128M node bench/scale-ops.ts
 */
import { spawn } from 'node:child_process';
import { copyFileSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir, loadavg } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { DEFAULTS } from '../src/config/defaults.ts';
import { migrate, MIGRATIONS_DIR } from '../src/db/schema/migrator.ts';
import { dropSchema, schemaSizes } from '../src/db/schema/admin.ts';
import { createLogger } from '../src/base/log.ts';
import { killChildrenOnExit, startMdwServer } from './http.lib.ts';
import { memoryMb, rssMb } from './process-memory.lib.ts';
import { processCpuSeconds } from './process-cpu.lib.ts';
import { writeResult, writeResultFile } from './results.lib.ts';
import { scaleChain, type ScaleChain } from './scale-chain.lib.ts';
import type { SettledMemory } from './heap.lib.ts';

const PERCENT = Number(process.env.BENCH_SCALE ?? '0.1');
const OPS = (process.env.BENCH_SCALE_OPS ?? 'v,full,H,fork,migration,reload').split(',');
const HEIGHTS = Number(process.env.BENCH_SCALE_OPS_HEIGHTS ?? 10_000);
const MAX_SECONDS = Number(process.env.BENCH_SCALE_OPS_MAX_SECONDS ?? 0);
/** how long `fork` waits for the populator to hold the new top (it follows a fork of 20 in seconds) */
const FORK_WAIT_MS = 10 * 60_000;
const capped = MAX_SECONDS ? () => new Promise<void>((r) => setTimeout(r, MAX_SECONDS * 1000)) : undefined;
const MDW = new URL('../bin/mdw.js', import.meta.url).pathname;
const PROGRESS = /progress|heights? .*(of|left)|loaded|reloading|compared|verified|synced|%/i;
const log = createLogger({ logLevel: 'silent', logPretty: false, logDir: undefined }).log;

interface Measured {
  readonly seconds: number;
  /** the mdw process's CPU time (user and system): on a shared machine the figure that moves least */
  readonly cpuSeconds?: number;
  readonly peakRssMb?: number;
  readonly load: string;
  readonly serverPeakRssMb: number;
  readonly postgresPeakMb?: number;
  /** the devnode's CPU time, its highest RSS during the operation, and its memory after a full collection once it ended */
  readonly devnodeCpuSeconds?: number;
  readonly devnodePeakRssMb?: number;
  readonly devnodeSettled?: SettledMemory;
  readonly progressLines: number;
  readonly note?: string;
}

const load = (): string => loadavg()[0]!.toFixed(1);

/** mdw runs `mdw args` under /usr/bin/time until it exits (or `until` resolves: then SIGTERM); its time and peak RSS. */
async function mdw(
  name: string,
  args: readonly string[],
  env: Record<string, string>,
  until?: () => Promise<void>,
): Promise<{ seconds: number; cpuSeconds: number; peakRssMb: number; progressLines: number; code: number | null }> {
  const t0 = performance.now();
  // a process group of its own: /usr/bin/time passes no signal on, so a bench that ends early kills the group
  const child = spawn('/usr/bin/time', ['-f', 'bench-time %e %M %U %S', process.execPath, MDW, ...args], {
    env: { ...process.env, ...env, LOG_LEVEL: 'info', LOG_PRETTY: 'false' },
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  const killGroup = (): void => {
    try {
      process.kill(-child.pid!, 'SIGKILL');
    } catch {
      // the group has ended
    }
  };
  process.once('exit', killGroup);
  child.once('exit', () => process.off('exit', killGroup));
  let output = '';
  child.stdout!.on('data', (b: Buffer) => (output += String(b)));
  child.stderr!.on('data', (b: Buffer) => (output += String(b)));
  const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
  if (until) {
    await until();
    // /usr/bin/time passes nothing on: its child, the mdw process, is the one to stop
    const [mdwPid] = readFileSync(`/proc/${child.pid}/task/${child.pid}/children`, 'utf8').trim().split(' ');
    process.kill(Number(mdwPid), 'SIGTERM');
  }
  const code = await exited;
  const seconds = (performance.now() - t0) / 1000;
  writeResultFile(`scale-ops-${name}.log`, output);
  const time = /bench-time (\S+) (\d+) (\S+) (\S+)/.exec(output);
  const lines = output.split('\n').filter((l) => PROGRESS.test(l) && !l.startsWith('bench-time'));
  console.log(`  ${name}: exit ${code}, ${lines.length} progress lines; last: ${lines.at(-1)?.slice(0, 200) ?? '–'}`);
  return {
    seconds,
    cpuSeconds: Number(time?.[3] ?? 0) + Number(time?.[4] ?? 0),
    peakRssMb: Math.round(Number(time?.[2] ?? 0) / 1024),
    progressLines: lines.length,
    code,
  };
}

/** storedTop is the stored top generation's height and hash (-1 for none). */
async function storedTop(chain: ScaleChain, schema = chain.env.DATABASE_SCHEMA!): Promise<[number, string]> {
  const { rows } = await chain.pool.query<{ height: number; hash: string }>(
    `SELECT height, hash FROM ${schema}.key_blocks ORDER BY height DESC LIMIT 1`,
  );
  return rows[0] ? [rows[0].height, rows[0].hash] : [-1, ''];
}

/** storedHash is the stored key block's hash at `height`. */
async function storedHash(chain: ScaleChain, height: number): Promise<string | undefined> {
  const { rows } = await chain.pool.query<{ hash: string }>(
    `SELECT hash FROM ${chain.env.DATABASE_SCHEMA}.key_blocks WHERE height = $1`,
    [height],
  );
  return rows[0]?.hash;
}

async function nodeHash(chain: ScaleChain, height: number): Promise<string | undefined> {
  const res = await fetch(`${chain.devnode.url}/v2/key-blocks/height/${height}`);
  return res.ok ? ((await res.json()) as { hash: string }).hash : undefined;
}

async function nodeTop(chain: ScaleChain): Promise<[number, string]> {
  const top = (await (await fetch(`${chain.devnode.url}/v2/key-blocks/current`)).json()) as {
    height: number;
    hash: string;
  };
  return [top.height, top.hash];
}

/** slowestAnswer asks the server for a page again and again until `done` settles: the slowest answer's ms. */
async function slowestAnswer(url: string, done: Promise<unknown>): Promise<number> {
  let over = false;
  void done.finally(() => (over = true));
  let slowest = 0;
  while (!over) {
    const t0 = performance.now();
    await (await fetch(`${url}/mdw/v3/transactions?limit=100`)).arrayBuffer();
    slowest = Math.max(slowest, performance.now() - t0);
  }
  return Math.round(slowest);
}

async function largestTable(chain: ScaleChain): Promise<{ table: string; bytes: number; column: string }> {
  const tables = await schemaSizes(chain.env.DATABASE_URL!, chain.env.DATABASE_SCHEMA!);
  const largest = tables.reduce((a, b) => (b.totalBytes > a.totalBytes ? b : a));
  const { rows } = await chain.pool.query<{ column_name: string }>(
    `SELECT column_name FROM information_schema.columns WHERE table_schema = $1 AND table_name = $2
       AND data_type IN ('integer', 'bigint', 'smallint') ORDER BY ordinal_position DESC LIMIT 1`,
    [chain.env.DATABASE_SCHEMA, largest.table],
  );
  return { table: largest.table, bytes: largest.totalBytes, column: rows[0]!.column_name };
}

async function databaseBytes(chain: ScaleChain): Promise<number> {
  const { rows } = await chain.pool.query<{ n: string }>('SELECT pg_database_size(current_database()) AS n');
  return Number(rows[0]!.n);
}

async function main(): Promise<void> {
  killChildrenOnExit();
  const chain = await scaleChain(PERCENT, 'bench-scale');
  if (chain.loadedNow) console.log('(the chain was loaded now: run bench/scale.ts first to measure the load)');
  const env = { ...chain.env, DATABASE_POOL_SIZE: '10' };
  const server = await startMdwServer({ ...env, API_CACHE_MAX_BYTES: '0' });
  const [top] = await storedTop(chain);
  console.log(`scale ${PERCENT} %: top ${top}, ${chain.facts.transactions} transactions; load ${load()}`);
  const results: Record<string, Measured> = {};
  // the cgroup of bench/pg-memory.lib.ts, when BENCH_SCALE_PG_MEMORY put the server in one
  const postgresMemory = (): number | undefined => chain.postgresMemory()?.usage;
  const devnodeRss = (): number => (chain.devnode.pid ? rssMb(chain.devnode.pid) : 0);
  type Measure = () => Promise<
    Omit<Measured, 'serverPeakRssMb' | 'postgresPeakMb' | 'devnodeCpuSeconds' | 'devnodePeakRssMb'>
  >;
  const run = async (op: string, body: Measure) => {
    let [serverPeak, postgresPeak, devnodePeak] = [rssMb(server.pid), postgresMemory() ?? 0, devnodeRss()];
    const devnodeCpu = chain.devnode.pid ? processCpuSeconds(chain.devnode.pid) : 0;
    const watch = setInterval(() => {
      serverPeak = Math.max(serverPeak, rssMb(server.pid));
      postgresPeak = Math.max(postgresPeak, postgresMemory() ?? 0);
      devnodePeak = Math.max(devnodePeak, devnodeRss());
    }, 500);
    const measured = await body();
    clearInterval(watch);
    const devnodeCpuSeconds = chain.devnode.pid ? processCpuSeconds(chain.devnode.pid) - devnodeCpu : 0;
    const devnodeSettled = await chain.devnodeSettled();
    results[op] = {
      ...measured,
      serverPeakRssMb: Math.round(serverPeak),
      ...(postgresPeak ? { postgresPeakMb: Math.round(postgresPeak / 2 ** 20) } : {}),
      ...(devnodeSettled ? { devnodeCpuSeconds, devnodePeakRssMb: Math.round(devnodePeak), devnodeSettled } : {}),
    };
    console.log(`${op}: ${JSON.stringify(results[op])}`);
  };
  const timed = async (name: string, args: string[], until?: () => Promise<void>, extraEnv = {}) => {
    const load0 = load();
    const r = await mdw(name, args, { ...env, ...extraEnv }, until);
    return { ...r, load: `${load0}–${load()}`, ...(r.code === 0 || until ? {} : { note: `exit ${r.code}` }) };
  };

  const ops: Record<string, Measure> = {};
  ops.v = () => timed('v', ['-v'], capped);
  ops.full = async () => {
    const r = await timed('full', ['-v', '--full', '--sample', '1000'], capped);
    // a stopped `-v --full` leaves its scratch schema for the next run to go on from: dropped here, none follows
    const { rows } = await chain.pool.query<{ name: string }>(
      `SELECT schema_name AS name FROM information_schema.schemata WHERE schema_name LIKE $1`,
      [`${chain.env.DATABASE_SCHEMA}_verify%`],
    );
    for (const { name } of rows) await dropSchema(chain.env.DATABASE_URL!, name);
    return { ...r, note: `${r.note ?? ''}scratch schemas left behind: ${rows.length}` };
  };
  ops.state = () => timed('state', ['-v', '--state', '--sample', '1000'], capped);
  ops.H = () => timed('H', ['-H', `${Math.max(1, top - HEIGHTS + 1)}-${top}`]);
  ops.fork = async () => {
    // the populator follows a fork of at most MAX_FORK_DEPTH: the stored chain must be the devnode's that far down
    const below = Math.max(0, top - DEFAULTS.MAX_FORK_DEPTH + 20);
    const [stored, node] = [await storedHash(chain, below), await nodeHash(chain, below)];
    if (stored !== node)
      return {
        seconds: 0,
        load: load(),
        progressLines: 0,
        note:
          `not run: the stored block at ${below} is not the devnode's (${stored} against ${node}), so a fork of 20 ` +
          'at the top would be one deeper than the populator follows; run H first, BENCH_SCALE_OPS_HEIGHTS past ' +
          'where the two part',
      };
    const forked = (await (
      await fetch(`${chain.devnode.internalUrl}/v2/debug/dev/fork`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ depth: 20 }),
      })
    ).json()) as { height: number; top_key_block_hash: string };
    console.log(`  forked: top ${forked.height} ${forked.top_key_block_hash}`);
    // the devnode's fork is deterministic: a database that followed it once already holds it
    const newTop = String(await nodeTop(chain));
    if (String(await storedTop(chain)) === newTop)
      return { seconds: 0, load: load(), progressLines: 0, note: 'not run: the database holds this fork already' };
    let caught = false;
    const caughtUp = async (): Promise<void> => {
      for (const deadline = performance.now() + FORK_WAIT_MS; performance.now() < deadline;) {
        if ((caught = String(await storedTop(chain)) === newTop)) return;
        await new Promise((r) => setTimeout(r, 200));
      }
    };
    const r = await timed('fork', ['-p'], caughtUp);
    return caught ? r : { ...r, note: `the new top not held after ${FORK_WAIT_MS / 60_000} min: scale-ops-fork.log` };
  };
  ops.migration = async () => {
    const { table, bytes, column } = await largestTable(chain);
    const dir = mkdtempSync(join(tmpdir(), 'mdw-bench-migrations-'));
    for (const f of readdirSync(MIGRATIONS_DIR).filter((f) => f.endsWith('.sql')))
      copyFileSync(join(MIGRATIONS_DIR, f), join(dir, f));
    writeFileSync(join(dir, '9999_bench_index.sql'), `CREATE INDEX bench_index ON ${table} (${column});`);
    const opts = { databaseUrl: chain.env.DATABASE_URL!, schema: chain.env.DATABASE_SCHEMA!, dir };
    const quiet = await slowestAnswer(server.url, new Promise((r) => setTimeout(r, 5000)));
    const t0 = performance.now();
    const load0 = load();
    const migrating = migrate(opts, log);
    const slowest = await slowestAnswer(server.url, migrating);
    const seconds = (performance.now() - t0) / 1000;
    const t1 = performance.now();
    const concurrently = chain.pool.query(
      `CREATE INDEX CONCURRENTLY bench_index_c ON ${chain.env.DATABASE_SCHEMA}.${table} (${column})`,
    );
    const slowestConcurrently = await slowestAnswer(server.url, concurrently);
    const secondsConcurrently = (performance.now() - t1) / 1000;
    await chain.pool.query(
      `DROP INDEX ${chain.env.DATABASE_SCHEMA}.bench_index, ${chain.env.DATABASE_SCHEMA}.bench_index_c`,
    );
    await chain.pool.query(`DELETE FROM ${chain.env.DATABASE_SCHEMA}.mdw_migrations WHERE name = '9999_bench_index'`);
    return {
      seconds,
      load: `${load0}–${load()}`,
      progressLines: 0,
      note:
        `CREATE INDEX on ${table} (${column}; ${Math.round(bytes / 2 ** 20)} MB with its indexes) in the migrator's ` +
        `transaction; slowest answer meanwhile ${slowest} ms (${quiet} ms before); CREATE INDEX CONCURRENTLY ` +
        `${secondsConcurrently.toFixed(1)} s, slowest answer meanwhile ${slowestConcurrently} ms`,
    };
  };
  ops.reload = async () => {
    const green = `${chain.env.DATABASE_SCHEMA}_g2`;
    const before = await databaseBytes(chain);
    const r = await timed('reload', ['-H', `0-${top}`, '--schema', green], capped);
    const after = await databaseBytes(chain);
    const schemaBytes = (await schemaSizes(chain.env.DATABASE_URL!, green)).reduce((n, t) => n + t.totalBytes, 0);
    const [reached] = await storedTop(chain, green);
    let again = '';
    if (capped) {
      const restarted = await timed('reload-again', ['-H', `0-${top}`, '--schema', green], capped);
      again = `; started again: ${(await storedTop(chain, green))[0]} after ${restarted.seconds.toFixed(0)} s more`;
    }
    await dropSchema(chain.env.DATABASE_URL!, green);
    return {
      ...r,
      note:
        `${r.note ?? ''}reached height ${reached} of ${top}; new schema ${Math.round(schemaBytes / 2 ** 20)} MB; ` +
        `database grew ${Math.round((after - before) / 2 ** 20)} MB${again}`,
    };
  };
  const unknown = OPS.filter((op) => !ops[op]);
  if (unknown.length > 0) throw new Error(`BENCH_SCALE_OPS: no ${unknown.join(', ')} (${Object.keys(ops).join(', ')})`);
  for (const op of OPS) await run(op, ops[op]!);
  // read before the devnode stops; none with BENCH_SCALE_NO_DEVNODE (pid 0), which serves only `migration`
  const { rss, peak } = chain.devnode.pid ? memoryMb(chain.devnode.pid) : { rss: 0, peak: 0 };
  await server.stop();
  await chain.stop();
  const devnodeRssMb = { generated: chain.devnodeRssMb.generated, end: Math.round(rss), peak: Math.round(peak) };
  console.log(`devnode RSS MB: ${JSON.stringify(devnodeRssMb)}`);
  writeResult('scale-ops', { date: new Date().toISOString(), percent: PERCENT, top, devnodeRssMb, results });
}

await main();
