/**
 * @module PostgreSQL's instructions in (c) against the bare COPY of its rows (issue 15), counted by valgrind on the
 * server itself, which no other job on the machine changes: a PostgreSQL of its own runs every process under
 * cachegrind, each backend net of the postmaster's count (bench/postgres-count.lib.ts). The populator loads a devnode
 * chain into a migrated schema, then the bare COPY of every row it left goes into fresh schemas, batch by batch into the growing tables as (c) wrote them and all at once
 * (bench/bare-copy.lib.ts). Each side's count is the sum over its backends, told apart by their application names in
 * the server's connection log: the populator's, and the one connection that runs the COPYs in.
 *
 *   node bench/postgres-instructions.ts   (BENCH_PG_INSTRUCTIONS_GENERATIONS=2000; needs valgrind; a few minutes)
 *
 * BENCH_PG_INSTRUCTIONS_DROP=trigger@table,… drops those triggers of the migrated schema before the load: what (c) loses
 * is what they cost, with the work they would have caused (the rows they write, the indexes built on them at the top).
 */
import { spawn } from 'node:child_process';
import pg from 'pg';
import pino from 'pino';
import { loadConfig } from '../src/config/middleware.ts';
import { quoteIdent } from '../src/db/connection/pool.ts';
import { migrate } from '../src/db/schema/migrator.ts';
import { bareCopyApplication, bareCopyOf, populatorBatches, storedTxCounts } from './bare-copy.lib.ts';
import { nodeFilesArgs, startDevnodeProcess } from './http.lib.ts';
import { valgrindAvailable } from './instructions.lib.ts';
import { createDatabase, startCountedServer } from './postgres-count.lib.ts';
import { writeResult } from './results.lib.ts';

const GENERATIONS = Number(process.env.BENCH_PG_INSTRUCTIONS_GENERATIONS ?? 2000);
const POPULATOR_APPLICATION = 'mdw-populator';
const log = pino({ level: 'warn' });

async function main(): Promise<void> {
  if (!valgrindAvailable()) {
    console.log('PostgreSQL instruction counts skipped: valgrind is not installed');
    return;
  }
  const server = await startCountedServer();
  const databaseUrl = await createDatabase(server, 'chain');
  // the schema migrated beforehand: the populator's backends then count the load alone
  await migrate({ databaseUrl, schema: 'populated' }, log);
  await dropTriggers(databaseUrl, process.env.BENCH_PG_INSTRUCTIONS_DROP);
  const devnode = await startDevnodeProcess(['--generate', String(GENERATIONS), '--seed', 'bench', ...nodeFilesArgs()]);
  try {
    const child = spawn(
      process.execPath,
      ['--expose-gc', new URL('indexer.lib.populate.ts', import.meta.url).pathname],
      {
        env: {
          PATH: process.env.PATH,
          // configured as a deployment on the devnode's chain (its reward rules and genesis accounts, DevnodeChild)
          ...devnode.deployment,
          NODE_URL: devnode.url,
          DATABASE_URL: databaseUrl,
          DATABASE_SCHEMA: 'populated',
          BENCH_TOP: String(GENERATIONS),
          LOG_LEVEL: 'warn',
          BENCH_SAMPLE: '0',
          // the server runs 30-100 times slower under valgrind
          NODE_TIMEOUT_MS: '600000',
          MALLOC_MMAP_THRESHOLD_: '131072',
        },
        stdio: ['ignore', 'ignore', 'inherit'],
      },
    );
    const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
    if (code !== 0) throw new Error(`populator child exited with ${code}`);
  } finally {
    await devnode.stop();
  }
  const cfg = loadConfig({ NODE_URL: 'http://unused', DATABASE_URL: databaseUrl });
  const txCounts = await storedTxCounts(databaseUrl, 'populated', log);
  const txs = txCounts.reduce((a, b) => a + b, 0);
  const batches = populatorBatches(txCounts, cfg.batchSize, cfg.batchTransactions);
  const noCpu = (): number => 0;
  await bareCopyOf(databaseUrl, 'populated', 'bare_batched', noCpu, log, batches);
  await bareCopyOf(databaseUrl, 'populated', 'bare_whole', noCpu, log);
  const counts = await server.stop();
  const populator = counts.get(POPULATOR_APPLICATION) ?? 0;
  const batched = counts.get(bareCopyApplication(true)) ?? 0;
  const whole = counts.get(bareCopyApplication(false)) ?? 0;
  const m = (n: number): string => `${(n / 1e6).toFixed(0)} M`;
  const k = (n: number): string => `${(n / txs / 1000).toFixed(0)}k`;
  console.log(
    `PostgreSQL instructions (valgrind, ${GENERATIONS + 1} generations, ${txs} txs, ${batches.length} batches): ` +
      `(c) ${m(populator)} (${k(populator)} per tx); the bare COPY of its rows in its batches ${m(batched)} ` +
      `(${k(batched)}), all at once ${m(whole)} (${k(whole)}); (c) ÷ bare COPY in batches ` +
      `${(populator / batched).toFixed(2)} (target ≤ 1.3; ÷ all at once ${(populator / whole).toFixed(2)})`,
  );
  writeResult('postgres-instructions', {
    benchmark: 'postgres-instructions',
    date: new Date().toISOString(),
    command: 'node bench/postgres-instructions.ts',
    generations: GENERATIONS + 1,
    transactions: txs,
    batches: batches.length,
    instructions: { populator, bareCopyBatched: batched, bareCopyWhole: whole, ...Object.fromEntries(counts) },
    ratios: { overBatched: populator / batched, overWhole: populator / whole },
  });
}

/** dropTriggers drops the `trigger@table` pairs of the comma-separated `list` in the populated schema. */
async function dropTriggers(databaseUrl: string, list: string | undefined): Promise<void> {
  if (!list) return;
  const client = new pg.Client({ connectionString: databaseUrl, application_name: 'mdw-bench-setup' });
  await client.connect();
  try {
    for (const pair of list.split(',')) {
      const [trigger, table] = pair.split('@');
      await client.query(`DROP TRIGGER ${quoteIdent(trigger!)} ON populated.${quoteIdent(table!)}`);
    }
  } finally {
    await client.end();
  }
}

await main();
