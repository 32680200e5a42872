/**
 * @module Websocket benchmark: N subscribed clients (default 10 000) on one server process, time from
 * the populator's COMMIT to delivery at every client (p50/p99), and the server's RSS.
 *
 *   node bench/websocket.ts [--clients 10000] [--processes 2] [--warmup 1] [--rounds 20] [--txs 2] [--out bench/results/websocket.json]
 *                           [--protocol seed|mdw] [--source] [--server-node-options=<NODE_OPTIONS of the server>]
 *
 * The server under test is what a pod runs: `mdw -s` (HTTP API and websocket in one process) as the
 * image runs it: the sources compiled to dist/ (tsc -p tsconfig.build.json) in a temporary copy of
 * the image's layout, NODE_ENV=production, and the NODE_OPTIONS the operator gives server pods
 * (SERVER_NODE_OPTIONS), so its RSS is what a production user sees. `--source` runs the checkout's
 * sources instead (type stripping adds ~30 MB); `--server-node-options=` runs with V8's defaults.
 * The 10k clients share the server's cores, unlike real ones: their CPU per height is reported
 * (clientCpuMsPerHeight), as it is part of the latency measured here. Other processes: this one
 * (database, populator double, measurements) and client processes (`clients` mode). Baselines measured in the
 * same run, on the same machine:
 * - a bare `ws` server broadcasting frames of the same sizes when told over IPC (`bare` mode):
 *   what 10k sockets cost on this machine without database, hub or anything of ours;
 * - a bare LISTEN connection: COMMIT → notification, the floor any NOTIFY-driven delivery stands on.
 * `--protocol mdw` measures ae_mdw's websocket instead of the seed's: the clients subscribe as aepp-sdk's
 * MiddlewareSubscriber does (`{"op":"Subscribe","payload":"KeyBlocks"}`, no `source`) on `/mdw/v3/websocket` of the
 * HTTP port, where docs/api-v3.md points it, and are done with an event once they have it from both sources (mdw, node).
 * Database: TEST_DATABASE_URL when set, else an embedded PostgreSQL.
 */
import { fork, spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { cpus, loadavg, tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { parseArgs } from 'node:util';
import WebSocket, { WebSocketServer } from 'ws';
import { Encoding, MemoryAccount } from '@aeternity/aepp-sdk';
import { createLogger } from '../src/base/log.ts';
import { createPool, type Pool } from '../src/db/connection/pool.ts';
import { migrate } from '../src/db/schema/migrator.ts';
import { notifyChannel } from '../src/db/connection/notification.ts';
import { SERVER_NODE_OPTIONS } from '../src/operator/specs/server-deployment.ts';
import { createTestDatabase, freePort, stopTestServer } from '../test/support/postgres.ts';
import { waitFor } from '../test/support/wait.ts';
import { notify, randomId, spendTx, writeHeight } from '../test/integration/events/chain-writer.ts';
import { processCpuSeconds } from './process-cpu.lib.ts';

const SCHEMA = 'mdw_bench_ws';
const ROOT = new URL('..', import.meta.url).pathname;
const log = createLogger({ logDir: undefined, logLevel: 'warn', logPretty: false }).log;

/** The protocol the clients speak: the seed's, or ae_mdw's as aepp-sdk's MiddlewareSubscriber speaks it. */
type Protocol = 'seed' | 'mdw';

interface Wire {
  /** the subscribe message's `op` */
  readonly op: string;
  /** the key blocks' and the transactions' subscription names */
  readonly kinds: readonly [string, string];
  /** frames of one event a client gets: ae_mdw's socket sends a subscription without `source` both (mdw, node) */
  readonly copies: number;
}

const WIRES: Record<Protocol, Wire> = {
  seed: { op: 'subscribe', kinds: ['key_blocks', 'transactions'], copies: 1 },
  mdw: { op: 'Subscribe', kinds: ['KeyBlocks', 'Transactions'], copies: 2 },
};

/** MDW_PATH: where a client given the gateway's URL finds ae_mdw's socket (docs/api-v3.md's MiddlewareSubscriber). */
const MDW_PATH = '/mdw/v3/websocket';

interface Options {
  protocol: Protocol;
  total: number;
  processes: number;
  warmup: number;
  rounds: number;
  txs: number;
}
interface ClientReport {
  first: Record<number, number[]>;
  last: Record<number, number[]>;
  cpuMs: number;
}
interface ServerUnderTest {
  readonly url: string;
  readonly pid: number;
  /** trigger makes height h happen and returns the reference time latencies are measured from. */
  trigger(height: number): Promise<number>;
  stop(): Promise<void>;
}

/** Wall-clock milliseconds with sub-millisecond resolution, comparable across processes. */
function clock(): number {
  return performance.timeOrigin + performance.now();
}

function round1(x: number): number {
  return Math.round(x * 10) / 10;
}

function summary(values: number[]): { n: number; p50: number; p99: number; max: number } {
  const sorted = [...values].sort((a, b) => a - b);
  const at = (p: number): number =>
    round1(sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? NaN);
  return { n: sorted.length, p50: at(50), p99: at(99), max: round1(sorted.at(-1) ?? NaN) };
}

/** cpuMsOf is the CPU time (user + system) process `pid` has used so far. */
function cpuMsOf(pid: number): number {
  return processCpuSeconds(pid) * 1000;
}

function rssOf(pid: number): { rssMb: number; peakRssMb: number } {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = (field: string): number => Number(new RegExp(`${field}:\\s+(\\d+)`).exec(status)?.[1] ?? NaN);
  return { rssMb: Math.round(kb('VmRSS') / 1024), peakRssMb: Math.round(kb('VmHWM') / 1024) };
}

// ---- client process: `clients <url> <count> <txs> <protocol>` -------------------------------------
async function clients(url: string, count: number, txs: number, wire: Wire): Promise<void> {
  const kinds = txs > 0 ? wire.kinds : wire.kinds.slice(0, 1);
  const [keyBlockEnd, txEnd] = wire.kinds.map((kind) => Buffer.from(`"subscription":"${kind}"}`));
  const report: ClientReport = { first: {}, last: {}, cpuMs: 0 };
  const complete = new Map<number, number>();
  const sockets: WebSocket[] = [];
  const done = (height: number, now: number): void => {
    (report.last[height] ??= []).push(now);
    if (countOne(complete, height) === count) process.send!({ type: 'done', height });
  };
  const openOne = (): Promise<void> =>
    new Promise((resolve, reject) => {
      // These clients share the server's cores, unlike real ones: they read bytes, without decoding
      // or validating text, so their own work disturbs the server (and the baseline) less.
      const ws = new WebSocket(url, { perMessageDeflate: false, skipUTF8Validation: true });
      // An event counts as delivered with its last copy (one per source the subscription gets).
      const keyBlocksSeen = new Map<number, number>();
      const txsSeen = new Map<number, number>();
      let answers = 0;
      ws.on('message', (data: Buffer) => {
        const now = clock();
        if (data[0] === OPEN_BRACKET) {
          answers += 1;
          if (answers === kinds.length) resolve();
        } else if (endsWith(data, keyBlockEnd!)) {
          const height = integerAfter(data, HEIGHT);
          if (countOne(keyBlocksSeen, height) !== wire.copies) return;
          (report.first[height] ??= []).push(now);
          if (txs === 0) done(height, now);
        } else if (endsWith(data, txEnd!)) {
          const height = integerAfter(data, BLOCK_HEIGHT);
          if (countOne(txsSeen, height) === txs * wire.copies) done(height, now);
        } else console.error(`unexpected message: ${data.toString('utf8', 0, 200)}`);
      });
      ws.once('open', () => {
        for (const payload of kinds) ws.send(JSON.stringify({ op: wire.op, payload }));
      });
      ws.once('error', reject);
      // a server over a connection limit closes at once: say so rather than wait for answers
      ws.once('close', (code, reason) => reject(new Error(`closed before subscribed: ${code} ${String(reason)}`)));
      sockets.push(ws);
    });
  // Connect in small waves so the server's accept backlog never overflows.
  for (let opened = 0; opened < count; opened += 200) {
    await Promise.all(Array.from({ length: Math.min(200, count - opened) }, openOne));
  }
  const cpuAtReady = process.cpuUsage();
  process.send!({ type: 'ready' });
  process.on('message', (m: { type: string }) => {
    if (m.type !== 'report') return;
    const cpu = process.cpuUsage(cpuAtReady);
    report.cpuMs = (cpu.user + cpu.system) / 1000;
    process.send!({ type: 'report', report }, () => {
      for (const ws of sockets) ws.terminate();
      process.exit(0);
    });
  });
}

const OPEN_BRACKET = '['.charCodeAt(0);
const HEIGHT = Buffer.from('"height":');
const BLOCK_HEIGHT = Buffer.from('"block_height":');

/** countOne adds one to `key`'s count and returns the count. */
function countOne(counts: Map<number, number>, key: number): number {
  const n = (counts.get(key) ?? 0) + 1;
  counts.set(key, n);
  return n;
}

/** endsWith tells whether the frame ends with `tail` (its subscription: the last field of every event). */
function endsWith(data: Buffer, tail: Buffer): boolean {
  return data.includes(tail, data.length - tail.length);
}

/** integerAfter reads the decimal digits following the first `key` in `data` (NaN when absent). */
function integerAfter(data: Buffer, key: Buffer): number {
  const at = data.indexOf(key);
  if (at < 0) return NaN;
  let value = 0;
  for (let i = at + key.length; i < data.length && data[i]! >= 0x30 && data[i]! <= 0x39; i += 1)
    value = value * 10 + data[i]! - 0x30;
  return value;
}

// ---- baseline server: `bare <txs> <protocol>` -----------------------------------------------------
async function bare(txs: number, protocol: Protocol): Promise<void> {
  const wss = new WebSocketServer({ host: '127.0.0.1', port: 0 });
  await once(wss, 'listening');
  wss.on('connection', (ws) => ws.on('message', () => ws.send('[]')));
  const account = MemoryAccount.generate().address;
  process.send!({ type: 'url', url: `ws://127.0.0.1:${(wss.address() as AddressInfo).port}` });
  process.on('message', (m: { type: string; height?: number }) => {
    if (m.type === 'stop') process.exit(0);
    if (m.type !== 'broadcast') return;
    const { keyBlock, tx } = (protocol === 'mdw' ? mdwFrames : seedFrames)(m.height!, account, txs);
    for (const ws of wss.clients) {
      for (const frame of keyBlock) ws.send(frame);
      for (let i = 0; i < txs; i += 1) for (const frame of tx) ws.send(frame);
    }
  });
}

/** One height's frames of the sizes the middleware sends: its key block's and a transaction's, one per source. */
interface Frames {
  readonly keyBlock: readonly string[];
  readonly tx: readonly string[];
}

/** seedFrames: the seed's protocol sends each event once, the node's object (a key block, SpendTx as GenericSignedTx). */
function seedFrames(height: number, account: string): Frames {
  return {
    keyBlock: [json({ payload: nodeKeyBlock(height, account), subscription: 'key_blocks' })],
    tx: [json({ payload: nodeTx(height, account), subscription: 'transactions' })],
  };
}

/**
 * mdwFrames: ae_mdw's socket sends a subscription without `source` each event twice, /v3's object (the key block
 * with ae_mdw's counts, the transaction with its place and `encoded_tx`) and then the node's.
 */
function mdwFrames(height: number, account: string, txs: number): Frames {
  const keyBlock = nodeKeyBlock(height, account);
  const tx = nodeTx(height, account);
  const counts = { micro_blocks_count: txs > 0 ? 1 : 0, transactions_count: txs, beneficiary_reward: 0 };
  const place = { micro_index: 0, micro_time: Date.now() };
  // this SpendTx signed and serialised (RLP) is 166 bytes
  const v3Tx = { ...tx, encoded_tx: randomId(Encoding.Transaction, 166), ...place };
  const frame = (payload: object, source: string, subscription: string): string =>
    json({ payload, source, subscription });
  return {
    keyBlock: [frame({ ...keyBlock, ...counts }, 'mdw', 'KeyBlocks'), frame(keyBlock, 'node', 'KeyBlocks')],
    tx: [frame(v3Tx, 'mdw', 'Transactions'), frame(tx, 'node', 'Transactions')],
  };
}

/** nodeKeyBlock is a key block as the node serves it, as the populator double writes it. */
function nodeKeyBlock(height: number, account: string): Record<string, unknown> {
  return {
    beneficiary: account,
    hash: randomId(Encoding.KeyBlockHash),
    height,
    info: 'cb_AAAAAfy4hFE=',
    miner: account,
    nonce: '18446744073709551557',
    pow: Array.from({ length: 42 }, (_, i) => i * 1000),
    prev_hash: randomId(Encoding.KeyBlockHash),
    prev_key_hash: randomId(Encoding.KeyBlockHash),
    state_hash: randomId(Encoding.BlockStateHash),
    target: 522133279,
    time: Date.now(),
    version: 5,
  };
}

/** nodeTx is the populator double's SpendTx as the node serves it (GenericSignedTx). */
function nodeTx(height: number, account: string): Record<string, unknown> {
  return {
    block_hash: randomId(Encoding.MicroBlockHash),
    block_height: height,
    hash: randomId(Encoding.TxHash),
    signatures: [randomId(Encoding.Signature, 64)],
    tx: spendTx(account, account).tx,
  };
}

/** json writes a bigint as a string: two characters more than the middleware's exact integer. */
function json(value: unknown): string {
  return JSON.stringify(value, (_k, v: unknown) => (typeof v === 'bigint' ? v.toString() : v));
}

// ---- coordinator ----------------------------------------------------------------------------------
async function startBare(opts: Options): Promise<ServerUnderTest> {
  const child = fork(import.meta.filename, ['bare', String(opts.txs), opts.protocol], { stdio: 'inherit' });
  const [{ url }] = (await once(child, 'message')) as [{ url: string }];
  return {
    url,
    pid: child.pid!,
    async trigger(height) {
      const at = clock();
      child.send({ type: 'broadcast', height });
      return at;
    },
    async stop() {
      child.send({ type: 'stop' });
      await once(child, 'exit');
    },
  };
}

/**
 * mdwLimits lifts ae_mdw's connection limits (1000 connections, 50 from one address), which every client from
 * 127.0.0.1 would meet, to the clients of the run.
 */
function mdwLimits(opts: Options): Record<string, string> {
  if (opts.protocol !== 'mdw') return {};
  const clients = String(opts.total);
  return { WEBSOCKET_MDW_MAX_CONNECTIONS: clients, WEBSOCKET_MDW_MAX_CONNECTIONS_PER_IP: clients };
}

/** startMiddleware runs `mdw -s` (bin: the checkout's, or a compiled image layout's) and waits until it is ready. */
async function startMiddleware(
  pool: Pool,
  databaseUrl: string,
  opts: Options,
  nodeOptions: string,
  bin: string,
): Promise<ServerUnderTest> {
  const { txs } = opts;
  const [port, wsPort] = [await freePort(), await freePort()];
  const child = spawn(process.execPath, [bin, '-s'], {
    env: {
      ...process.env,
      NODE_ENV: 'production',
      NODE_OPTIONS: nodeOptions,
      LOG_LEVEL: 'warn',
      DATABASE_URL: databaseUrl,
      DATABASE_SCHEMA: SCHEMA,
      PORT: String(port),
      WEBSOCKET_ADDRESS: `127.0.0.1:${wsPort}`,
      ...mdwLimits(opts),
    },
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  const exited = once(child, 'exit').then(([code]) => {
    throw new Error(`mdw -s exited with ${String(code)} before it was ready`);
  });
  await Promise.race([
    exited,
    waitFor(
      'mdw -s ready',
      async () => (await fetch(`http://127.0.0.1:${port}/readyz`).catch(() => undefined))?.ok === true,
      60_000,
      200,
    ),
  ]);
  exited.catch(() => {});
  const [a, b] = [MemoryAccount.generate().address, randomId(Encoding.AccountAddress)];
  return {
    url: opts.protocol === 'mdw' ? `ws://127.0.0.1:${port}${MDW_PATH}` : `ws://127.0.0.1:${wsPort}`,
    pid: child.pid!,
    async trigger(height) {
      await writeHeight(pool, height, txs > 0 ? [Array.from({ length: txs }, () => spendTx(a, b))] : []);
      const committedAt = clock();
      await notify(pool, SCHEMA, { from: height, to: height });
      return committedAt;
    },
    async stop() {
      child.kill('SIGTERM');
      await once(child, 'exit');
    },
  };
}

/**
 * buildImageLayout compiles the sources as the Dockerfile does and lays them out as in the image
 * (bin/, dist/, migrations/, package.json pointing oclif at dist/); returns its directory.
 */
function buildImageLayout(): string {
  const dir = mkdtempSync(join(tmpdir(), 'mdw-bench-image-'));
  // tsc exits non-zero on a type error but still emits, as the image build would not: check the output.
  spawnSync(
    process.execPath,
    [
      join(ROOT, 'node_modules/typescript/bin/tsc'),
      '-p',
      join(ROOT, 'tsconfig.build.json'),
      '--outDir',
      join(dir, 'dist'),
    ],
    { stdio: 'inherit' },
  );
  if (!existsSync(join(dir, 'dist/cli/run.js'))) throw new Error('tsc produced no dist/cli/run.js');
  const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as {
    oclif: { commands: { target: string } };
  };
  pkg.oclif.commands.target = './dist/cli/commands.js';
  writeFileSync(join(dir, 'package.json'), JSON.stringify(pkg));
  cpSync(join(ROOT, 'bin'), join(dir, 'bin'), { recursive: true });
  cpSync(join(ROOT, 'migrations'), join(dir, 'migrations'), { recursive: true });
  symlinkSync(join(ROOT, 'node_modules'), join(dir, 'node_modules'));
  return dir;
}

/**
 * runPhase connects the clients to one server, makes `warmup` + `rounds` heights happen and measures
 * each delivery of the `rounds` last: a server in production has delivered heights before, and the
 * first one after start (cold JIT in server and clients alike) is slower.
 */
async function runPhase(server: ServerUnderTest, opts: Options, firstHeight: number): Promise<Record<string, unknown>> {
  const perProcess = Math.ceil(opts.total / opts.processes);
  const noClients = rssOf(server.pid);
  const doneHeights = new Map<number, number>();
  let onDone: (() => void) | undefined;
  const connectStart = performance.now();
  const procs: ChildProcess[] = [];
  for (let i = 0; i < opts.processes; i += 1) {
    const count = Math.min(perProcess, opts.total - i * perProcess);
    const child = fork(import.meta.filename, ['clients', server.url, String(count), String(opts.txs), opts.protocol], {
      stdio: 'inherit',
    });
    child.on('message', (m: { type: string; height?: number }) => {
      if (m.type !== 'done') return;
      doneHeights.set(m.height!, (doneHeights.get(m.height!) ?? 0) + 1);
      onDone?.();
    });
    procs.push(child);
  }
  await Promise.all(
    procs.map(
      (c) => new Promise<void>((resolve) => c.on('message', (m: { type: string }) => m.type === 'ready' && resolve())),
    ),
  );
  const connectSeconds = (performance.now() - connectStart) / 1000;
  const idle = rssOf(server.pid);
  const loadStart = loadavg()[0]!;
  const startedAt = new Map<number, number>();
  let serverCpuAtStart = 0;
  for (let height = firstHeight; height < firstHeight + opts.warmup + opts.rounds; height += 1) {
    const allDone = new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, 30_000);
      onDone = () => {
        if ((doneHeights.get(height) ?? 0) === opts.processes) {
          clearTimeout(timer);
          resolve();
        }
      };
    });
    if (height === firstHeight + opts.warmup) serverCpuAtStart = cpuMsOf(server.pid);
    const at = await server.trigger(height);
    if (height >= firstHeight + opts.warmup) startedAt.set(height, at);
    onDone?.();
    await allDone;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  const loaded = rssOf(server.pid);
  const serverCpuMs = cpuMsOf(server.pid) - serverCpuAtStart;
  const reports = await Promise.all(
    procs.map(async (c) => {
      c.send({ type: 'report' });
      for (;;) {
        const [m] = (await once(c, 'message')) as [{ type: string; report?: ClientReport }];
        if (m.type === 'report') return m.report!;
      }
    }),
  );
  await Promise.all(procs.map((c) => (c.exitCode === null ? once(c, 'exit') : undefined)));
  const latenciesOf = (pick: (r: ClientReport) => Record<number, number[]>, h: number): number[] =>
    reports.flatMap((r) => (pick(r)[h] ?? []).map((t) => t - startedAt.get(h)!));
  const latencies = (pick: (r: ClientReport) => Record<number, number[]>): number[] =>
    [...startedAt.keys()].flatMap((h) => latenciesOf(pick, h));
  const first = latencies((r) => r.first);
  // One slow height (a GC pause, a burst of other work on the machine) shows here, not only in p99.
  const perHeight = [...startedAt.keys()].map((h) => summary(latenciesOf((r) => r.first, h)));
  return {
    connectSeconds: round1(connectSeconds),
    delivered: `${first.length}/${opts.total * opts.rounds} key blocks`,
    keyBlockMs: summary(first),
    lastEventOfHeightMs: summary(latencies((r) => r.last)),
    keyBlockMsPerHeight: { p50: perHeight.map((x) => x.p50), max: perHeight.map((x) => x.max) },
    // CPU the server spent per measured height: what other work on the machine disturbs least.
    serverCpuMsPerHeight: round1(serverCpuMs / opts.rounds),
    // CPU the client processes spent per height (theirs, not the server's: it competes for the same cores).
    clientCpuMsPerHeight: round1(reports.reduce((sum, r) => sum + r.cpuMs, 0) / (opts.warmup + opts.rounds)),
    serverRss: {
      noClientsMb: noClients.rssMb,
      idleWithClientsMb: idle.rssMb,
      afterRoundsMb: loaded.rssMb,
      peakMb: loaded.peakRssMb,
    },
    loadAverage1m: { start: round1(loadStart), end: round1(loadavg()[0]!) },
  };
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      clients: { type: 'string', default: '10000' },
      processes: { type: 'string', default: '2' },
      rounds: { type: 'string', default: '20' },
      warmup: { type: 'string', default: '1' },
      txs: { type: 'string', default: '2' },
      // seed: the seed's protocol; mdw: ae_mdw's, as aepp-sdk's MiddlewareSubscriber speaks it
      protocol: { type: 'string', default: 'seed' },
      out: { type: 'string', default: 'bench/results/websocket.json' },
      // NODE_OPTIONS of the middleware server process only.
      'server-node-options': { type: 'string', default: SERVER_NODE_OPTIONS },
      // Run the server from the checkout's sources instead of compiled as in the image.
      source: { type: 'boolean', default: false },
    },
  });
  if (!Object.hasOwn(WIRES, values.protocol!)) throw new Error(`--protocol is seed or mdw, not ${values.protocol}`);
  const opts: Options = {
    protocol: values.protocol as Protocol,
    total: Number(values.clients),
    processes: Number(values.processes),
    warmup: Number(values.warmup),
    rounds: Number(values.rounds),
    txs: Number(values.txs),
  };
  const nodeOptions = values['server-node-options']!;
  const started = Date.now();
  const db = await createTestDatabase();
  await migrate({ databaseUrl: db.url, schema: SCHEMA }, log);
  const pool = createPool({ databaseUrl: db.url, schema: SCHEMA, max: 3 }, log);
  await writeHeight(pool, 0, []);

  // Baseline 1: COMMIT → LISTEN notification on a bare connection, during the middleware phase.
  const listenClient = await pool.connect();
  const notifiedAt = new Map<number, number>();
  listenClient.on('notification', (msg) => notifiedAt.set(JSON.parse(msg.payload!).to, clock()));
  await listenClient.query(`LISTEN "${notifyChannel(SCHEMA)}"`);

  const bareServer = await startBare(opts);
  const bareResult = await runPhase(bareServer, opts, 1);
  await bareServer.stop();
  // Its process also loads this whole benchmark (SDK included): its RSS says nothing about ws.
  delete bareResult.serverRss;

  const committedAt = new Map<number, number>();
  const image = values.source ? undefined : buildImageLayout();
  let mdwResult: Record<string, unknown>;
  try {
    const middleware = await startMiddleware(pool, db.url, opts, nodeOptions, join(image ?? ROOT, 'bin/mdw.js'));
    const recording: ServerUnderTest = {
      ...middleware,
      trigger: async (h) => {
        const at = await middleware.trigger(h);
        committedAt.set(h, at);
        return at;
      },
    };
    mdwResult = await runPhase(recording, opts, 1);
    await middleware.stop();
  } finally {
    if (image) rmSync(image, { recursive: true, force: true });
  }
  const listen = [...notifiedAt].filter(([h]) => committedAt.has(h)).map(([h, t]) => t - committedAt.get(h)!);

  const ratio = (key: 'keyBlockMs' | 'lastEventOfHeightMs', p: 'p50' | 'p99'): number =>
    round1((mdwResult[key] as { p50: number; p99: number })[p] / (bareResult[key] as { p50: number; p99: number })[p]);
  const result = {
    benchmark: 'websocket',
    date: new Date().toISOString(),
    command:
      `node bench/websocket.ts --protocol ${opts.protocol} --clients ${opts.total} --processes ${opts.processes} --warmup ${opts.warmup} --rounds ${opts.rounds} --txs ${opts.txs}` +
      (values.source ? ' --source' : '') +
      ` --server-node-options=${nodeOptions}`,
    // Other work on the machine competes for the same cores: compare phases of one run, not runs.
    machine: { cpus: cpus().length, node: process.version },
    protocol: opts.protocol,
    // ae_mdw's: the HTTP port's path; each event comes from both sources, as MiddlewareSubscriber subscribes
    ...(opts.protocol === 'mdw' ? { path: MDW_PATH, sources: ['mdw', 'node'] } : {}),
    clients: opts.total,
    subscriptions: opts.txs > 0 ? WIRES[opts.protocol].kinds : WIRES[opts.protocol].kinds.slice(0, 1),
    txsPerHeight: opts.txs,
    middleware: mdwResult,
    baselineBareWs: bareResult,
    baselineCommitToListenMs: summary(listen),
    middlewareOverBareWs: {
      keyBlockP50: ratio('keyBlockMs', 'p50'),
      keyBlockP99: ratio('keyBlockMs', 'p99'),
      lastEventP99: ratio('lastEventOfHeightMs', 'p99'),
    },
    targets: { p99Ms: 200, rssMb: 250 },
    wallSeconds: Math.round((Date.now() - started) / 1000),
  };
  console.log(JSON.stringify(result, null, 2));
  mkdirSync(dirname(values.out!), { recursive: true });
  writeFileSync(values.out!, `${JSON.stringify(result, null, 2)}\n`);

  listenClient.release();
  await pool.end();
  await db.drop();
  await stopTestServer();
}

const [mode, ...args] = process.argv.slice(2);
if (mode === 'clients') await clients(args[0]!, Number(args[1]), Number(args[2]), WIRES[args[3] as Protocol]);
else if (mode === 'bare') await bare(Number(args[0]), args[1] as Protocol);
else await main();
