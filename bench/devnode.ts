/**
 * @module Devnode benchmark: time to generate a chain (default 20 000 generations × 2 micro blocks
 * × 5 txs = 200 000 signed txs) and the raw serving rate of what an indexer fetches (every
 * generation, then every micro block's transactions) over keep-alive HTTP with a few concurrent
 * clients, cold (first serialisation) and warm (cached JSON). Baselines in the same run: signing
 * as many messages with node's ed25519 (the generator's floor), and a bare node:http server
 * answering a constant body of the same size (the HTTP floor). Prints the numbers and writes
 * bench/results/devnode.json.
 *
 *   node bench/devnode.ts   (BENCH_DEVNODE_GENERATIONS=20000 BENCH_DEVNODE_CLIENTS=4)
 */
import { createServer } from 'node:http';
import { generateKeyPairSync, sign } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import { performance } from 'node:perf_hooks';
import { Pool } from 'undici';
import pino from 'pino';
import { startDevnode } from '../src/devnode/index.ts';
import { writeResult } from './results.lib.ts';

const GENERATIONS = Number(process.env.BENCH_DEVNODE_GENERATIONS ?? 20_000);
const CLIENTS = Number(process.env.BENCH_DEVNODE_CLIENTS ?? 4);
const log = pino({ level: 'warn' });

async function getJson(pool: Pool, path: string): Promise<{ text: string; bytes: number }> {
  const res = await pool.request({ method: 'GET', path });
  const text = await res.body.text();
  if (res.statusCode !== 200) throw new Error(`${path} answered ${res.statusCode}: ${text.slice(0, 200)}`);
  return { text, bytes: Buffer.byteLength(text) };
}

/** fetchChain walks heights 1..top with `CLIENTS` workers, like an indexer: generation, then each micro block's txs. */
async function fetchChain(
  origin: string,
  top: number,
): Promise<{ seconds: number; requests: number; txs: number; bytes: number }> {
  const pool = new Pool(origin, { connections: CLIENTS, pipelining: 1 });
  let next = 1;
  let requests = 0;
  let txs = 0;
  let bytes = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: CLIENTS }, async () => {
      for (let h = next++; h <= top; h = next++) {
        const generation = await getJson(pool, `/v2/generations/height/${h}`);
        requests++;
        bytes += generation.bytes;
        for (const mh of (JSON.parse(generation.text) as { micro_blocks: string[] }).micro_blocks) {
          const body = await getJson(pool, `/v2/micro-blocks/hash/${mh}/transactions`);
          requests++;
          bytes += body.bytes;
          txs += (JSON.parse(body.text) as { transactions: unknown[] }).transactions.length;
        }
      }
    }),
  );
  const seconds = (performance.now() - started) / 1000;
  await pool.close();
  return { seconds, requests, txs, bytes };
}

/** bareHttpRate is the same client against node:http answering a constant body (the floor of any server). */
async function bareHttpRate(bodyBytes: number, requests: number): Promise<number> {
  const body = JSON.stringify({ pad: 'x'.repeat(Math.max(0, bodyBytes - 10)) });
  const server = createServer((_req, res) => {
    res.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) });
    res.end(body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const pool = new Pool(`http://127.0.0.1:${(server.address() as AddressInfo).port}`, {
    connections: CLIENTS,
    pipelining: 1,
  });
  let left = requests;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: CLIENTS }, async () => {
      while (left-- > 0) await getJson(pool, '/');
    }),
  );
  const rate = requests / ((performance.now() - started) / 1000);
  await pool.close();
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return rate;
}

function signingBaseline(count: number): number {
  const { privateKey } = generateKeyPairSync('ed25519');
  const message = Buffer.alloc(200, 1);
  const started = performance.now();
  for (let i = 0; i < count; i++) sign(null, message, privateKey);
  return (performance.now() - started) / 1000;
}

const startedGeneration = performance.now();
const node = await startDevnode(
  { port: 0, internalPort: 0, microBlockIntervalMs: 0, generate: { generations: GENERATIONS, seed: 'bench' } },
  log,
);
const generationSeconds = (performance.now() - startedGeneration) / 1000;
const txCount = node.chain.txs.size;
const rssAfterGeneration = process.memoryUsage().rss;
console.log(
  `generated ${GENERATIONS} generations, ${txCount} txs in ${generationSeconds.toFixed(1)} s (${Math.round(txCount / generationSeconds)} tx/s), RSS ${(rssAfterGeneration / 2 ** 20).toFixed(0)} MiB`,
);
const signSeconds = signingBaseline(txCount);
console.log(
  `baseline: ${txCount} ed25519 signatures alone take ${signSeconds.toFixed(1)} s (generation = ${(generationSeconds / signSeconds).toFixed(1)}× that)`,
);

const cold = await fetchChain(node.externalUrl, node.height());
const warm = await fetchChain(node.externalUrl, node.height());
for (const [label, r] of [
  ['cold', cold],
  ['warm', warm],
] as const) {
  console.log(
    `serve ${label}: ${r.requests} requests, ${r.txs} txs in ${r.seconds.toFixed(1)} s = ${Math.round(r.requests / r.seconds)} req/s, ${Math.round(r.txs / r.seconds)} tx/s, ${(r.bytes / r.seconds / 2 ** 20).toFixed(1)} MiB/s (${CLIENTS} keep-alive clients)`,
  );
}
const averageBody = Math.round(warm.bytes / warm.requests);
const bare = await bareHttpRate(averageBody, Math.min(warm.requests, 20_000));
console.log(
  `baseline: bare node:http with a constant ${averageBody}-byte body: ${Math.round(bare)} req/s (warm devnode = ${((warm.requests / warm.seconds / bare) * 100).toFixed(0)}% of it)`,
);
await node.stop();

const result = {
  benchmark: 'devnode',
  date: new Date().toISOString(),
  command: 'node bench/devnode.ts',
  generations: GENERATIONS,
  clients: CLIENTS,
  generation: {
    seconds: generationSeconds,
    txs: txCount,
    txPerSecond: txCount / generationSeconds,
    rssMiB: rssAfterGeneration / 2 ** 20,
    signingBaselineSeconds: signSeconds,
  },
  serving: {
    cold: { ...cold, requestsPerSecond: cold.requests / cold.seconds, txPerSecond: cold.txs / cold.seconds },
    warm: { ...warm, requestsPerSecond: warm.requests / warm.seconds, txPerSecond: warm.txs / warm.seconds },
    bareHttpRequestsPerSecond: bare,
    averageBodyBytes: averageBody,
  },
};
writeResult('devnode', result);
