/**
 * @module The overload benchmark's load generator, in a process of its own so that its own event loop (thousands of
 * connections) delays none of the probes it is measured against. Forked with one JSON argument (BurstOrder); sends
 * back the answers by status and exits.
 */
import { performance } from 'node:perf_hooks';
import { Pool as HttpPool } from 'undici';

export interface BurstOrder {
  readonly base: string;
  readonly paths: readonly string[];
  readonly connections: number;
  readonly seconds: number;
  readonly maxRequests: number;
  /** the bound an answer should come within (the admission's 5 s from arrival): later ones are counted in `late` */
  readonly lateMs: number;
}

export interface BurstResult {
  readonly requests: number;
  readonly seconds: number;
  readonly statuses: Record<number, number>;
  /** Retry-After values of the 503 answers */
  readonly retryAfter: Record<string, number>;
  /** the load generator's own CPU seconds (user and system) over the burst: its share of the machine's cores */
  readonly cpuSeconds: number;
  /** each status's latencies as the generator measured them, from sending the request to the answer's last byte */
  readonly latencyMs: Record<number, { readonly p50: number; readonly p99: number; readonly max: number }>;
  /** answers (of any status) that came after `lateMs`, and their statuses */
  readonly late: Record<number, number>;
}

/** burst keeps `connections` requests in flight over `paths` (round robin) for `seconds` (0: a client error). */
async function burst(order: BurstOrder): Promise<BurstResult> {
  const client = new HttpPool(order.base, { connections: order.connections, pipelining: 1 });
  const statuses = new Map<number, number>();
  const retryAfter = new Map<string, number>();
  const latencies = new Map<number, number[]>();
  const late = new Map<number, number>();
  const started = performance.now();
  const cpuStart = process.cpuUsage();
  const until = started + order.seconds * 1000;
  let sent = 0;
  await Promise.all(
    Array.from({ length: order.connections }, async () => {
      while (performance.now() < until && sent < order.maxRequests) {
        const path = order.paths[sent++ % order.paths.length]!;
        const sentAt = performance.now();
        const status = await client.request({ method: 'GET', path }).then(
          async (res) => {
            await res.body.text();
            if (res.statusCode === 503) {
              const header = String(res.headers['retry-after']);
              retryAfter.set(header, (retryAfter.get(header) ?? 0) + 1);
            }
            return res.statusCode;
          },
          () => 0,
        );
        const ms = performance.now() - sentAt;
        statuses.set(status, (statuses.get(status) ?? 0) + 1);
        const ofStatus = latencies.get(status) ?? [];
        if (ofStatus.length === 0) latencies.set(status, ofStatus);
        ofStatus.push(ms);
        if (ms > order.lateMs) late.set(status, (late.get(status) ?? 0) + 1);
      }
    }),
  );
  await client.close();
  const cpu = process.cpuUsage(cpuStart);
  return {
    requests: sent,
    seconds: Number(((performance.now() - started) / 1000).toFixed(1)),
    statuses: Object.fromEntries(statuses),
    retryAfter: Object.fromEntries(retryAfter),
    cpuSeconds: Number(((cpu.user + cpu.system) / 1e6).toFixed(2)),
    latencyMs: Object.fromEntries([...latencies].map(([status, ms]) => [status, spread(ms)])),
    late: Object.fromEntries(late),
  };
}

/** spread is the median, 99th percentile and maximum of latencies, in ms. */
function spread(ms: number[]): { p50: number; p99: number; max: number } {
  const sorted = ms.sort((a, b) => a - b);
  const at = (q: number): number => Math.round(sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!);
  return { p50: at(0.5), p99: at(0.99), max: Math.round(sorted.at(-1)!) };
}

if (process.send) {
  const result = await burst(JSON.parse(process.argv[2]!) as BurstOrder);
  process.send(result, () => process.disconnect());
}
