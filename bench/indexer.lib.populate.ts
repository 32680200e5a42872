/**
 * @module Child process of bench/indexer.ts: one populator from an empty schema to the node's top,
 * alone in its process so its RSS is its own. Prints one JSON line: seconds, CPU, node requests, RSS samples, peak RSS.
 * Used by bench/indexer.ts and bench/sync.ts.
 */
import prom from 'prom-client';
import pino from 'pino';
import { performance } from 'node:perf_hooks';
import { loadConfig } from '../src/config.ts';
import { startPopulator } from '../src/indexer/populator.ts';

const cfg = loadConfig(process.env);
const top = Number(process.env.BENCH_TOP);
const registry = new prom.Registry();
const started = performance.now();
const samples: { height: number; rssMiB: number; heapMiB: number }[] = [];
// BENCH_SAMPLE=0 (instruction counts): no samples, whose forced GCs would count per second of a slowed-down run
const sampling = process.env.BENCH_SAMPLE !== '0';
const populator = await startPopulator({ cfg, log: pino({ level: 'warn' }), registry });
const timer = setInterval(() => {
  if (!sampling) return;
  void registry
    .getSingleMetric('mdw_sync_height')
    ?.get()
    .then((m) => {
      // with --expose-gc the sample is the live heap, not the garbage not yet collected
      (globalThis as { gc?: () => void }).gc?.();
      const mem = process.memoryUsage();
      samples.push({
        height: m.values[0]?.value ?? 0,
        rssMiB: Math.round(mem.rss / 2 ** 20),
        heapMiB: Math.round(mem.heapUsed / 2 ** 20),
      });
    });
}, 1000);
await populator.synced();
const seconds = (performance.now() - started) / 1000;
clearInterval(timer);
await populator.stop();
const cpu = process.cpuUsage();
// answers from the node(s), summed over nodes: the requests the populator needed
const answered = await registry.getSingleMetric('mdw_node_requests_total')?.get();
const nodeRequests = answered?.values.reduce((sum, v) => sum + v.value, 0) ?? 0;
process.stdout.write(
  `${JSON.stringify({ seconds, cpuSeconds: (cpu.user + cpu.system) / 1e6, top, nodeRequests, peakRssMiB: Math.round(process.resourceUsage().maxRSS / 1024), samples })}\n`,
);
