/**
 * @module Child process of bench/indexer.ts's instruction counts: the baseline client alone in its process. It
 * fetches and parses every generation up to BENCH_TOP from NODE_URL exactly as (a) does (the populator's client
 * code, its batch size and concurrency; nothing transformed or written) and prints one JSON line: the transactions.
 */
import pino from 'pino';
import { loadConfig } from '../src/config/middleware.ts';
import { NodeClient } from '../src/node/client.ts';
import { fetchGenerations } from '../src/indexer/sync/fetch.ts';

const cfg = loadConfig(process.env);
const top = Number(process.env.BENCH_TOP);
const node = new NodeClient({ url: cfg.nodeUrls, timeoutMs: cfg.nodeTimeoutMs }, pino({ level: 'warn' }));
let transactions = 0;
for (let from = 0; from <= top; from += cfg.batchSize) {
  const heights = Array.from({ length: Math.min(cfg.batchSize, top - from + 1) }, (_, i) => from + i);
  for (const gen of await fetchGenerations(node, heights, cfg.fetchConcurrency))
    for (const mb of gen.microBlocks) transactions += mb.transactions.length;
}
process.stdout.write(`${JSON.stringify({ top, transactions })}\n`);
