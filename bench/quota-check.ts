/**
 * @module What the API keys' quota check adds to a request (issue 77's target: ≤ 0.1 ms on the p50). Two Koa servers
 * in this process, the same trivial answer behind each, one with the quota middleware (apiQuota over an ApiAccess, its
 * flushes off: a request never waits for them) and one without; requests one at a time over a kept-alive connection,
 * A and B in alternating rounds, B's counted in the anonymous tier (a key's adds one SHA-256 of it, about a
 * microsecond). Prints each round's p50 and the median difference, and writes bench/results/quota-check.json.
 *
 *   node bench/quota-check.ts      (BENCH_REQUESTS=20000 BENCH_ROUNDS=4)
 */
import { Agent, createServer, request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import Koa from 'koa';
import prom from 'prom-client';
import { createLogger } from '../src/base/log.ts';
import { loadConfig } from '../src/config/middleware.ts';
import { createPool } from '../src/db/connection/pool.ts';
import { ApiAccess } from '../src/api/quota/api-access.ts';
import { apiQuota } from '../src/api/quota/quota-middleware.ts';
import { DEFAULT_TIERS } from '../src/api/quota/tiers.ts';
import { median } from './http.lib.ts';
import { writeResult } from './results.lib.ts';

const REQUESTS = Number(process.env.BENCH_REQUESTS ?? 20_000);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 4);
const log = createLogger({ logLevel: 'silent', logPretty: false, logDir: undefined }).log;

async function serve(app: Koa): Promise<{ server: Server; port: number }> {
  const server = createServer(app.callback());
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, port: (server.address() as AddressInfo).port };
}

function get(port: number, agent: Agent, headers: Record<string, string>): Promise<number> {
  const started = performance.now();
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, path: '/v3/status?limit=10', agent, headers }, (res) => {
      res.resume();
      res.on('end', () => resolve(performance.now() - started));
    });
    req.on('error', reject);
    req.end();
  });
}

async function p50(port: number, headersOf: (i: number) => Record<string, string>): Promise<number> {
  const agent = new Agent({ keepAlive: true, maxSockets: 1 });
  const times: number[] = [];
  for (let i = 0; i < REQUESTS; i++) times.push(await get(port, agent, headersOf(i)));
  agent.destroy();
  times.sort((x, y) => x - y);
  return times[Math.floor(times.length / 2)]!;
}

async function main(): Promise<void> {
  const cfg = loadConfig({ API_KEYS: 'on', DATABASE_URL: 'postgres://nobody@127.0.0.1:1/none' });
  // generous tiers: every request is let in and counted, as most are
  const tiers = DEFAULT_TIERS.map((t) => ({ ...t, requestsPerSecond: 1e9, requestsPerDay: 1e12 }));
  const access = new ApiAccess({
    cfg,
    pool: createPool({ databaseUrl: cfg.databaseUrl, schema: 'public' }, log),
    log,
    registry: new prom.Registry(),
    tiers,
  });
  const answer: Koa.Middleware = (ctx) => {
    ctx.body = { ok: true };
  };
  const plain = new Koa().use(answer);
  const counted = new Koa().use(apiQuota(access)).use(answer);
  const a = await serve(plain);
  const b = await serve(counted);
  const rounds: { a: number; b: number }[] = [];
  await p50(a.port, () => ({}));
  await p50(b.port, () => ({}));
  for (let r = 0; r < ROUNDS; r++) {
    const first = r % 2 === 0;
    const pa = first ? await p50(a.port, () => ({})) : 0;
    const pb = await p50(b.port, () => ({}));
    const round = { a: first ? pa : await p50(a.port, () => ({})), b: pb };
    rounds.push(round);
    console.log(
      `round ${r + 1}: p50 without ${(round.a * 1000).toFixed(1)} µs, with ${(round.b * 1000).toFixed(1)} µs`,
    );
  }
  const added = median(rounds.map((r) => r.b - r.a));
  console.log(`quota check adds ${(added * 1000).toFixed(1)} µs to the p50 (median of ${ROUNDS} rounds)`);
  writeResult('quota-check', { requests: REQUESTS, rounds, addedMs: added });
  a.server.close();
  b.server.close();
}

await main();
