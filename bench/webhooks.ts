/**
 * @module Webhooks benchmark (issue 77): the populator's rate over a mainnet-like devnode chain without hooks and with
 * BENCH_WEBHOOKS_HOOKS (10 000) account hooks (a tenth on the chain's busy accounts, the rest on accounts it never
 * names), in alternating order; then, following the head with the sender and a loopback receiver that answers at once,
 * the time from a delivery's row written (its batch transaction) to the receiver holding it, p50/p99 over the deliveries
 * of BENCH_WEBHOOKS_LIVE (30) live generations. Writes bench/results/webhooks.json.
 *
 *   node bench/webhooks.ts   (BENCH_WEBHOOKS_GENERATIONS=200 BENCH_WEBHOOKS_HOOKS=10000 BENCH_WEBHOOKS_LIVE=30)
 */
import { randomUUID } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import prom from 'prom-client';
import pino from 'pino';
import { MemoryAccount } from '@aeternity/aepp-sdk';
import { loadConfig } from '../src/config/middleware.ts';
import { createPool } from '../src/db/connection/pool.ts';
import { migrate } from '../src/db/schema/migrator.ts';
import { createWebhook } from '../src/db/queries/webhooks.ts';
import { startDevnode } from '../src/devnode/index.ts';
import { startPopulator } from '../src/indexer/sync/populator.ts';
import { parseFilters } from '../src/webhooks/filters.ts';
import { createWebhookMetrics } from '../src/webhooks/metrics.ts';
import { MAX_ATTEMPTS, RETRY, WebhookSender } from '../src/webhooks/sender.ts';
import { createTestDatabase, stopTestServer } from '../test/support/postgres.ts';
import { startReceiver } from '../test/support/webhook-receiver.ts';
import { median } from './http.lib.ts';
import { writeResult } from './results.lib.ts';

const GENERATIONS = Number(process.env.BENCH_WEBHOOKS_GENERATIONS ?? 200);
const HOOKS = Number(process.env.BENCH_WEBHOOKS_HOOKS ?? 10_000);
const LIVE = Number(process.env.BENCH_WEBHOOKS_LIVE ?? 30);
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
const settings = (schema: string) =>
  loadConfig({
    DATABASE_URL: db.url,
    DATABASE_SCHEMA: schema,
    NODE_URL: devnode.externalUrl,
    NODE_INTERNAL_URL: devnode.internalUrl,
    REWARD_RULES: 'devnode',
    POLL_INTERVAL_MS: '50',
    WEBHOOKS_ALLOW_PRIVATE: 'true',
  });
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
for (const [round, order] of [
  [1, ['without', 'with']],
  [2, ['with', 'without']],
] as const) {
  const rate: Record<string, number> = {};
  for (const kind of order) rate[kind] = await load(`bench_${kind}_${round}`, kind === 'with');
  rates.push({ without: rate.without!, with: rate.with! });
  console.log(`round ${round}: ${rate.without!.toFixed(1)} gen/s without, ${rate.with!.toFixed(1)} with hooks`);
}
const ratio = median(rates.map((r) => r.with / r.without));

// live: the populator and the sender follow the head; every hook points at the receiver
const schema = 'bench_with_2';
const pool = createPool({ databaseUrl: db.url, schema, max: 8 }, log);
const receiver = await startReceiver();
await pool.query('UPDATE webhooks SET url = $1', [`${receiver.url}/`]);
await pool.query("UPDATE webhook_deliveries SET status = 'sent'");
const populator = await startPopulator({ cfg: settings(schema), log, registry: new prom.Registry() });
await populator.synced();
const sender = new WebhookSender({
  pool,
  log,
  metrics: createWebhookMetrics(new prom.Registry()),
  settings: {
    timeoutMs: 10_000,
    maxResponseBytes: 1024,
    allowPrivate: true,
    concurrency: 64,
    leaseMs: 60_000,
    pollMs: 200,
    retry: RETRY,
    maxAttempts: MAX_ATTEMPTS,
  },
});
sender.start();
const arrived = new Map<string, number>();
const poll = setInterval(() => {
  for (const r of receiver.received) if (!arrived.has(r.deliveryId)) arrived.set(r.deliveryId, Date.now());
}, 5);
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

for (let i = 0; i < LIVE; i++) {
  await spend(i);
  await devnode.mineMicroBlock();
  await devnode.mineKeyBlock();
  await new Promise((r) => setTimeout(r, 300));
}
await new Promise((r) => setTimeout(r, 3000));
clearInterval(poll);
const { rows } = await pool.query<{ id: string; created: Date }>(
  `SELECT delivery_id AS id, created_at AS created FROM webhook_deliveries WHERE created_at > now() - interval '1 hour'
     AND status = 'sent' AND sent_at IS NOT NULL AND attempts > 0`,
);
const lags = rows
  .filter((r) => arrived.has(r.id))
  .map((r) => arrived.get(r.id)! - r.created.getTime())
  .sort((a, b) => a - b);
const pct = (p: number): number => lags[Math.min(lags.length - 1, Math.floor((lags.length * p) / 100))] ?? NaN;
const result = {
  generations: GENERATIONS,
  hooks: HOOKS,
  rates,
  ratio,
  liveDeliveries: lags.length,
  lagMs: { p50: pct(50), p99: pct(99), max: lags.at(-1) ?? NaN },
};
console.log(JSON.stringify(result));
writeResult('webhooks', result);
await sender.stop();
await populator.stop();
await pool.end();
await receiver.close();
await devnode.stop();
await db.drop();
await stopTestServer();
