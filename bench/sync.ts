/**
 * @module Sync benchmark (issue 15): how fast the populator loads a mainnet-shaped chain from nodes that answer
 * like real ones (`mdw devnode --mainnet-like --latency-ms N --max-concurrent-requests M`, each in its own
 * process), against the node-bound rate measured in the same run:
 * (n) a bare client keeping every request slot busy (M per node): requests/s, and the generations/s and tx/s
 *     that implies for this chain (its requests are the fewest that read it: generation, each micro block's
 *     header and transactions, each contract call's info);
 * (c) the populator (own process) on the same chain into an empty schema.
 * Reports (c) ÷ (n), requests per generation and per transaction of each, the projected time for mainnet
 * from one node and from three, and the database's bytes per transaction. Runs at 20 ms and 5 ms, and
 * with three nodes at 20 ms. After each populator run `mdw -v` checks every stored height against the nodes.
 *
 *   node bench/sync.ts   (BENCH_SYNC_GENERATIONS=1000 BENCH_SYNC_SLOTS=32 BENCH_SYNC_LATENCIES=20,5 BENCH_SYNC_NODES=3
 *                         BENCH_SYNC_VERIFY=0 skips the verify; BENCH_POPULATOR_FLAGS="--cpu-prof" adds Node flags to
 *                         the populator's process)
 */
import { spawn } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { availableParallelism, loadavg } from 'node:os';
import { performance } from 'node:perf_hooks';
import pino from 'pino';
import { isJsonObject, parseJson, type Json } from '../src/chain/json.ts';
import { expectedShape, MAINNET } from '../src/devnode/mainnet-like.ts';
import { keyPairFromSeed } from '../src/devnode/keys.ts';
import { contractTx } from '../src/indexer/contract-decoder.ts';
import { httpGet } from '../src/node/http-get.ts';
import { loadConfig } from '../src/config.ts';
import { verifyChain } from '../src/indexer/verify.ts';
import { databaseSize, sizeLines } from './db-size.lib.ts';
import { startDevnodeProcess, type Child } from './http.lib.ts';
import { postgresCpuReader, processCpuSeconds } from './process-cpu.lib.ts';
import { createTestDatabase, stopTestServer } from '../test/support/postgres.ts';

const GENERATIONS = Number(process.env.BENCH_SYNC_GENERATIONS ?? 1000);
const SLOTS = Number(process.env.BENCH_SYNC_SLOTS ?? 32);
const LATENCIES = (process.env.BENCH_SYNC_LATENCIES ?? '20,5').split(',').map(Number);
const NODES = Number(process.env.BENCH_SYNC_NODES ?? 3);
/** `mdw -v` over each populated schema afterwards (0 to skip): nothing lost from slow, queueing nodes */
const VERIFY = process.env.BENCH_SYNC_VERIFY !== '0';
const SEED = 'sync-bench';
const log = pino({ level: 'warn' });
// the same genesis on every node: a fixed account and beneficiary (the devnode would make random ones)
const ACCOUNT = keyPairFromSeed(new Uint8Array(32).fill(21));
const BENEFICIARY = keyPairFromSeed(new Uint8Array(32).fill(22));

/** cpuOfNodes sums the CPU seconds the devnode processes have used so far. */
const cpuOfNodes = (nodes: readonly Child[]): number => nodes.reduce((sum, n) => sum + processCpuSeconds(n.pid), 0);

/** startNode runs `mdw devnode` in its own process and resolves when it serves. */
function startNode(latencyMs: number): Promise<Child> {
  return startDevnodeProcess([
    ...['--generate', String(GENERATIONS), '--mainnet-like', '--seed', SEED],
    ...['--latency-ms', String(latencyMs), '--max-concurrent-requests', String(SLOTS)],
    ...['--beneficiary', BENEFICIARY.secretKey, '--account', `${ACCOUNT.secretKey}:${10n ** 24n}`],
  ]);
}

interface Rate {
  readonly seconds: number;
  readonly requests: number;
  readonly generations: number;
  readonly transactions: number;
  readonly requestsPerSecond: number;
  readonly generationsPerSecond: number;
  readonly txPerSecond: number;
}

function rate(seconds: number, requests: number, generations: number, transactions: number): Rate {
  return {
    seconds,
    requests,
    generations,
    transactions,
    requestsPerSecond: requests / seconds,
    generationsPerSecond: generations / seconds,
    txPerSecond: transactions / seconds,
  };
}

/**
 * bareClient (n) reads the whole chain with `SLOTS` requests in flight at each node and nothing else: every
 * answer parsed losslessly, its follow-up requests queued (micro blocks after their generation, call infos
 * after their micro block's transactions).
 */
async function bareClient(urls: readonly string[]): Promise<Rate> {
  const queue: string[] = Array.from({ length: GENERATIONS + 1 }, (_, h) => `/generations/height/${h}`);
  let inFlight = 0;
  let requests = 0;
  let transactions = 0;
  // workers with nothing to do wait for the answers in flight to bring more work (or for the end)
  let waiting: (() => void)[] = [];
  const wakeAll = (): void => {
    const all = waiting;
    waiting = [];
    for (const w of all) w();
  };
  const handle = (path: string, body: Json): void => {
    if (!isJsonObject(body)) throw new Error(`${path}: not an object`);
    if (Array.isArray(body.micro_blocks)) {
      for (const hash of body.micro_blocks) queue.push(`/micro-blocks/hash/${String(hash)}/header`);
      for (const hash of body.micro_blocks) queue.push(`/micro-blocks/hash/${String(hash)}/transactions`);
    } else if (Array.isArray(body.transactions)) {
      transactions += body.transactions.length;
      for (const signed of body.transactions)
        if (isJsonObject(signed) && isJsonObject(signed.tx) && contractTx(signed.tx))
          queue.push(`/transactions/${String(signed.hash)}/info`);
    }
  };
  const worker = async (base: string): Promise<void> => {
    for (;;) {
      const path = queue.shift();
      if (path === undefined) {
        if (inFlight === 0) {
          wakeAll();
          return;
        }
        await new Promise<void>((resolve) => waiting.push(resolve));
        continue;
      }
      inFlight++;
      const { status, text } = await httpGet(new URL(`${base}/v2${path}`), 30_000);
      if (status !== 200) throw new Error(`${path}: ${status} ${text.slice(0, 200)}`);
      handle(path, parseJson(text));
      requests++;
      inFlight--;
      wakeAll();
    }
  };
  const started = performance.now();
  await Promise.all(urls.flatMap((url) => Array.from({ length: SLOTS }, () => worker(url))));
  return rate((performance.now() - started) / 1000, requests, GENERATIONS + 1, transactions);
}

/** populate (c) runs the populator in its own process from an empty schema to the top. */
async function populate(
  urls: readonly string[],
  databaseUrl: string,
  schema: string,
  transactions: number,
): Promise<Rate & { cpuSeconds: number; peakRssMiB: number }> {
  // BENCH_POPULATOR_FLAGS="--cpu-prof --cpu-prof-dir=…" profiles the populator on the mainnet-like chain
  const flags = process.env.BENCH_POPULATOR_FLAGS?.split(' ').filter(Boolean) ?? [];
  const script = new URL('indexer.lib.populate.ts', import.meta.url).pathname;
  const child = spawn(process.execPath, ['--expose-gc', ...flags, script], {
    env: {
      NODE_URL: urls[0]!,
      NODE_URLS: urls.join(','),
      DATABASE_URL: databaseUrl,
      DATABASE_SCHEMA: schema,
      BENCH_TOP: String(GENERATIONS),
      LOG_LEVEL: 'warn',
      NODE_TIMEOUT_MS: '30000',
      ...Object.fromEntries(
        ['BATCH_SIZE', 'BATCH_TRANSACTIONS', 'FETCH_CONCURRENCY'].flatMap((k) =>
          process.env[k] ? [[k, process.env[k]!]] : [],
        ),
      ),
      MALLOC_MMAP_THRESHOLD_: '131072',
    },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  let out = '';
  child.stdout.on('data', (c: Buffer) => (out += c.toString()));
  const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
  if (code !== 0) throw new Error(`populator child exited with ${code}`);
  const r = JSON.parse(out.trim().split('\n').at(-1)!) as {
    seconds: number;
    cpuSeconds: number;
    nodeRequests: number;
    peakRssMiB: number;
  };
  return {
    ...rate(r.seconds, r.nodeRequests, GENERATIONS + 1, transactions),
    cpuSeconds: r.cpuSeconds,
    peakRssMiB: r.peakRssMiB,
  };
}

const hours = (seconds: number): string => `${(seconds / 3600).toFixed(1)} h`;

/**
 * nodeBoundTxPerSecond is what `nodes` ideal nodes of SLOTS slots at `latencyMs` serve of this chain: SLOTS ÷ latency
 * requests per second each, at the bare client's requests per transaction (the fewest that read the chain).
 */
function nodeBoundTxPerSecond(nodes: number, latencyMs: number, bare: Rate): number {
  return (nodes * SLOTS * 1000) / latencyMs / (bare.requests / bare.transactions);
}

/** projection: mainnet's generations at this chain's generations/s (the chain has mainnet's shape). */
function projectMainnet(r: Rate): { seconds: number; fromTransactions: number } {
  return {
    seconds: MAINNET.generations / r.generationsPerSecond,
    fromTransactions: MAINNET.transactions / r.txPerSecond,
  };
}

function line(name: string, r: Rate): string {
  return (
    `${name}: ${r.requestsPerSecond.toFixed(0)} req/s, ${r.generationsPerSecond.toFixed(1)} gen/s, ` +
    `${r.txPerSecond.toFixed(0)} tx/s; ${(r.requests / r.generations).toFixed(2)} req/generation, ` +
    `${(r.requests / r.transactions).toFixed(3)} req/tx (${r.seconds.toFixed(1)} s)`
  );
}

async function main(): Promise<void> {
  const load = { before: loadavg() };
  console.log(
    `machine load (1/5/15 min): ${load.before.map((l) => l.toFixed(1)).join(' ')}; chain: ${GENERATIONS} mainnet-like generations; ${SLOTS} slots per node`,
  );
  const db = await createTestDatabase();
  const postgresCpu = await postgresCpuReader(db.url);
  const cores = availableParallelism();
  const runs: Record<string, unknown>[] = [];
  let schemaIndex = 0;
  try {
    for (const latencyMs of LATENCIES) {
      // three nodes at the first latency (the 3-node run), one at the others
      const count = latencyMs === LATENCIES[0] ? NODES : 1;
      const t0 = performance.now();
      const nodes = await Promise.all(Array.from({ length: count }, () => startNode(latencyMs)));
      console.log(
        `\n--- latency ${latencyMs} ms: ${count} devnode(s) generated in ${((performance.now() - t0) / 1000).toFixed(0)} s`,
      );
      try {
        for (const n of count > 1 ? [1, count] : [1]) {
          const urls = nodes.slice(0, n).map((x) => x.url);
          const bare = await bareClient(urls);
          const schema = `sync_${schemaIndex++}`;
          const cpu0 = { postgres: postgresCpu(), nodes: cpuOfNodes(nodes) };
          const populated = await populate(urls, db.url, schema, bare.transactions);
          // CPU per transaction of each party in (c): what bounds it when the machine's cores are full
          const perTx = {
            populator: populated.cpuSeconds / bare.transactions,
            postgres: (postgresCpu() - cpu0.postgres) / bare.transactions,
            nodes: (cpuOfNodes(nodes) - cpu0.nodes) / bare.transactions,
          };
          const size = await databaseSize(db.url, schema, bare.transactions);
          const bytes = size.bytes;
          const verified = VERIFY
            ? await verifyChain(
                {
                  cfg: loadConfig({
                    NODE_URL: urls[0]!,
                    NODE_URLS: urls.join(','),
                    DATABASE_URL: db.url,
                    DATABASE_SCHEMA: schema,
                  }),
                  log,
                  out: (l) => console.log(`  verify: ${l}`),
                },
                {},
              )
            : undefined;
          const ratio = populated.generationsPerSecond / bare.generationsPerSecond;
          const projected = projectMainnet(populated);
          console.log(`${n} node(s), ${latencyMs} ms:`);
          console.log(`  ${line('(n) bare client', bare)}`);
          console.log(`  ${line('(c) populator  ', populated)}`);
          console.log(
            `  (c) ÷ (n) = ${ratio.toFixed(2)}; populator CPU ${((1e6 * populated.cpuSeconds) / bare.transactions).toFixed(0)} µs/tx ` +
              `(${((100 * populated.cpuSeconds) / populated.seconds).toFixed(0)} % of a core), peak RSS ${populated.peakRssMiB} MiB; ` +
              `database ${(bytes / bare.transactions).toFixed(0)} bytes/tx`,
          );
          const cpuPerTx = perTx.populator + perTx.postgres + perTx.nodes;
          console.log(
            `  CPU per tx in (c): populator ${(1e6 * perTx.populator).toFixed(0)}, PostgreSQL ${(1e6 * perTx.postgres).toFixed(0)}, ` +
              `devnode(s) ${(1e6 * perTx.nodes).toFixed(0)} µs: ${cores} cores carry at most ${(cores / cpuPerTx).toFixed(0)} tx/s ` +
              `(the node bound of ${n} node(s) of ${SLOTS} slots at ${latencyMs} ms: ${nodeBoundTxPerSecond(n, latencyMs, bare).toFixed(0)} tx/s)`,
          );
          console.log(
            `  mainnet (${MAINNET.generations} generations) projected: ${hours(projected.seconds)} ` +
              `(${hours(projected.fromTransactions)} by its ${MAINNET.transactions} transactions); ` +
              `node-bound: ${hours(projectMainnet(bare).seconds)}`,
          );
          for (const l of sizeLines(size, bare.transactions)) console.log(`  ${l}`);
          if (verified)
            console.log(
              `  mdw -v: ${verified.checked} heights checked, ${verified.differences} difference(s)${verified.differences === 0 ? ' (clean)' : ''}`,
            );
          runs.push({
            latencyMs,
            nodes: n,
            bare,
            populated,
            ratio,
            bytesPerTx: bytes / bare.transactions,
            database: size,
            projected,
            verified,
            cpuPerTx: perTx,
            coresBoundTxPerSecond: cores / cpuPerTx,
          });
        }
      } finally {
        await Promise.all(nodes.map((n) => n.stop()));
      }
    }
  } finally {
    await db.drop();
    await stopTestServer();
  }
  type Run = {
    latencyMs: number;
    nodes: number;
    populated: Rate;
    bare: Rate;
    ratio: number;
    projected: { seconds: number };
  };
  type Measured = Run & { cpuPerTx: { populator: number; postgres: number; nodes: number } };
  const all = runs as unknown as Measured[];
  console.log(
    '\nsummary (targets: (c) ÷ (n) ≥ 0.9; mainnet ≤ 6 h from one node at 20 ms, ≤ 2.5 h from three; three ÷ one ≥ 2.5):',
  );
  for (const r of all)
    console.log(
      `  ${r.nodes} node(s) at ${r.latencyMs} ms: (c) ÷ (n) ${r.ratio.toFixed(2)}; mainnet from (c) ${hours(r.projected.seconds)}, ` +
        `node-bound (n) ${hours(projectMainnet(r.bare).seconds)}, ideal node (${r.nodes} × ${SLOTS} slots ÷ ${r.latencyMs} ms) ` +
        `${hours(MAINNET.generations / ((r.nodes * SLOTS * 1000) / r.latencyMs / (r.bare.requests / r.bare.generations)))}`,
    );
  const one = all.find((r) => r.nodes === 1 && r.latencyMs === LATENCIES[0]);
  const three = all.find((r) => r.nodes === NODES && NODES > 1);
  if (one && three) {
    // what the cores allow: at the one-node run's CPU per tx, the cores carry C tx/s; one node serves at most B,
    // three 3B, so the populator's three-node rate over its one-node rate can show at most min(3B, C) ÷ min(B, C)
    const cpu = one.cpuPerTx.populator + one.cpuPerTx.postgres + one.cpuPerTx.nodes;
    const coresTx = cores / cpu;
    const bound = nodeBoundTxPerSecond(1, one.latencyMs, one.bare);
    console.log(
      `  ${NODES} nodes ÷ 1 node (populator, ${LATENCIES[0]} ms): ${(three.populated.generationsPerSecond / one.populated.generationsPerSecond).toFixed(2)}; ` +
        `${NODES} ideal nodes serve ${(NODES * bound).toFixed(0)} tx/s, which needs ${(NODES * bound * cpu).toFixed(2)} cores at the ` +
        `one-node run's ${(1e6 * cpu).toFixed(0)} µs of CPU per tx (populator, PostgreSQL, devnodes); the ${cores} cores carry ` +
        `${coresTx.toFixed(0)} tx/s, so this machine can show at most ${(Math.min(NODES * bound, coresTx) / Math.min(bound, coresTx)).toFixed(2)} ×`,
    );
  }
  const shape = expectedShape();
  console.log(
    `mainnet shape assumed (src/devnode/mainnet-like.ts, docs/devnode.md): ${MAINNET.generations} generations and ` +
      `${MAINNET.transactions} transactions (mid 2025: ae_mdw issue #2152 and its status example's mdw_tx_index); the profile's ${shape.microBlocks} micro blocks and ${shape.transactions} ` +
      `transactions per generation, ${100 * shape.callShare} % contract calls`,
  );
  const after = loadavg();
  console.log(`machine load after (1/5/15 min): ${after.map((l) => l.toFixed(1)).join(' ')}`);
  mkdirSync(new URL('results/', import.meta.url), { recursive: true });
  writeFileSync(
    new URL('results/sync.json', import.meta.url),
    `${JSON.stringify(
      {
        benchmark: 'sync',
        date: new Date().toISOString(),
        command: 'make bench ONLY=sync',
        generations: GENERATIONS + 1,
        slots: SLOTS,
        load: { before: load.before, after },
        mainnet: MAINNET,
        runs,
      },
      null,
      2,
    )}\n`,
  );
}

await main();
