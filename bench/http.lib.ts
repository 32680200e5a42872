/**
 * @module What the benchmarks share: the processes under test (`mdw devnode --generate`, which every bench runs, and
 * for the HTTP benchmarks bench/api.ts and bench/tokens.ts `mdw -s` and a bare Koa baseline, each in its own
 * process), killed with the bench, and the load generator (undici, keep-alive, a given number of requests in flight)
 * with its latency percentiles.
 */
import { execFileSync, fork, spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { availableParallelism, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import Koa from 'koa';
import { Pool as HttpPool } from 'undici';
import { keyPairFromSeed } from '../src/devnode/keys.ts';
import { freePort } from '../test/support/postgres.ts';
import { processCpuSeconds } from './process-cpu.lib.ts';

const MDW = new URL('../bin/mdw.js', import.meta.url).pathname;
/** the hook a benchmark's `mdw -s` loads when asked (`timed`): its answers' times as it sees them (serverTimes) */
const TIMING_HOOK = new URL('./server-timing.hook.ts', import.meta.url).pathname;
/** where the servers write those times, one directory per benchmark process */
let timingDir: string | undefined;

/**
 * IMAGE_ENV is the environment the image gives every role (the Dockerfile's ENV): graphql-js and Koa run in their
 * production mode (graphql-js's development checks cost a server about a tenth of its CPU per GraphQL page), glibc's
 * malloc gives large blocks back.
 */
export const IMAGE_ENV = { NODE_ENV: 'production', MALLOC_MMAP_THRESHOLD_: '131072' } as const;

export interface Result {
  readonly requests: number;
  readonly perSecond: number;
  readonly p50Ms: number;
  readonly p99Ms: number;
  readonly load1: number;
  /** CPU time (user + system) the answering process spent per request: a count the other jobs on the machine disturb little */
  readonly serverCpuUsPerRequest?: number;
  /** the answers' latency as the server saw it (serverTimes): without the client's share */
  readonly serverP50Ms?: number;
  readonly serverP99Ms?: number;
  /** CPU time the run's PostgreSQL server spent per request (bench/api.ts) */
  readonly postgresCpuUsPerRequest?: number;
}

export interface Child {
  readonly url: string;
  readonly pid: number;
  stop(): Promise<void>;
}

/** DevnodeChild is a devnode process; `internalUrl` is its internal API (e.g. `/v2/debug/dev/pacing`). */
export interface DevnodeChild extends Child {
  readonly internalUrl: string;
  /**
   * the populator's settings as a deployment on this chain has them (`mdw dev`, the tests): the devnode's reward
   * rules (100 AE to each key block's beneficiary at once, fees burnt; none on a hyperchain) and, with `nodeFilesArgs()`, its genesis
   * accounts and hard-fork files. With mainnet's rules and no genesis accounts every beneficiary, the genesis
   * accounts and the fee burn differ from the node's and are located block by block (issue 88).
   */
  readonly deployment: Readonly<Record<string, string>>;
}

/**
 * nodeFilesArgs is `--node-files DIR` for a devnode of this tree, DIR a nodeFilesDir: the node writes its genesis
 * accounts and hard-fork files there and names them before its API line.
 */
export function nodeFilesArgs(): string[] {
  return ['--node-files', nodeFilesDir()];
}

/** nodeFilesDir is a new temporary directory for a devnode's node files (writeNodeFiles), removed at exit. */
export function nodeFilesDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'mdw-bench-node-files-'));
  process.once('exit', () => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

/** Child processes still running: killed when the bench process ends early (an error, Ctrl-C, a closed pipe). */
const running = new Set<ChildProcess>();

/** killChildrenOnExit makes an early end of the bench process take its children along. */
export function killChildrenOnExit(): void {
  process.once('exit', () => {
    for (const child of running) child.kill('SIGKILL');
  });
  for (const signal of ['SIGINT', 'SIGTERM'] as const) process.once(signal, () => process.exit(1));
}

/** the core reserveServerCore keeps for the servers of startMdwServer, once it has */
let serverCore: number | undefined;

/**
 * reserveServerCore gives the servers startMdwServer starts from now on the last core to themselves, as a pod has the
 * CPU it requests, and this process, its threads and whatever it starts after (PostgreSQL, the devnode, the populator)
 * the others (`taskset`): what the server's latency shows is then the server's, not its turn for a core beside the
 * load generator and the database. Nothing is reserved with `BENCH_SERVER_CORE=none` or on a machine of one core.
 * Answers the core, if one is reserved.
 */
export function reserveServerCore(): number | undefined {
  const cores = availableParallelism();
  if (process.env.BENCH_SERVER_CORE === 'none' || cores < 2) return undefined;
  serverCore = cores - 1;
  execFileSync('taskset', ['-a', '-p', '-c', `0-${serverCore - 1}`, String(process.pid)], { stdio: 'ignore' });
  return serverCore;
}

/** track remembers a child until it exits. */
export function track(child: ChildProcess): ChildProcess {
  running.add(child);
  child.once('exit', () => running.delete(child));
  return child;
}

/**
 * fixedGenesisArgs are a devnode's flags for the populator benches' genesis: a fixed account and beneficiary, the same
 * on every node and in every run (the devnode would make random ones), so paired runs load one chain.
 */
export function fixedGenesisArgs(): string[] {
  const account = keyPairFromSeed(new Uint8Array(32).fill(21));
  const beneficiary = keyPairFromSeed(new Uint8Array(32).fill(22));
  return ['--beneficiary', beneficiary.secretKey, '--account', `${account.secretKey}:${10n ** 24n}`];
}

/**
 * workerFlags are a devnode's flags for `slots` workers in each of its regulators and a queue no populator fills (its
 * limit is at most 256 in flight): the node's bound is its workers' time, never a refusal, as these benchmarks ran
 * before the devnode had a real node's queues (issue 87).
 */
export function workerFlags(slots: number): string[] {
  return ['--http-read', `${slots}:1000`, '--http-update', `${slots}:1000`];
}

/**
 * startDevnodeProcess runs `mdw devnode` with these arguments (e.g. `--generate N --seed S`; mining only on demand, so
 * the chain stays put) and waits for its URL. `stdout` receives the devnode's own output (its log lines); `mdw` is the
 * bin/mdw.js whose devnode runs (another tree's: loaded-chain.lib.ts, BENCH_CHAIN_MDW); `nodeOptions` its NODE_OPTIONS
 * (`--inspect=…`, for its heap: heap.lib.ts).
 */
export async function startDevnodeProcess(
  args: readonly string[],
  stdout?: (text: string) => void,
  mdw = MDW,
  nodeOptions?: string,
): Promise<DevnodeChild> {
  const [port, internalPort] = [await freePort(), await freePort()];
  const child = track(
    spawn(
      process.execPath,
      [
        mdw,
        'devnode',
        ...args,
        ...['--port', String(port), '--internal-port', String(internalPort)],
        ...['--key-block-interval', '0', '--micro-block-interval', '0'],
      ],
      {
        stdio: ['ignore', 'pipe', 'inherit'],
        env: { ...process.env, ...(nodeOptions && { NODE_OPTIONS: nodeOptions }) },
      },
    ),
  );
  let output = '';
  child.stdout!.setEncoding('utf8');
  let exited: ((code: number | null) => void) | undefined;
  const [url, internalUrl] = await new Promise<[string, string]>((resolve, reject) => {
    exited = (code) => reject(new Error(`devnode exited with ${code}`));
    child.once('exit', exited);
    child.stdout!.on('data', (chunk: string) => {
      stdout?.(chunk);
      output += chunk;
      const match = /devnode external API: (\S+)\s+internal API: (\S+)\r?\n/.exec(output);
      if (match) resolve([match[1]!, match[2]!]);
    });
  });
  child.off('exit', exited!);
  child.stdout!.resume();
  const files = [...output.matchAll(/^([A-Z_]+_FILE)=(\S+)$/gm)].map((m) => [m[1]!, m[2]!] as const);
  // a hyperchain's rewards are its own whatever REWARD_RULES says (the populator warns of one set there)
  const rules: Record<string, string> = args.includes('--hyperchain') ? {} : { REWARD_RULES: 'devnode' };
  const deployment = { ...rules, ...Object.fromEntries(files) };
  return { url, internalUrl, deployment, pid: child.pid!, stop: () => stopChild(child) };
}

/**
 * startMdwServer runs `mdw -s` as a pod does (its own process, the image's environment and the given one) and waits
 * until it is ready; `mdw` is another tree's bin/mdw.js for an A/B run (this tree's by default), `nodeArgs` Node
 * flags that NODE_OPTIONS does not take (`--trace-gc`), `timed` to read its answers' times (serverTimes).
 */
export async function startMdwServer(
  env: Record<string, string>,
  nodeOptions = '',
  { mdw = MDW, nodeArgs = [], timed = false }: { mdw?: string; nodeArgs?: readonly string[]; timed?: boolean } = {},
): Promise<Child> {
  const [port, wsPort] = [await freePort(), await freePort()];
  if (timed && timingDir === undefined) {
    const dir = (timingDir = mkdtempSync(join(tmpdir(), 'mdw-bench-timing-')));
    process.once('exit', () => rmSync(dir, { recursive: true, force: true }));
  }
  const node = [process.execPath, ...nodeArgs, ...(timed ? ['--import', TIMING_HOOK] : []), mdw, '-s'];
  const [command, ...args] = serverCore === undefined ? node : ['taskset', '-c', String(serverCore), ...node];
  const child = track(
    spawn(command!, args, {
      env: {
        ...process.env,
        ...IMAGE_ENV,
        ...env,
        ...(timed && { BENCH_SERVER_TIMING_DIR: timingDir }),
        PORT: String(port),
        WEBSOCKET_ADDRESS: `127.0.0.1:${wsPort}`,
        LOG_LEVEL: 'warn',
        NODE_OPTIONS: nodeOptions,
      },
      stdio: ['ignore', 'inherit', 'inherit'],
    }),
  );
  const url = `http://127.0.0.1:${port}`;
  await waitReady(url, child);
  return { url, pid: child.pid!, stop: () => stopChild(child) };
}

/**
 * startBareKoa runs bench/bare-koa.lib.ts: a Koa app with one JSON endpoint (`{height: top}`), in a process of its
 * own with the servers' Node flags.
 */
export async function startBareKoa(top: number, nodeOptions = ''): Promise<Child> {
  const child = track(
    fork(new URL('bare-koa.lib.ts', import.meta.url).pathname, [String(top)], {
      stdio: 'inherit',
      execArgv: [],
      env: { ...process.env, NODE_OPTIONS: nodeOptions },
    }),
  );
  const [{ url }] = (await once(child, 'message')) as [{ url: string }];
  return { url, pid: child.pid!, stop: () => stopChild(child) };
}

/** serveBareKoa answers `{height}` on every path (`/bytes/<n>`: n bytes of JSON) until SIGTERM. */
export async function serveBareKoa(top: number): Promise<void> {
  const bare = new Koa();
  // `/` answers a tiny object; `/bytes/<n>` n bytes of JSON from a buffer made once, as a memory hit does.
  const sized = new Map<number, Buffer>();
  bare.use((ctx) => {
    const n = /^\/bytes\/(\d+)$/.exec(ctx.path)?.[1];
    if (n === undefined) {
      ctx.body = { height: top };
      return;
    }
    const size = Number(n);
    if (!sized.has(size)) sized.set(size, Buffer.from(`{"pad":"${'x'.repeat(Math.max(0, size - 10))}"}`));
    ctx.type = 'application/json';
    ctx.body = sized.get(size);
  });
  const server = createServer(bare.callback());
  server.keepAliveTimeout = 65_000;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  process.send!({ url: `http://127.0.0.1:${(server.address() as AddressInfo).port}` });
  process.once('SIGTERM', () => {
    server.close();
    server.closeAllConnections();
    process.disconnect();
  });
}

/**
 * serverTimes are the times (ms, sorted) of the answers a `timed` server of startMdwServer gave since the previous
 * call, as it saw them (bench/server-timing.hook.ts): its own latency, without the client's.
 */
export async function serverTimes(server: Child): Promise<number[]> {
  const file = join(timingDir!, `${server.pid}.txt`);
  rmSync(file, { force: true });
  process.kill(server.pid, 'SIGUSR2');
  for (let i = 0; i < 500; i++) {
    try {
      const text = readFileSync(file, 'utf8');
      return text === ''
        ? []
        : text
            .split('\n')
            .map(Number)
            .sort((a, b) => a - b);
    } catch {
      await sleep(10);
    }
  }
  throw new Error(`server ${server.pid} wrote no answer times`);
}

/** percentile is the value at quantile q of sorted values (the nearest rank at or below), to the microsecond. */
export function percentile(sorted: readonly number[], q: number): number {
  return Number(sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!.toFixed(3));
}

export function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[mid]! : Number(((sorted[mid - 1]! + sorted[mid]!) / 2).toFixed(3));
}

/** cpuMicros is the user + system CPU time a process has used so far (clock ticks of 10 ms). */
export function cpuMicros(pid: number): number {
  return processCpuSeconds(pid) * 1e6;
}

async function waitReady(url: string, child: ChildProcess): Promise<void> {
  for (let i = 0; i < 300; i++) {
    if (child.exitCode !== null) throw new Error(`server exited with ${child.exitCode}`);
    const ok = await fetch(`${url}/readyz`).then(
      (r) => r.ok,
      () => false,
    );
    if (ok) return;
    await sleep(100);
  }
  throw new Error(`${url} not ready`);
}

/** stopChild sends SIGTERM (the servers stop gracefully, writing CPU profiles when asked) and waits for the exit. */
async function stopChild(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null) return;
  const exited = once(child, 'exit');
  child.kill('SIGTERM');
  await exited;
}

/** load sends `total` GETs with `concurrency` in flight over keep-alive connections and reports rate and latency. */
export async function load(
  base: string,
  path: () => string,
  total: number,
  concurrency: number,
  headers: Record<string, string> = {},
): Promise<Result> {
  return loadVisits(base, getOf(path), total, concurrency, headers);
}

/** A visit: what a client does for one measured request, through `get` (a GET of 200 answering its body's text). */
export type Visit = (get: (path: string) => Promise<string>) => Promise<unknown>;

/** getOf is the visit of one GET, of the path `path` gives each time. */
export const getOf =
  (path: () => string): Visit =>
  (get) =>
    get(path());

/**
 * loadVisits makes `total` visits, `concurrency` clients at a time sharing as many keep-alive connections, and reports
 * the rate and latency of visits (a visit of several GETs, a page and what it points at, is one).
 */
export async function loadVisits(
  base: string,
  visit: Visit,
  total: number,
  concurrency: number,
  headers: Record<string, string> = {},
): Promise<Result> {
  const client = new HttpPool(base, { connections: concurrency, pipelining: 1 });
  const get = async (path: string): Promise<string> => {
    const res = await client.request({ method: 'GET', path, headers });
    const text = await res.body.text();
    if (res.statusCode !== 200) throw new Error(`${base}${path}: status ${res.statusCode}`);
    return text;
  };
  const latencies: number[] = [];
  let sent = 0;
  await visit(get);
  const started = performance.now();
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (sent < total) {
        sent++;
        const t = performance.now();
        await visit(get);
        latencies.push(performance.now() - t);
      }
    }),
  );
  const elapsed = performance.now() - started;
  await client.close();
  latencies.sort((a, b) => a - b);
  return {
    requests: latencies.length,
    perSecond: Number(((latencies.length / elapsed) * 1000).toFixed(1)),
    p50Ms: percentile(latencies, 0.5),
    p99Ms: percentile(latencies, 0.99),
    load1: Number(loadavg()[0]!.toFixed(2)),
  };
}
