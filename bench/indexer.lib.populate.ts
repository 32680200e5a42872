/**
 * @module Child process of bench/indexer.ts: one populator from an empty schema to the node's top,
 * alone in its process so its RSS is its own. Prints one JSON line: seconds, CPU (all of it, and the sync's alone),
 * node requests, RSS samples, peak RSS.
 * Used by bench/indexer.ts and bench/sync.ts.
 */
import prom from 'prom-client';
import pino from 'pino';
import { performance } from 'node:perf_hooks';
import { loadConfig } from '../src/config/middleware.ts';
import { migrate } from '../src/db/schema/migrator.ts';
import { startPopulator } from '../src/indexer/sync/populator.ts';

const cfg = loadConfig(process.env);
const top = Number(process.env.BENCH_TOP);
const registry = new prom.Registry();
// the schema's migrations first, so that the clock and the CPU count the sync alone (startPopulator then finds
// nothing to migrate): on a short chain they were a visible share of its time and of PostgreSQL's CPU
await migrate({ databaseUrl: cfg.databaseUrl, schema: cfg.databaseSchema }, pino({ level: 'warn' }));
const started = performance.now();
// the CPU before the sync (module loading, migrations): a short chain's CPU per transaction leaves it out
const cpuAtStart = process.cpuUsage();
// the parent reads the other processes' CPU from here on
process.stdout.write('syncing\n');
const samples: { height: number; rssMiB: number; heapMiB: number }[] = [];
// BENCH_SAMPLE=0 (instruction counts): no samples, whose forced GCs would count per second of a slowed-down run
const sampling = process.env.BENCH_SAMPLE !== '0';
const populator = await startPopulator({ cfg, log: pino({ level: 'warn' }), registry });
// a sample forces a full collection (the live heap, not the garbage not yet collected): only where the chain
// passes a quarter, the points the benches report. One every second was counted as the populator's CPU: in a
// profile on the mainnet-like chain (bench/sync, load 11) garbage collection took 18.9 of 59 busy seconds with it,
// 2.3 of 16 without
let quarter = 1;
const timer = setInterval(() => {
  if (!sampling) return;
  void registry
    .getSingleMetric('mdw_sync_height')
    ?.get()
    .then((m) => {
      const height = m.values[0]?.value ?? 0;
      if (height < (top * quarter) / 4) return;
      while (height >= (top * quarter) / 4) quarter++;
      (globalThis as { gc?: () => void }).gc?.();
      const mem = process.memoryUsage();
      samples.push({ height, rssMiB: Math.round(mem.rss / 2 ** 20), heapMiB: Math.round(mem.heapUsed / 2 ** 20) });
    });
}, 1000);
await populator.synced();
const seconds = (performance.now() - started) / 1000;
clearInterval(timer);
await populator.stop();
const cpu = process.cpuUsage();
// the chain's end, after the CPU was read
if (sampling && samples.at(-1)?.height !== top) {
  (globalThis as { gc?: () => void }).gc?.();
  const mem = process.memoryUsage();
  samples.push({ height: top, rssMiB: Math.round(mem.rss / 2 ** 20), heapMiB: Math.round(mem.heapUsed / 2 ** 20) });
}
// answers from the node(s), summed over nodes: the requests the populator needed
const answered = await registry.getSingleMetric('mdw_node_requests_total')?.get();
const nodeRequests = answered?.values.reduce((sum, v) => sum + v.value, 0) ?? 0;
process.stdout.write(
  `${JSON.stringify({ seconds, cpuSeconds: (cpu.user + cpu.system) / 1e6, syncCpuSeconds: (cpu.user + cpu.system - cpuAtStart.user - cpuAtStart.system) / 1e6, top, nodeRequests, peakRssMiB: Math.round(process.resourceUsage().maxRSS / 1024), samples })}\n`,
);
