/**
 * @module Websocket benchmark: N subscribed clients (default 10 000) on one server process, time from
 * the populator's COMMIT to delivery at every client (p50/p99), and the server's RSS.
 *
 *   node bench/websocket.ts [--clients 10000] [--processes 2] [--rounds 20] [--txs 2] [--out bench/results/websocket.json]
 *                           [--server-node-options=--max-semi-space-size=4]
 *
 * Three kinds of process: this one (database, populator double, measurements), one server
 * (test/integration/events/server-process.ts: only the server's modules), and client processes (`clients`). Baseline in the same run: a bare LISTEN connection's
 * COMMIT → notification time, the floor any NOTIFY-driven delivery stands on.
 * Database: TEST_DATABASE_URL when set, else an embedded PostgreSQL.
 */
import { fork, spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { dirname } from 'node:path';
import { performance } from 'node:perf_hooks';
import { parseArgs } from 'node:util';
import WebSocket from 'ws';
import { Encoding, MemoryAccount } from '@aeternity/aepp-sdk';
import { createLogger } from '../src/log.ts';
import { createPool } from '../src/db/pool.ts';
import { migrate } from '../src/db/migrator.ts';
import { notifyChannel } from '../src/events/notification.ts';
import { createTestDatabase, stopTestServer } from '../test/support/postgres.ts';
import { notify, randomId, spendTx, writeHeight } from '../test/integration/events/chain-writer.ts';

const SCHEMA = 'mdw_bench_ws';
const SERVER_ENTRY = new URL('../test/integration/events/server-process.ts', import.meta.url).pathname;
const log = createLogger({ logDir: undefined, logLevel: 'warn', logPretty: false }).log;

/** Wall-clock milliseconds with sub-millisecond resolution, comparable across processes. */
function clock(): number {
  return performance.timeOrigin + performance.now();
}

function percentile(sorted: readonly number[], p: number): number {
  if (sorted.length === 0) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
}

function summary(values: number[]): { n: number; p50: number; p99: number; max: number } {
  const sorted = [...values].sort((a, b) => a - b);
  const round = (x: number): number => Math.round(x * 100) / 100;
  return { n: sorted.length, p50: round(percentile(sorted, 50)), p99: round(percentile(sorted, 99)), max: round(sorted.at(-1) ?? NaN) };
}

function round1(x: number): number {
  return Math.round(x * 10) / 10;
}

function rssOf(pid: number): { rssMb: number; peakRssMb: number } {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = (field: string): number => Number(new RegExp(`${field}:\\s+(\\d+)`).exec(status)?.[1] ?? NaN);
  return { rssMb: Math.round(kb('VmRSS') / 1024), peakRssMb: Math.round(kb('VmHWM') / 1024) };
}

// ---- client process -------------------------------------------------------------------------
interface ClientReport { first: Record<number, number[]>; last: Record<number, number[]> }

async function clients(url: string, count: number, txs: number): Promise<void> {
  const kinds = txs > 0 ? ['key_blocks', 'transactions'] : ['key_blocks'];
  const report: ClientReport = { first: {}, last: {} };
  const complete = new Map<number, number>();
  const sockets: WebSocket[] = [];
  const openOne = (): Promise<void> => new Promise((resolve, reject) => {
    const ws = new WebSocket(url);
    const txsSeen = new Map<number, number>();
    let answers = 0;
    ws.on('message', (data: Buffer) => {
      const now = clock();
      const text = data.toString();
      if (text.startsWith('[')) {
        answers += 1;
        if (answers === kinds.length) resolve();
        return;
      }
      if (text.endsWith('"subscription":"key_blocks"}')) {
        const height = Number(/"height":(\d+)/.exec(text)?.[1]);
        (report.first[height] ??= []).push(now);
        if (txs === 0) done(height, now);
      } else {
        const height = Number(/"block_height":(\d+)/.exec(text)?.[1]);
        const seen = (txsSeen.get(height) ?? 0) + 1;
        txsSeen.set(height, seen);
        if (seen === txs) done(height, now);
      }
    });
    ws.once('open', () => {
      for (const payload of kinds) ws.send(JSON.stringify({ op: 'subscribe', payload }));
    });
    ws.once('error', reject);
    sockets.push(ws);
  });
  const done = (height: number, now: number): void => {
    (report.last[height] ??= []).push(now);
    const n = (complete.get(height) ?? 0) + 1;
    complete.set(height, n);
    if (n === count) process.send!({ type: 'done', height });
  };
  // Connect in small waves so the server's accept backlog never overflows.
  for (let opened = 0; opened < count; opened += 200) {
    await Promise.all(Array.from({ length: Math.min(200, count - opened) }, openOne));
  }
  process.send!({ type: 'ready' });
  process.on('message', (m: { type: string }) => {
    if (m.type !== 'report') return;
    process.send!({ type: 'report', report }, () => {
      for (const ws of sockets) ws.terminate();
      process.exit(0);
    });
  });
}

// ---- coordinator ----------------------------------------------------------------------------
async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      clients: { type: 'string', default: '10000' },
      processes: { type: 'string', default: '2' },
      rounds: { type: 'string', default: '20' },
      txs: { type: 'string', default: '2' },
      out: { type: 'string', default: 'bench/results/websocket.json' },
      // V8 flags for the server process only, e.g. "--max-semi-space-size=4" (a smaller young generation).
      'server-node-options': { type: 'string', default: '' },
    },
  });
  const total = Number(values.clients);
  const processes = Number(values.processes);
  const rounds = Number(values.rounds);
  const txs = Number(values.txs);
  const started = Date.now();
  const loadAtStart = loadavg()[0]!;
  const db = await createTestDatabase();
  await migrate({ databaseUrl: db.url, schema: SCHEMA }, log);
  const pool = createPool({ databaseUrl: db.url, schema: SCHEMA, max: 3 }, log);
  await writeHeight(pool, 0, []);

  // The server runs alone in its process (the same entry the multi-process tests use), so its RSS is its own.
  const server = spawn(process.execPath, [SERVER_ENTRY], {
    env: { ...process.env, DATABASE_URL: db.url, DATABASE_SCHEMA: SCHEMA, NODE_OPTIONS: values['server-node-options'] },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const [line] = (await once(server.stdout!, 'data')) as [Buffer];
  const url = line.toString().trim();

  const perProcess = Math.ceil(total / processes);
  const clientProcs: ChildProcess[] = [];
  const doneHeights = new Map<number, number>();
  let onDone: (() => void) | undefined;
  const connectStart = performance.now();
  for (let i = 0; i < processes; i += 1) {
    const count = Math.min(perProcess, total - i * perProcess);
    const child = fork(import.meta.filename, ['clients', url, String(count), String(txs)], { stdio: 'inherit' });
    child.on('message', (m: { type: string; height?: number }) => {
      if (m.type !== 'done') return;
      doneHeights.set(m.height!, (doneHeights.get(m.height!) ?? 0) + 1);
      onDone?.();
    });
    clientProcs.push(child);
  }
  await Promise.all(clientProcs.map((c) => new Promise<void>((resolve) => c.on('message', (m: { type: string }) => m.type === 'ready' && resolve()))));
  const connectSeconds = (performance.now() - connectStart) / 1000;
  const idle = rssOf(server.pid!);

  // Baseline: a bare LISTEN connection, COMMIT → notification.
  const listenClient = await pool.connect();
  const notifiedAt = new Map<number, number>();
  listenClient.on('notification', (msg) => notifiedAt.set(JSON.parse(msg.payload!).to, clock()));
  await listenClient.query(`LISTEN "${notifyChannel(SCHEMA)}"`);

  const committedAt = new Map<number, number>();
  const [a, b] = [MemoryAccount.generate().address, randomId(Encoding.AccountAddress)];
  for (let height = 1; height <= rounds; height += 1) {
    const micro = Array.from({ length: txs }, () => spendTx(a, b));
    await writeHeight(pool, height, txs > 0 ? [micro] : []);
    committedAt.set(height, clock());
    await notify(pool, SCHEMA, { from: height, to: height });
    await new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, 30_000);
      onDone = () => {
        if ((doneHeights.get(height) ?? 0) === processes) {
          clearTimeout(timer);
          resolve();
        }
      };
      onDone();
    });
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  const loaded = rssOf(server.pid!);

  const reports = await Promise.all(clientProcs.map(async (c) => {
    c.send({ type: 'report' });
    for (;;) {
      const [m] = (await once(c, 'message')) as [{ type: string; report?: ClientReport }];
      if (m.type === 'report') return m.report!;
    }
  }));
  const first: number[] = [];
  const last: number[] = [];
  for (const r of reports) {
    for (const [h, times] of Object.entries(r.first)) for (const t of times) first.push(t - committedAt.get(Number(h))!);
    for (const [h, times] of Object.entries(r.last)) for (const t of times) last.push(t - committedAt.get(Number(h))!);
  }
  const baseline = [...notifiedAt].filter(([h]) => committedAt.has(h)).map(([h, t]) => t - committedAt.get(h)!);

  const result = {
    benchmark: 'websocket',
    date: new Date().toISOString(),
    command: `node bench/websocket.ts --clients ${total} --processes ${processes} --rounds ${rounds} --txs ${txs}`
      + (values['server-node-options'] ? ` --server-node-options=${values['server-node-options']}` : ''),
    serverNodeOptions: values['server-node-options'],
    // Other work on the machine competes for the same cores: latencies are only comparable at similar load.
    machine: { cpus: cpus().length, node: process.version, loadAverage1m: { start: round1(loadAtStart), end: round1(loadavg()[0]!) } },
    clients: total,
    clientProcesses: processes,
    rounds,
    txsPerHeight: txs,
    subscriptions: txs > 0 ? ['key_blocks', 'transactions'] : ['key_blocks'],
    connectSeconds: round1(connectSeconds),
    deliveredKeyBlocks: first.length,
    expectedKeyBlocks: total * rounds,
    commitToKeyBlockMs: summary(first),
    commitToLastEventOfHeightMs: summary(last),
    baselineCommitToListenNotificationMs: summary(baseline),
    serverRss: { idleWithClientsMb: idle.rssMb, afterRoundsMb: loaded.rssMb, peakMb: loaded.peakRssMb },
    targets: { p99Ms: 200, rssMb: 250 },
    wallSeconds: Math.round((Date.now() - started) / 1000),
  };
  console.log(JSON.stringify(result, null, 2));
  mkdirSync(dirname(values.out!), { recursive: true });
  writeFileSync(values.out!, `${JSON.stringify(result, null, 2)}\n`);

  listenClient.release();
  server.kill('SIGTERM');
  await once(server, 'exit');
  await Promise.all(clientProcs.map((c) => (c.exitCode === null ? once(c, 'exit') : undefined)));
  await pool.end();
  await db.drop();
  await stopTestServer();
}

const [mode, ...args] = process.argv.slice(2);
if (mode === 'clients') await clients(args[0]!, Number(args[1]), Number(args[2]));
else await main();
