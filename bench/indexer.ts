/**
 * @module Indexer benchmark, three rates over the same devnode chain in one run:
 * (a) fetch: everything the populator fetches from the devnode (lossless parse, nothing written);
 * (b) COPY: PostgreSQL bulk-loading the same rows (server-side COPY into the same indexed tables);
 * (c) populator end to end (own process: fetch, decode, transform, one COPY per table per batch, commits).
 * Reports tx/s, generations/s, (c) ÷ min(a, b), the bound the cores put on (c) (the three parties'
 * CPU per transaction on the machine's cores), the populator's RSS along the chain, and the CPU ratios of
 * issue 15: the populator's CPU per tx ÷ the baseline client's (the same client code fetching and parsing the
 * same chain in (a), the devnode in its own process), and PostgreSQL's CPU per tx in (c) ÷ its bare COPY of every
 * row (c) stored in (c)'s batches, into the growing tables (bench/bare-copy.lib.ts, after (c)), with the ratios to
 * the same COPY all at once and to (b) (the chain's tables alone) beside it.
 *
 *   node bench/indexer.ts   (BENCH_INDEXER_GENERATIONS=20000, 2 micro blocks × 5 txs per generation;
 *                            BATCH_SIZE, BATCH_TRANSACTIONS and FETCH_CONCURRENCY tune the populator (and the fetch of (a));
 *                            BENCH_POPULATOR_FLAGS="--cpu-prof" adds Node flags to the populator's process (its
 *                            instruction counts too, e.g. "--max-semi-space-size=8");
 *                            BENCH_INDEXER_INSTRUCTIONS=500: the instruction counts' shorter chain, 0 skips them;
 *                            BENCH_INDEXER_ONLY_INSTRUCTIONS=1 runs the instruction counts alone)
 */
import { spawn } from 'node:child_process';
import { chmodSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { availableParallelism, tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import pino from 'pino';
import { loadConfig } from '../src/config/middleware.ts';
import { migrate } from '../src/db/schema/migrator.ts';
import { createPool, quoteIdent } from '../src/db/connection/pool.ts';
import { NodeClient } from '../src/node/client.ts';
import { fetchGenerations } from '../src/indexer/sync/fetch.ts';
import { transformGeneration } from '../src/indexer/rows/transform.ts';
import type { FetchedGeneration } from '../src/indexer/rows/rows.ts';
import { resolveRows } from '../src/indexer/rows/writer.ts';
import { TABLES } from '../src/indexer/rows/tables.ts';
import { copyText } from '../src/db/writes/copy-in.ts';
import { idKey, txTypeCode } from '../src/chain/id-key.ts';
import { createTestDatabase, stopTestServer } from '../test/support/postgres.ts';
import { databaseSize, sizeLines } from './db-size.lib.ts';
import { nodeFilesArgs, startDevnodeProcess, type DevnodeChild } from './http.lib.ts';
import { countInstructions, perUnit, valgrindAvailable } from './instructions.lib.ts';
import { postgresCpuReader, processCpuSeconds } from './process-cpu.lib.ts';
import { bareCopyOf, populatorBatches, storedTxCounts } from './bare-copy.lib.ts';
import { writeResult } from './results.lib.ts';

const GENERATIONS = Number(process.env.BENCH_INDEXER_GENERATIONS ?? 20_000);
/** Node flags of the populator's process, in (c) and in the instruction counts */
const POPULATOR_FLAGS = process.env.BENCH_POPULATOR_FLAGS?.split(' ').filter(Boolean) ?? [];
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
/** (b)'s COPY: each table's main rows (not the few reached through names), one file per table */
const COPY_TABLES = TABLES.filter((t, i) => TABLES.findIndex((u) => u.table === t.table) === i);
/** the process that sends (b)'s COPY through a socket (the client side of the bare COPY) */
const COPY_SENDER = new URL('indexer.lib.copy-send.ts', import.meta.url).pathname;
const NO_PRIOR_STATE = { query: async () => ({ rows: [] }) } as never;
/** the ids' numbers (account_transactions) as the populator gives them: 8 × n + the key's tag, in order of appearance */
const ID_NUMBERS = new Map<string, number>();
const NUMBERS = {
  number: (id: string): number => {
    let num = ID_NUMBERS.get(id);
    if (num === undefined) ID_NUMBERS.set(id, (num = 8 * (ID_NUMBERS.size + 1) + idKey(id)[0]!));
    return num;
  },
  // a generated chain holds only the types the code knows
  typeCode: txTypeCode,
};

/** appendCopyLines adds the COPY text lines of (b)'s rows of these generations to `files`; returns their transactions. */
async function appendCopyLines(files: Map<string, string[]>, gens: FetchedGeneration[]): Promise<number> {
  const resolved = await resolveRows(NO_PRIOR_STATE, gens.map(transformGeneration));
  for (const spec of COPY_TABLES) {
    const lines = files.get(spec.table)!;
    for (const row of spec.rows(resolved))
      lines.push(spec.columns.map(([, type, value]) => copyText(type, value(row, NUMBERS))).join('\t'));
  }
  return resolved.transactions.length;
}

/** writeCopyFiles writes each table's lines to `<dir>/<table>.tsv` and their list (table, columns, file) to a manifest, whose path it returns. */
function writeCopyFiles(files: Map<string, string[]>, dir: string): string {
  const manifest = COPY_TABLES.map((spec) => {
    const file = join(dir, `${spec.table}.tsv`);
    const lines = files.get(spec.table)!;
    writeFileSync(file, lines.join('\n') + (lines.length ? '\n' : ''), { mode: 0o644 });
    return { table: spec.table, columns: spec.columns.map(([name]) => name), file };
  });
  const path = join(dir, 'manifest.json');
  writeFileSync(path, JSON.stringify(manifest));
  return path;
}

/** runChild runs `node <args>` with `env` (and PATH) and resolves with its last stdout line. */
async function runChild(args: readonly string[], env: NodeJS.ProcessEnv): Promise<string> {
  const child = spawn(process.execPath, args, {
    env: { PATH: process.env.PATH, ...env },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  let out = '';
  child.stdout.on('data', (c: Buffer) => (out += c.toString()));
  const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
  if (code !== 0) throw new Error(`node ${args.join(' ')} exited with ${code}`);
  return out.trim().split('\n').at(-1) ?? '';
}

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
    ...devnode.deployment,
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
  const files = new Map(COPY_TABLES.map((t) => [t.table, [] as string[]]));
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
    txs += await appendCopyLines(files, gens);
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
  const manifest = writeCopyFiles(files, dir);
  for (const spec of COPY_TABLES) {
    const file = join(dir, `${spec.table}.tsv`);
    const columns = spec.columns.map(([name]) => quoteIdent(name)).join(', ');
    const started = performance.now();
    await pool.query(`COPY ${quoteIdent(spec.table)} (${columns}) FROM '${file.replace(/'/g, "''")}'`);
    copySeconds += (performance.now() - started) / 1000;
  }
  await pool.end();
  files.clear();
  const copyRate = {
    seconds: copySeconds,
    txPerSecond: txs / copySeconds,
    generationsPerSecond: (top + 1) / copySeconds,
    postgresCpuSeconds: postgresCpu() - copyCpu0,
  };
  console.log(
    `(b) COPY:      ${copyRate.txPerSecond.toFixed(0)} tx/s, ${copyRate.generationsPerSecond.toFixed(0)} generations/s`,
  );
  // (b)'s client side: the same rows sent through a socket by a process of their own, as the populator sends them
  await migrate({ databaseUrl: db.url, schema: 'copy_sent' }, log);
  const sendCpu0 = postgresCpu();
  const sent = JSON.parse(
    await runChild([COPY_SENDER], {
      DATABASE_URL: db.url,
      DATABASE_SCHEMA: 'copy_sent',
      BENCH_COPY_MANIFEST: manifest,
    }),
  ) as { cpuSeconds: number; seconds: number; bytes: number };
  const copySender = { ...sent, postgresCpuSeconds: postgresCpu() - sendCpu0 };
  rmSync(dir, { recursive: true, force: true });

  // (c) the populator, alone in a child process
  const child = spawn(
    process.execPath,
    ['--expose-gc', ...POPULATOR_FLAGS, new URL('indexer.lib.populate.ts', import.meta.url).pathname],
    {
      env: {
        ...devnode.deployment,
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
  // (b) as issue 15 sets it: the bare COPY of every row (c) left in the database, derived rows included, batch by
  // batch as (c) wrote them (into tables holding the batches before: what (c)'s COPYs cannot avoid), and all at once
  const batches = populatorBatches(
    await storedTxCounts(db.url, 'populated', log),
    cfg.batchSize,
    cfg.batchTransactions,
  );
  const bareBatched = await bareCopyOf(db.url, 'populated', 'bare_batched', postgresCpu, log, batches);
  const bareCopy = await bareCopyOf(db.url, 'populated', 'bare_copy', postgresCpu, log);
  console.log(
    `(b) bare COPY of (c)'s ${bareCopy.rows} rows in ${bareCopy.tables} tables, in (c)'s ${batches.length} batches into the growing tables: ${(txs / bareBatched.seconds).toFixed(0)} tx/s, PostgreSQL ${perTx(bareBatched.postgresCpuSeconds)} per tx; all at once: ${(txs / bareCopy.seconds).toFixed(0)} tx/s, PostgreSQL ${perTx(bareCopy.postgresCpuSeconds)} per tx (the chain's tables alone, as before: ${perTx(copyRate.postgresCpuSeconds)})`,
  );
  const cpuRatios = {
    populatorOverClient: populateRate.cpuSeconds / fetchRate.clientCpuSeconds,
    /** against the bare COPY of its rows in its batches: issue 15's ratio since session 8 */
    postgresOverBatchedBareCopy: cpuOfRun.postgres / bareBatched.postgresCpuSeconds,
    /** against the bare COPY of its rows all at once (session 7's baseline) */
    postgresOverBareCopy: cpuOfRun.postgres / bareCopy.postgresCpuSeconds,
    /** against the COPY of the chain's tables only (`TABLES`): the ratio earlier runs quoted */
    postgresOverCopy: cpuOfRun.postgres / copyRate.postgresCpuSeconds,
  };
  console.log(
    `CPU ratios (targets: ≤ 1.6 and ≤ 1.3): populator ÷ baseline client ${cpuRatios.populatorOverClient.toFixed(2)}, PostgreSQL in (c) ÷ bare COPY of its rows in its batches ${cpuRatios.postgresOverBatchedBareCopy.toFixed(2)} (÷ all at once, session 7's baseline: ${cpuRatios.postgresOverBareCopy.toFixed(2)}; ÷ the chain tables' COPY, earlier runs' baseline: ${cpuRatios.postgresOverCopy.toFixed(2)})`,
  );
  // the bytes the populator must hand to PostgreSQL are part of the bare COPY: the baseline is then client + sender
  const withSender = {
    senderCpuSeconds: copySender.cpuSeconds,
    bytesPerTx: copySender.bytes / txs,
    postgresCpuSeconds: copySender.postgresCpuSeconds,
    populatorOverClientAndSender: populateRate.cpuSeconds / (fetchRate.clientCpuSeconds + copySender.cpuSeconds),
  };
  console.log(
    `(b)'s COPY sent through a socket by its own process: ${withSender.bytesPerTx.toFixed(0)} bytes per tx, sender ${perTx(copySender.cpuSeconds)} of CPU per tx (PostgreSQL receiving ${perTx(copySender.postgresCpuSeconds)}); populator ÷ (baseline client + COPY sender) = ${perTx(populateRate.cpuSeconds)} ÷ (${perTx(fetchRate.clientCpuSeconds)} + ${perTx(copySender.cpuSeconds)}) = ${withSender.populatorOverClientAndSender.toFixed(2)}`,
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
    bareBatched: { ...bareBatched, batches: batches.length },
    populate: { ...populateRate, peakRssMiB: populated.peakRssMiB, rssAlongChain },
    ratio,
    coresBound,
    cpuRatios,
    copySender: withSender,
    database: size,
    instructions,
  };
  writeResult('indexer', summary);
  await devnode.stop();
  await db.drop();
  await stopTestServer();
}

/**
 * startDevnode runs `mdw devnode --generate` (2 micro blocks × 5 txs a generation) in its own process; its
 * `deployment` configures the populator for its chain.
 */
const startDevnode = (generations = GENERATIONS): Promise<DevnodeChild> =>
  startDevnodeProcess(['--generate', String(generations), '--seed', 'bench', ...nodeFilesArgs()]);

/** onlyInstructions runs the instruction counts alone (BENCH_INDEXER_ONLY_INSTRUCTIONS=1): quick A/B of a change. */
async function onlyInstructions(): Promise<void> {
  if (!valgrindAvailable()) throw new Error('valgrind is not installed');
  const db = await createTestDatabase();
  try {
    const instructions = await instructionCounts(db.url);
    writeResult('indexer-instructions', { benchmark: 'indexer', date: new Date().toISOString(), instructions });
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
  sender: readonly number[];
  clientPerTx: number;
  senderPerTx: number;
  populatorPerTx: number;
  populatorOverClient: number;
  populatorOverClientAndSender: number;
}> {
  const lengths = [INSTRUCTIONS, 2 * INSTRUCTIONS];
  const client: number[] = [];
  const populator: number[] = [];
  const sender: number[] = [];
  const transactions: number[] = [];
  for (const length of lengths) {
    const devnode = await startDevnode(length);
    try {
      const env = {
        ...TUNING,
        ...devnode.deployment,
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
        ['--expose-gc', ...POPULATOR_FLAGS, new URL('indexer.lib.populate.ts', import.meta.url).pathname],
        env,
      );
      populator.push(populated.instructions);
      sender.push(await countSender(devnode.url, length, databaseUrl, env));
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
  const senderPerTx = perUnit(run(sender, 0), run(sender, 1));
  const kilo = (n: number): string => `${(n / 1000).toFixed(0)}k`;
  console.log(
    `instructions per tx (valgrind, chains of ${lengths.join(' and ')} generations, ${transactions.join(' and ')} txs): ` +
      `baseline client ${kilo(clientPerTx)}, COPY sender ${kilo(senderPerTx)}, populator ${kilo(populatorPerTx)}; ` +
      `populator ÷ baseline client ${(populatorPerTx / clientPerTx).toFixed(2)} (target ≤ 1.6); populator ÷ (client + ` +
      `sender) = ${kilo(populatorPerTx)} ÷ (${kilo(clientPerTx)} + ${kilo(senderPerTx)}) = ` +
      `${(populatorPerTx / (clientPerTx + senderPerTx)).toFixed(2)}`,
  );
  return {
    generations: lengths,
    transactions,
    client,
    sender,
    populator,
    clientPerTx,
    senderPerTx,
    populatorPerTx,
    populatorOverClient: populatorPerTx / clientPerTx,
    populatorOverClientAndSender: populatorPerTx / (clientPerTx + senderPerTx),
  };
}

/**
 * countSender counts the instructions of the process that sends (b)'s COPY of the chain up to `top` (the COPY text
 * made here as (a) makes it, not counted) into a fresh schema.
 */
async function countSender(nodeUrl: string, top: number, databaseUrl: string, env: NodeJS.ProcessEnv): Promise<number> {
  const cfg = loadConfig({ ...TUNING, NODE_URL: nodeUrl, DATABASE_URL: databaseUrl });
  const node = new NodeClient({ url: nodeUrl, timeoutMs: cfg.nodeTimeoutMs }, log);
  const files = new Map(COPY_TABLES.map((t) => [t.table, [] as string[]]));
  for (let from = 0; from <= top; from += cfg.batchSize) {
    const heights = Array.from({ length: Math.min(cfg.batchSize, top - from + 1) }, (_, i) => from + i);
    await appendCopyLines(files, await fetchGenerations(node, heights, cfg.fetchConcurrency));
  }
  const dir = mkdtempSync(join(tmpdir(), 'mdw-bench-copy-'));
  try {
    const schema = `copy_sent_${top}`;
    await migrate({ databaseUrl, schema }, log);
    const manifest = writeCopyFiles(files, dir);
    return (await countInstructions([COPY_SENDER], { ...env, DATABASE_SCHEMA: schema, BENCH_COPY_MANIFEST: manifest }))
      .instructions;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

await main();
