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
 *                         BENCH_SYNC_VERIFY=0 skips the verify)
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { performance } from 'node:perf_hooks';
import pino from 'pino';
import { isJsonObject, type Json } from '../src/chain/json.ts';
import { expectedShape, MAINNET } from '../src/devnode/mainnet-like.ts';
import { keyPairFromSeed } from '../src/devnode/keys.ts';
import { contractTx } from '../src/indexer/contract-decoder.ts';
import { parseNodeJson } from '../src/node/client.ts';
import { httpGet } from '../src/node/http-get.ts';
import { loadConfig } from '../src/config.ts';
import { verifyChain } from '../src/indexer/verify.ts';
import { databaseSize, sizeLines } from './db-size.lib.ts';
import { createTestDatabase, stopTestServer } from '../test/support/postgres.ts';

const GENERATIONS = Number(process.env.BENCH_SYNC_GENERATIONS ?? 1000);
const SLOTS = Number(process.env.BENCH_SYNC_SLOTS ?? 32);
const LATENCIES = (process.env.BENCH_SYNC_LATENCIES ?? '20,5').split(',').map(Number);
const NODES = Number(process.env.BENCH_SYNC_NODES ?? 3);
/** `mdw -v` over each populated schema afterwards (0 to skip): nothing lost from slow, queueing nodes */
const VERIFY = process.env.BENCH_SYNC_VERIFY !== '0';
const SEED = 'sync-bench';
const MDW = new URL('../bin/mdw.js', import.meta.url).pathname;
const log = pino({ level: 'warn' });
// the same genesis on every node: a fixed account and beneficiary (the devnode would make random ones)
const ACCOUNT = keyPairFromSeed(new Uint8Array(32).fill(21));
const BENEFICIARY = keyPairFromSeed(new Uint8Array(32).fill(22));

interface Node {
  readonly url: string;
  readonly child: ChildProcess;
}

/** startNode runs `mdw devnode` in its own process and resolves when it serves. */
async function startNode(latencyMs: number): Promise<Node> {
  const child = spawn(
    process.execPath,
    [
      MDW,
      'devnode',
      ...['--port', '0', '--internal-port', '0', '--key-block-interval', '0', '--micro-block-interval', '0'],
      ...['--generate', String(GENERATIONS), '--mainnet-like', '--seed', SEED],
      ...['--latency-ms', String(latencyMs), '--max-concurrent-requests', String(SLOTS)],
      ...['--beneficiary', BENEFICIARY.secretKey, '--account', `${ACCOUNT.secretKey}:${10n ** 24n}`],
    ],
    { stdio: ['ignore', 'pipe', 'inherit'] },
  );
  let out = '';
  child.stdout!.on('data', (d: Buffer) => (out += d.toString()));
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setInterval(() => {
      const found = /external API: (http:\/\/[\d.:]+)/.exec(out)?.[1];
      if (found) {
        clearInterval(timer);
        resolve(found);
      }
    }, 200);
    child.once('exit', (code) => {
      clearInterval(timer);
      reject(new Error(`devnode exited with ${code}: ${out}`));
    });
  });
  return { url, child };
}

async function stopNodes(nodes: readonly Node[]): Promise<void> {
  await Promise.all(
    nodes.map(
      (n) =>
        new Promise<void>((resolve) => {
          n.child.once('exit', () => resolve());
          n.child.kill('SIGTERM');
        }),
    ),
  );
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
      handle(path, parseNodeJson(text));
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
  const child = spawn(process.execPath, ['--expose-gc', new URL('indexer.lib.populate.ts', import.meta.url).pathname], {
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
          const populated = await populate(urls, db.url, schema, bare.transactions);
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
          });
        }
      } finally {
        await stopNodes(nodes);
      }
    }
  } finally {
    await db.drop();
    await stopTestServer();
  }
  const one = runs.find((r) => r.nodes === 1 && r.latencyMs === LATENCIES[0]) as { populated: Rate } | undefined;
  const three = runs.find((r) => r.nodes === NODES && NODES > 1) as { populated: Rate } | undefined;
  if (one && three) {
    console.log(
      `\n${NODES} nodes ÷ 1 node (populator, ${LATENCIES[0]} ms): ${(three.populated.generationsPerSecond / one.populated.generationsPerSecond).toFixed(2)}`,
    );
  }
  const shape = expectedShape();
  console.log(
    `mainnet shape assumed (src/devnode/mainnet-like.ts, docs/devnode.md): ${MAINNET.generations} generations, ` +
      `${MAINNET.transactions} transactions; the profile's ${shape.microBlocks} micro blocks and ${shape.transactions} ` +
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
