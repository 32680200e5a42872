/**
 * @module Child process of bench/indexer.ts: the client side of (b)'s COPY, alone in its process. The bytes the
 * populator must hand to PostgreSQL through a socket (the COPY text of the chain's rows, which bench/indexer.ts
 * wrote to files for (b)) are part of the bare COPY, not the populator's own work: this process reads them
 * (BENCH_COPY_MANIFEST: a JSON list of table, columns and file) and sends them as the populator does (one
 * `COPY … FROM STDIN` per table over node-postgres, in db/writes/copy-in.ts `CopyPayloads`'s payloads) into DATABASE_SCHEMA.
 * Prints one JSON line: the CPU seconds of the sends alone (files read and cut before), their wall seconds, bytes.
 */
import { readFileSync } from 'node:fs';
import { performance } from 'node:perf_hooks';
import pino from 'pino';
import { createPool } from '../src/db/connection/pool.ts';
import { CopyPayloads } from '../src/db/writes/copy-in.ts';
import { copyMany } from '../src/db/writes/bulk-load.ts';

interface CopyFile {
  readonly table: string;
  readonly columns: readonly string[];
  readonly file: string;
}

const files = JSON.parse(readFileSync(process.env.BENCH_COPY_MANIFEST!, 'utf8')) as CopyFile[];
/** chunksOf cuts a file's COPY lines (newlines inside values are escaped) as the populator's writer cuts its rows. */
function chunksOf(file: string): Buffer[] {
  const out = new CopyPayloads();
  for (const line of readFileSync(file, 'utf8').split('\n').slice(0, -1)) out.line(line);
  return out.payloads();
}
const payloads = files.map((f) => ({ ...f, chunks: chunksOf(f.file) }));
const bytes = payloads.reduce((sum, p) => sum + p.chunks.reduce((s, c) => s + c.length, 0), 0);
const pool = createPool(
  { databaseUrl: process.env.DATABASE_URL!, schema: process.env.DATABASE_SCHEMA!, max: 1 },
  pino({ level: 'warn' }),
);
const client = await pool.connect();
const cpu0 = process.cpuUsage();
const started = performance.now();
for (const p of payloads) await copyMany(client, p.table, p.columns, p.chunks);
const seconds = (performance.now() - started) / 1000;
const cpu = process.cpuUsage(cpu0);
client.release();
await pool.end();
process.stdout.write(`${JSON.stringify({ cpuSeconds: (cpu.user + cpu.system) / 1e6, seconds, bytes })}\n`);
