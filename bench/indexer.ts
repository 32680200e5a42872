/**
 * @module Indexer benchmark, three rates over the same devnode chain in one run:
 * (a) fetch: everything the populator fetches from the devnode (lossless parse, nothing written);
 * (b) COPY: PostgreSQL bulk-loading the same rows (server-side COPY into the same indexed tables);
 * (c) populator end to end (own process: fetch, decode, transform, one COPY per table per batch, commits).
 * Reports tx/s, generations/s, (c) ÷ min(a, b), the bound the cores put on (c) (the three parties'
 * CPU per transaction on the machine's cores), the populator's RSS along the chain, and the CPU ratios of
 * issue 15: the populator's CPU per tx ÷ the baseline client's (the same client code fetching and parsing the
 * same chain in (a), the devnode in its own process), and PostgreSQL's CPU per tx in (c) ÷ its bare COPY of every
 * row (c) stored (bench/bare-copy.lib.ts, after (c)), with the ratio to (b) (the chain's tables alone) beside it.
 *
 *   node bench/indexer.ts   (BENCH_INDEXER_GENERATIONS=20000, 2 micro blocks × 5 txs per generation;
 *                            BATCH_SIZE, BATCH_TRANSACTIONS and FETCH_CONCURRENCY tune the populator (and the fetch of (a));
 *                            BENCH_POPULATOR_FLAGS="--cpu-prof" adds Node flags to the populator's process;
 *                            BENCH_INDEXER_INSTRUCTIONS=500: the instruction counts' shorter chain, 0 skips them;
 *                            BENCH_INDEXER_ONLY_INSTRUCTIONS=1 runs the instruction counts alone)
 */
import { spawn } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { availableParallelism, tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import pino from 'pino';
import { loadConfig } from '../src/config.ts';
import { migrate } from '../src/db/migrator.ts';
import { createPool, quoteIdent } from '../src/db/pool.ts';
import { NodeClient } from '../src/node/client.ts';
import { fetchGenerations } from '../src/indexer/fetch.ts';
import { transformGeneration } from '../src/indexer/transform.ts';
import { resolveRows } from '../src/indexer/writer.ts';
import { TABLES } from '../src/indexer/tables.ts';
import { copyText } from '../src/db/copy-in.ts';
import { idKey } from '../src/chain/id-key.ts';
import { createTestDatabase, stopTestServer } from '../test/support/postgres.ts';
import { databaseSize, sizeLines } from './db-size.lib.ts';
import { startDevnodeProcess, type Child } from './http.lib.ts';
import { countInstructions, perUnit, valgrindAvailable } from './instructions.lib.ts';
import { postgresCpuReader, processCpuSeconds } from './process-cpu.lib.ts';
import { bareCopyOf } from './bare-copy.lib.ts';

const GENERATIONS = Number(process.env.BENCH_INDEXER_GENERATIONS ?? 20_000);
/** the populator's tuning variables, passed on when set */
const TUNING = Object.fromEntries(
  ['BATCH_SIZE', 'BATCH_TRANSACTIONS', 'FETCH_CONCURRENCY'].flatMap((k) =>
    process.env[k] ? [[k, process.env[k]!]] : [],
  ),
);
const log = pino({ level: 'warn' });
/**
 * the instruction counts' shorter chain (generations; the longer has twice as many); 0 skips them. Under valgrind
 * a process runs 30–100 × slower, so these chains are short.
 */
const INSTRUCTIONS = Number(process.env.BENCH_INDEXER_INSTRUCTIONS ?? 500);

async function main(): Promise<void> {
  if (process.env.BENCH_INDEXER_ONLY_INSTRUCTIONS === '1') return onlyInstructions();
  const t0 = performance.now();
  // the devnode in its own process: (a)'s CPU is then the client's alone, as the populator's is in (c)
  const devnode = await startDevnode(GENERATIONS);
  const top = GENERATIONS;
  console.log(`devnode: ${top + 1} generations generated in ${((performance.now() - t0) / 1000).toFixed(1)} s`);
  const db = await createTestDatabase();
  const cfg = loadConfig({
    ...TUNING,
    NODE_URL: devnode.url,
    DATABASE_URL: db.url,
    DATABASE_SCHEMA: 'populated',
  });
  const postgresCpu = await postgresCpuReader(db.url);
  const ownCpu = (): number => {
    const u = process.cpuUsage();
    return (u.user + u.system) / 1e6;
  };

  // (a) fetch everything the populator fetches, with its batch size and concurrency; transform untimed
  const node = new NodeClient({ url: devnode.url, timeoutMs: cfg.nodeTimeoutMs }, log);
  const dir = mkdtempSync(join(tmpdir(), 'mdw-bench-copy-'));
  chmodSync(dir, 0o755);
  // one file per table: the COPY baseline takes each table's main rows (not the few reached through names)
  const tables = TABLES.filter((t, i) => TABLES.findIndex((u) => u.table === t.table) === i);
  const files = new Map(tables.map((t) => [t.table, [] as string[]]));
  const noPriorState = { query: async () => ({ rows: [] }) } as never;
  // the ids' numbers (account_transactions) as the populator gives them: 8 × n + the key's tag, in order of appearance
  const idNumbers = new Map<string, number>();
  const numbers = {
    number: (id: string): number => {
      let num = idNumbers.get(id);
      if (num === undefined) idNumbers.set(id, (num = 8 * (idNumbers.size + 1) + idKey(id)[0]!));
      return num;
    },
  };
  let fetchSeconds = 0;
  let clientCpuSeconds = 0;
  let txs = 0;
  const fetchCpu0 = ownCpu();
  for (let from = 0; from <= top; from += cfg.batchSize) {
    const heights = Array.from({ length: Math.min(cfg.batchSize, top - from + 1) }, (_, i) => from + i);
    const started = performance.now();
    const cpuStarted = ownCpu();
    const gens = await fetchGenerations(node, heights, cfg.fetchConcurrency);
    clientCpuSeconds += ownCpu() - cpuStarted;
    fetchSeconds += (performance.now() - started) / 1000;
    const resolved = await resolveRows(noPriorState, gens.map(transformGeneration));
    txs += resolved.transactions.length;
    for (const spec of tables) {
      const lines = files.get(spec.table)!;
      for (const row of spec.rows(resolved))
        lines.push(spec.columns.map(([, type, value]) => copyText(type, value(row, numbers))).join('\t'));
    }
  }
  // the CPU of the whole loop (fetch, and the untimed transform and encoding) of devnode and client
  const fetchRate = {
    seconds: fetchSeconds,
    txPerSecond: txs / fetchSeconds,
    generationsPerSecond: (top + 1) / fetchSeconds,
    loopCpuSeconds: ownCpu() - fetchCpu0,
    /** the baseline client's CPU: fetching and parsing only (the devnode runs in its own process) */
    clientCpuSeconds,
  };
  console.log(
    `(a) fetch:     ${fetchRate.txPerSecond.toFixed(0)} tx/s, ${fetchRate.generationsPerSecond.toFixed(0)} generations/s (${txs} txs)`,
  );

  // (b) server-side COPY of the same rows into a migrated schema (same tables and indexes)
  await migrate({ databaseUrl: db.url, schema: 'copy_baseline' }, log);
  const pool = createPool({ databaseUrl: db.url, schema: 'copy_baseline', max: 1 }, log);
  let copySeconds = 0;
  const copyCpu0 = postgresCpu();
  for (const spec of tables) {
    const file = join(dir, `${spec.table}.tsv`);
    writeFileSync(file, files.get(spec.table)!.join('\n') + (files.get(spec.table)!.length ? '\n' : ''), {
      mode: 0o644,
    });
    const columns = spec.columns.map(([name]) => quoteIdent(name)).join(', ');
    const started = performance.now();
    await pool.query(`COPY ${quoteIdent(spec.table)} (${columns}) FROM '${file.replace(/'/g, "''")}'`);
    copySeconds += (performance.now() - started) / 1000;
  }
  await pool.end();
  files.clear();
  rmSync(dir, { recursive: true, force: true });
  const copyRate = {
    seconds: copySeconds,
    txPerSecond: txs / copySeconds,
    generationsPerSecond: (top + 1) / copySeconds,
    postgresCpuSeconds: postgresCpu() - copyCpu0,
  };
  console.log(
    `(b) COPY:      ${copyRate.txPerSecond.toFixed(0)} tx/s, ${copyRate.generationsPerSecond.toFixed(0)} generations/s`,
  );

  // (c) the populator, alone in a child process
  const flags = process.env.BENCH_POPULATOR_FLAGS?.split(' ').filter(Boolean) ?? [];
  const child = spawn(
    process.execPath,
    ['--expose-gc', ...flags, new URL('indexer.lib.populate.ts', import.meta.url).pathname],
    {
      env: {
        NODE_URL: devnode.url,
        DATABASE_URL: db.url,
        DATABASE_SCHEMA: 'populated',
        BENCH_TOP: String(top),
        LOG_LEVEL: 'warn',
        ...TUNING,
        // as the image sets it (Dockerfile): without it glibc's moving mmap threshold lets RSS creep up
        MALLOC_MMAP_THRESHOLD_: process.env.MALLOC_MMAP_THRESHOLD_ ?? '131072',
      },
      stdio: ['ignore', 'pipe', 'inherit'],
    },
  );
  const populateCpu0 = { postgres: postgresCpu(), devnode: processCpuSeconds(devnode.pid) };
  let out = '';
  child.stdout.on('data', (c: Buffer) => {
    out += c.toString();
  });
  const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
  if (code !== 0) throw new Error(`populator child exited with ${code}`);
  const cpuOfRun = {
    postgres: postgresCpu() - populateCpu0.postgres,
    devnode: processCpuSeconds(devnode.pid) - populateCpu0.devnode,
  };
  const populated = JSON.parse(out.trim().split('\n').at(-1)!) as {
    seconds: number;
    cpuSeconds: number;
    peakRssMiB: number;
    samples: { height: number; rssMiB: number; heapMiB: number }[];
  };
  const populateRate = {
    seconds: populated.seconds,
    cpuSeconds: populated.cpuSeconds,
    postgresCpuSeconds: cpuOfRun.postgres,
    devnodeCpuSeconds: cpuOfRun.devnode,
    txPerSecond: txs / populated.seconds,
    generationsPerSecond: (top + 1) / populated.seconds,
  };
  const quarter = (q: number): { rssMiB: number; heapMiB: number } | undefined => {
    const s = q === 4 ? populated.samples.at(-1) : populated.samples.find((x) => x.height >= (top * q) / 4);
    return s && { rssMiB: s.rssMiB, heapMiB: s.heapMiB };
  };
  // RSS and live heap (after a forced GC) at a quarter, half, three quarters and the end of the chain
  const rssAlongChain = { '25%': quarter(1), '50%': quarter(2), '75%': quarter(3), '100%': quarter(4) };
  const ratio = populateRate.txPerSecond / Math.min(fetchRate.txPerSecond, copyRate.txPerSecond);
  console.log(
    `(c) populator: ${populateRate.txPerSecond.toFixed(0)} tx/s, ${populateRate.generationsPerSecond.toFixed(0)} generations/s, peak RSS ${populated.peakRssMiB} MiB, CPU ${((100 * populated.cpuSeconds) / populated.seconds).toFixed(0)} % of one core`,
  );
  const perTx = (seconds: number): string => `${((1e6 * seconds) / txs).toFixed(0)} µs`;
  console.log(
    `CPU per tx: (a) baseline client ${perTx(fetchRate.clientCpuSeconds)} (fetch and parse; ${perTx(fetchRate.loopCpuSeconds)} with the untimed transform), (b) PostgreSQL ${perTx(copyRate.postgresCpuSeconds)}; (c) populator ${perTx(populateRate.cpuSeconds)}, PostgreSQL ${perTx(cpuOfRun.postgres)}, devnode ${perTx(cpuOfRun.devnode)}`,
  );
  // (b) as issue 15 sets it: the bare COPY of every row (c) left in the database, derived rows included
  const bareCopy = await bareCopyOf(db.url, 'populated', 'bare_copy', postgresCpu, log);
  console.log(
    `(b) bare COPY of (c)'s ${bareCopy.rows} rows in ${bareCopy.tables} tables: ${(txs / bareCopy.seconds).toFixed(0)} tx/s, PostgreSQL ${perTx(bareCopy.postgresCpuSeconds)} per tx (the chain's tables alone, as before: ${perTx(copyRate.postgresCpuSeconds)})`,
  );
  const cpuRatios = {
    populatorOverClient: populateRate.cpuSeconds / fetchRate.clientCpuSeconds,
    postgresOverBareCopy: cpuOfRun.postgres / bareCopy.postgresCpuSeconds,
    /** against the COPY of the chain's tables only (`TABLES`): the ratio earlier runs quoted */
    postgresOverCopy: cpuOfRun.postgres / copyRate.postgresCpuSeconds,
  };
  console.log(
    `CPU ratios (targets: ≤ 1.6 and ≤ 1.3): populator ÷ baseline client ${cpuRatios.populatorOverClient.toFixed(2)}, PostgreSQL in (c) ÷ bare COPY of its rows ${cpuRatios.postgresOverBareCopy.toFixed(2)} (÷ the chain tables' COPY, earlier runs' baseline: ${cpuRatios.postgresOverCopy.toFixed(2)})`,
  );
  console.log(
    `(c) ÷ min(a, b) = ${ratio.toFixed(2)}; RSS / live heap along the chain (MiB): ${JSON.stringify(rssAlongChain)}`,
  );
  // in (c) the populator, PostgreSQL and the devnode share the machine's cores: their CPU per transaction bounds (c)
  const cores = availableParallelism();
  const cpuPerTx = (populateRate.cpuSeconds + cpuOfRun.postgres + cpuOfRun.devnode) / txs;
  const coresBound = {
    cores,
    cpuMicrosPerTx: 1e6 * cpuPerTx,
    txPerSecond: cores / cpuPerTx,
    ratio: cores / cpuPerTx / Math.min(fetchRate.txPerSecond, copyRate.txPerSecond),
    used: (populateRate.txPerSecond * cpuPerTx) / cores,
  };
  console.log(
    `(c) on ${cores} cores: ${coresBound.cpuMicrosPerTx.toFixed(0)} µs of CPU per tx in all bound it to ${coresBound.txPerSecond.toFixed(0)} tx/s, ${coresBound.ratio.toFixed(2)} of min(a, b); the run kept ${(100 * coresBound.used).toFixed(0)} % of the cores busy`,
  );

  const size = await databaseSize(db.url, 'populated', txs);
  for (const l of sizeLines(size, txs)) console.log(l);

  const instructions = INSTRUCTIONS > 0 && valgrindAvailable() ? await instructionCounts(db.url) : undefined;
  if (INSTRUCTIONS > 0 && !instructions) console.log('instruction counts skipped: valgrind is not installed');

  const summary = {
    benchmark: 'indexer',
    date: new Date().toISOString(),
    command: 'node bench/indexer.ts',
    generations: top + 1,
    transactions: txs,
    batchSize: cfg.batchSize,
    batchTransactions: cfg.batchTransactions,
    fetchConcurrency: cfg.fetchConcurrency,
    note: 'test PostgreSQL (embedded, fsync=off, synchronous_commit=off); devnode in its own process; machine shared',
    fetch: fetchRate,
    copy: copyRate,
    bareCopy,
    populate: { ...populateRate, peakRssMiB: populated.peakRssMiB, rssAlongChain },
    ratio,
    coresBound,
    cpuRatios,
    database: size,
    instructions,
  };
  mkdirSync(new URL('results/', import.meta.url), { recursive: true });
  writeFileSync(new URL('results/indexer.json', import.meta.url), `${JSON.stringify(summary, null, 2)}\n`);
  await devnode.stop();
  await db.drop();
  await stopTestServer();
}

/** startDevnode runs `mdw devnode --generate` (2 micro blocks × 5 txs a generation) in its own process. */
const startDevnode = (generations = GENERATIONS): Promise<Child> =>
  startDevnodeProcess(['--generate', String(generations), '--seed', 'bench']);

/** onlyInstructions runs the instruction counts alone (BENCH_INDEXER_ONLY_INSTRUCTIONS=1): quick A/B of a change. */
async function onlyInstructions(): Promise<void> {
  if (!valgrindAvailable()) throw new Error('valgrind is not installed');
  const db = await createTestDatabase();
  try {
    const instructions = await instructionCounts(db.url);
    mkdirSync(new URL('results/', import.meta.url), { recursive: true });
    writeFileSync(
      new URL('results/indexer-instructions.json', import.meta.url),
      `${JSON.stringify({ benchmark: 'indexer', date: new Date().toISOString(), instructions }, null, 2)}\n`,
    );
  } finally {
    await db.drop();
    await stopTestServer();
  }
}

/**
 * instructionCounts measures the two CPU ratios' populator side in instructions, which no other job on the machine
 * changes: the baseline client (bench/indexer.lib.fetch.ts) and the populator (indexer.lib.populate.ts), each
 * alone in its process under valgrind, over chains of INSTRUCTIONS and twice as many generations (devnodes in
 * their own processes, not counted); each cost per transaction is the difference between the two lengths.
 */
async function instructionCounts(databaseUrl: string): Promise<{
  generations: readonly number[];
  transactions: readonly number[];
  client: readonly number[];
  populator: readonly number[];
  clientPerTx: number;
  populatorPerTx: number;
  populatorOverClient: number;
}> {
  const lengths = [INSTRUCTIONS, 2 * INSTRUCTIONS];
  const client: number[] = [];
  const populator: number[] = [];
  const transactions: number[] = [];
  for (const length of lengths) {
    const devnode = await startDevnode(length);
    try {
      const env = {
        ...TUNING,
        NODE_URL: devnode.url,
        DATABASE_URL: databaseUrl,
        DATABASE_SCHEMA: `instructions_${length}`,
        BENCH_TOP: String(length),
        LOG_LEVEL: 'warn',
        // valgrind slows the process down 30–100 times: no request may time out for it
        NODE_TIMEOUT_MS: '600000',
        BENCH_SAMPLE: '0',
        MALLOC_MMAP_THRESHOLD_: '131072',
        PATH: process.env.PATH,
      };
      const fetched = await countInstructions([new URL('indexer.lib.fetch.ts', import.meta.url).pathname], env);
      client.push(fetched.instructions);
      transactions.push((JSON.parse(fetched.report) as { transactions: number }).transactions);
      const populated = await countInstructions(
        ['--expose-gc', new URL('indexer.lib.populate.ts', import.meta.url).pathname],
        env,
      );
      populator.push(populated.instructions);
    } finally {
      await devnode.stop();
    }
  }
  const run = (counts: readonly number[], i: number): { count: number; units: number } => ({
    count: counts[i]!,
    units: transactions[i]!,
  });
  const clientPerTx = perUnit(run(client, 0), run(client, 1));
  const populatorPerTx = perUnit(run(populator, 0), run(populator, 1));
  const kilo = (n: number): string => `${(n / 1000).toFixed(0)}k`;
  console.log(
    `instructions per tx (valgrind, chains of ${lengths.join(' and ')} generations, ${transactions.join(' and ')} txs): ` +
      `baseline client ${kilo(clientPerTx)}, populator ${kilo(populatorPerTx)}; populator ÷ baseline client ` +
      `${(populatorPerTx / clientPerTx).toFixed(2)} (target ≤ 1.6)`,
  );
  return {
    generations: lengths,
    transactions,
    client,
    populator,
    clientPerTx,
    populatorPerTx,
    populatorOverClient: populatorPerTx / clientPerTx,
  };
}

await main();
