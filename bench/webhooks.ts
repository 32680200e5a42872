/**
 * @module Webhooks benchmark (issue 77): the populator's rate over a mainnet-like devnode chain without hooks and with
 * BENCH_WEBHOOKS_HOOKS (10 000) account hooks (a tenth on the chain's busy accounts, the rest on accounts it never
 * names), in alternating order, BENCH_WEBHOOKS_ROUNDS (2) times (0: the chain loaded with the hooks only); then,
 * following the head with `mdw -p` and `mdw --webhooks` and a loopback receiver that answers at once, the time from a
 * block's commit to the receiver holding its delivery, p50/p99 over the deliveries of BENCH_WEBHOOKS_LIVE (30) live
 * generations, with its phases (the batch's transaction; the commit to the attempt's start; the attempt's start to the
 * receiver). Writes bench/results/webhooks.json.
 *
 *   node bench/webhooks.ts   (BENCH_WEBHOOKS_GENERATIONS=200 BENCH_WEBHOOKS_HOOKS=10000 BENCH_WEBHOOKS_LIVE=30)
 *
 * BENCH_WEBHOOKS_SENDER_NODE_OPTIONS adds the sender's Node flags (`--cpu-prof --cpu-prof-dir=DIR` to profile it).
 */
import { randomUUID } from 'node:crypto';
import { loadavg } from 'node:os';
import { performance } from 'node:perf_hooks';
import prom from 'prom-client';
import pino from 'pino';
import { MemoryAccount } from '@aeternity/aepp-sdk';
import { loadConfig } from '../src/config/middleware.ts';
import { decodeNotification, notifyChannel } from '../src/db/connection/notification.ts';
import { listen } from '../src/db/connection/notify.ts';
import { createPool } from '../src/db/connection/pool.ts';
import { migrate } from '../src/db/schema/migrator.ts';
import { createWebhook } from '../src/db/writes/webhooks.ts';
import { writeNodeFiles } from '../src/cli/dev/node-files.ts';
import { startDevnode } from '../src/devnode/index.ts';
import { startPopulator } from '../src/indexer/sync/populator.ts';
import { parseFilters } from '../src/webhooks/filters.ts';
import { createTestDatabase, stopTestServer } from '../test/support/postgres.ts';
import { startMdw } from '../test/support/mdw-process.ts';
import { startReceiver } from '../test/support/webhook-receiver.ts';
import { median, nodeFilesDir } from './http.lib.ts';
import { processCpuSeconds } from './process-cpu.lib.ts';
import { writeResult } from './results.lib.ts';

const GENERATIONS = Number(process.env.BENCH_WEBHOOKS_GENERATIONS ?? 200);
const HOOKS = Number(process.env.BENCH_WEBHOOKS_HOOKS ?? 10_000);
const LIVE = Number(process.env.BENCH_WEBHOOKS_LIVE ?? 30);
const ROUNDS = Number(process.env.BENCH_WEBHOOKS_ROUNDS ?? 2);
/** the pause between two live generations */
const LIVE_MS = Number(process.env.BENCH_WEBHOOKS_LIVE_MS ?? 300);
const log = pino({ level: 'silent' });

const devnode = await startDevnode(
  {
    port: 0,
    internalPort: 0,
    mine: false,
    microBlockIntervalMs: 0,
    generate: { generations: GENERATIONS, seed: 'bench-webhooks', profile: 'mainnet-like' },
  },
  log,
);
const db = await createTestDatabase();
const nodeFiles = await writeNodeFiles(nodeFilesDir(), devnode.chain);
/**
 * The settings of every role over `schema`, in-process and as `mdw` processes: the populator's as a deployment on the
 * devnode's chain (its reward rules, genesis accounts and hard-fork files).
 */
const envOf = (schema: string): Record<string, string> => ({
  DATABASE_URL: db.url,
  DATABASE_SCHEMA: schema,
  NODE_URL: devnode.externalUrl,
  NODE_INTERNAL_URL: devnode.internalUrl,
  REWARD_RULES: 'devnode',
  GENESIS_ACCOUNTS_FILE: nodeFiles.genesisAccountsFile,
  ...nodeFiles.forkFiles,
  POLL_INTERVAL_MS: '50',
  WEBHOOKS_ALLOW_PRIVATE: 'true',
  // the sender's window, when a run compares another
  ...(process.env.WEBHOOK_CONCURRENCY === undefined ? {} : { WEBHOOK_CONCURRENCY: process.env.WEBHOOK_CONCURRENCY }),
});
const settings = (schema: string) => loadConfig(envOf(schema));
const busy = devnode.accounts.map((a) => a.publicKey);

/** load populates a new schema (with the hooks written first when asked) and returns its generations per second. */
async function load(schema: string, hooks: boolean): Promise<number> {
  const cfg = settings(schema);
  await migrate({ databaseUrl: db.url, schema }, log);
  const pool = createPool({ databaseUrl: db.url, schema, max: 4 }, log);
  if (hooks)
    for (let i = 0; i < HOOKS; i++) {
      const account = i % 10 === 0 ? busy[i % busy.length]! : MemoryAccount.generate().address;
      const filters = [{ account }];
      await createWebhook(pool, {
        id: `wh_${randomUUID()}`,
        owner: null,
        url: 'http://127.0.0.1:9/',
        filters,
        confirmations: 0,
        secret: 'bench',
        keys: parseFilters(filters),
      });
    }
  await pool.end();
  const started = performance.now();
  const populator = await startPopulator({ cfg, log, registry: new prom.Registry() });
  await populator.synced();
  const seconds = (performance.now() - started) / 1000;
  await populator.stop();
  return (devnode.height() + 1) / seconds;
}

const rates: { without: number; with: number }[] = [];
for (const [round, order] of (
  [
    [1, ['without', 'with']],
    [2, ['with', 'without']],
  ] as const
).slice(0, ROUNDS)) {
  const rate: Record<string, number> = {};
  for (const kind of order) rate[kind] = await load(`bench_${kind}_${round}`, kind === 'with');
  rates.push({ without: rate.without!, with: rate.with! });
  console.log(`round ${round}: ${rate.without!.toFixed(1)} gen/s without, ${rate.with!.toFixed(1)} with hooks`);
}
if (ROUNDS === 0) await load('bench_with_0', true);
const ratio = ROUNDS === 0 ? NaN : median(rates.map((r) => r.with / r.without));

// live: the populator and the sender follow the head as `mdw -p` and `mdw --webhooks` processes (as deployed, each on
// its own event loop); every hook points at the receiver, here with the devnode
const schema = `bench_with_${ROUNDS}`;
const pool = createPool({ databaseUrl: db.url, schema, max: 2 }, log);
// each height's commits, as the populator's NOTIFY tells them (PostgreSQL sends it at COMMIT): a height is written
// again when its generation gets micro blocks after its key block was stored
const commits = new Map<number, number[]>();
const listening = await pool.connect();
listening.on('notification', ({ payload }) => {
  const n = decodeNotification(payload ?? '');
  if (n !== undefined) for (let h = n.from; h <= n.to; h++) commits.set(h, [...(commits.get(h) ?? []), Date.now()]);
});
/** committed is the commit of the batch that wrote a row: the first of its height's commits after the row's creation. */
const committed = (r: { height: number; created: Date }): number | undefined =>
  commits.get(r.height)?.find((t) => t >= r.created.getTime());
await listen(listening, notifyChannel(schema));
const receiver = await startReceiver();
await pool.query('UPDATE webhooks SET url = $1', [`${receiver.url}/`]);
await pool.query("UPDATE webhook_deliveries SET status = 'sent'");
const env = { ...envOf(schema), PATH: process.env.PATH ?? '', PORT: '0', LOG_LEVEL: 'warn' };
const populator = startMdw(['-p'], env);
const senderOptions = process.env.BENCH_WEBHOOKS_SENDER_NODE_OPTIONS;
const sender = startMdw(['--webhooks'], senderOptions ? { ...env, NODE_OPTIONS: senderOptions } : env);
const stored = async (): Promise<number> =>
  (await pool.query<{ top: number }>('SELECT coalesce(max(height), -1) AS top FROM key_blocks')).rows[0]!.top;
while ((await stored()) < devnode.height()) await new Promise((r) => setTimeout(r, 100));
/** spend posts a SpendTx between two of the busy accounts, signed as a wallet signs it. */
async function spend(i: number): Promise<void> {
  const from = devnode.accounts[i % devnode.accounts.length]!;
  const to = busy[(i + 1) % busy.length]!;
  const built = await fetch(`${devnode.internalUrl}/v2/debug/transactions/spend`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ sender_id: from.publicKey, recipient_id: to, amount: 1, fee: 20_000_000_000_000 }),
  });
  const { tx } = (await built.json()) as { tx: `tx_${string}` };
  const signed = await new MemoryAccount(from.secretKey as `sk_${string}`).signTransaction(tx, {
    networkId: 'ae_devnet',
  });
  await fetch(`${devnode.externalUrl}/v2/transactions`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ tx: signed }),
  });
}

/** cpuMs is the CPU time a process used so far; 0 for one gone (a backend that closed as it was listed). */
function cpuMs(pid: number | undefined): number {
  try {
    return pid === undefined ? 0 : processCpuSeconds(pid) * 1000;
  } catch {
    return 0;
  }
}
/** backendsCpuMs is the CPU time of the database connections of `application` so far. */
async function backendsCpuMs(application: string): Promise<number> {
  const { rows } = await pool.query<{ pid: number }>('SELECT pid FROM pg_stat_activity WHERE application_name = $1', [
    application,
  ]);
  return rows.reduce((sum, r) => sum + cpuMs(r.pid), 0);
}
const liveFrom = (await pool.query<{ now: Date }>('SELECT now()')).rows[0]!.now;
const cpuBefore = { sender: cpuMs(sender.child.pid), backends: await backendsCpuMs('mdw-webhooks') };
const liveStarted = performance.now();
for (let i = 0; i < LIVE; i++) {
  await spend(i);
  await devnode.mineMicroBlock();
  await devnode.mineKeyBlock();
  await new Promise((r) => setTimeout(r, LIVE_MS));
}
const liveSeconds = (performance.now() - liveStarted) / 1000;
// every live delivery sent, or a minute: a backlog shows as latency, not as deliveries left out
const waiting = async (): Promise<number> =>
  Number(
    (
      await pool.query<{ n: string }>(
        "SELECT count(*) AS n FROM webhook_deliveries WHERE created_at >= $1 AND status = 'pending'",
        [liveFrom],
      )
    ).rows[0]!.n,
  );
for (let i = 0; i < 600 && (await waiting()) > 0; i++) await new Promise((r) => setTimeout(r, 100));
await new Promise((r) => setTimeout(r, 200));
// when each delivery first reached the receiver, as it noted it (a scan of its list every few ms, as before, took a
// core of this process by the end of a run and slowed the receiver it measured)
const arrived = new Map<string, number>();
for (const r of receiver.received) if (!arrived.has(r.deliveryId)) arrived.set(r.deliveryId, r.at);
const cpuAfter = { sender: cpuMs(sender.child.pid), backends: await backendsCpuMs('mdw-webhooks') };
const { rows } = await pool.query<{ id: string; height: number; created: Date; attempted: Date }>(
  `SELECT delivery_id AS id, height, created_at AS created, last_attempt_at AS attempted FROM webhook_deliveries
    WHERE created_at > now() - interval '1 hour' AND status = 'sent' AND sent_at IS NOT NULL AND attempts > 0`,
);
const live = rows.filter((r) => r.created >= liveFrom);
const seen = live.filter((r) => arrived.has(r.id) && committed(r) !== undefined);
/** spread is p50/p99/max of one phase over the live deliveries, in ms. */
function spread(phase: (r: (typeof seen)[number]) => number) {
  const ms = seen.map(phase).sort((a, b) => a - b);
  const pct = (p: number): number => ms[Math.min(ms.length - 1, Math.floor((ms.length * p) / 100))] ?? NaN;
  return { p50: pct(50), p99: pct(99), max: ms.at(-1) ?? NaN };
}
const result = {
  generations: GENERATIONS,
  hooks: HOOKS,
  rates,
  ratio,
  liveDeliveries: seen.length,
  liveHeights: new Set(seen.map((r) => r.height)).size,
  liveSeconds,
  leftPending: await waiting(),
  // the sender's CPU per delivery: its process and its database connections (those open at the end)
  cpuMsPerDelivery: {
    sender: (cpuAfter.sender - cpuBefore.sender) / Math.max(1, seen.length),
    backends: (cpuAfter.backends - cpuBefore.backends) / Math.max(1, seen.length),
  },
  load: loadavg()[0],
  // the target's measure: the block's commit to the receiver holding the delivery
  lagMs: spread((r) => arrived.get(r.id)! - committed(r)!),
  // the slowest delivery of each live height, in order: one slow height (a collection, a neighbour's burst) is a p99
  // of its own when every height brings the same number of deliveries
  maxLagByHeightMs: [...Map.groupBy(seen, (r) => r.height)]
    .sort(([a], [b]) => a - b)
    .map(([, rs]) => Math.max(...rs.map((r) => arrived.get(r.id)! - committed(r)!))),
  // its phases: the batch transaction (its start to its commit), the commit to the attempt's start (the sender
  // learning of the row and claiming its hook), the attempt's start to the receiver (reading, rendering, POST)
  phasesMs: {
    batch: spread((r) => committed(r)! - r.created.getTime()),
    claimed: spread((r) => r.attempted.getTime() - committed(r)!),
    sent: spread((r) => arrived.get(r.id)! - r.attempted.getTime()),
  },
};
console.log(JSON.stringify(result));
writeResult('webhooks', result);
for (const p of [sender, populator]) {
  p.child.kill('SIGTERM');
  await new Promise((r) => p.child.once('exit', r));
}
listening.release(true);
await pool.end();
await receiver.close();
await devnode.stop();
await db.drop();
await stopTestServer();
