/**
 * @module The bare COPY of everything a load left in the database: issue 15's baseline for PostgreSQL's CPU
 * per transaction in (c). Every table of the loaded schema, derived rows included (statistics, internal
 * transfers, tokens, name_state …), is written out (COPY text, as the populator sends it, to files: not timed) and COPYed into a fresh
 * schema migrated the same way (same tables, indexes and constraints), with the tables' own triggers dropped
 * (their rows are in the copy already); only PostgreSQL's CPU and the wall time of the COPYs in are counted.
 * Either all at once (each table filled from empty, one after another) or batch by batch as the populator wrote
 * them: each batch's rows of every table in one transaction, into tables that already hold the batches before it
 * (a row then goes into indexes that hold the chain so far, as in (c); the tables without a height go in with the
 * first batch).
 */
import { chmodSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import type { Logger } from '../src/base/log.ts';
import { migrate, STATE_TABLE } from '../src/db/schema/migrator.ts';
import { createPool, quoteIdent, type Pool } from '../src/db/connection/pool.ts';

export interface BareCopy {
  readonly tables: number;
  readonly rows: number;
  readonly seconds: number;
  readonly postgresCpuSeconds: number;
}

/** The application name of the connection that runs the COPYs in, batch by batch or all at once. */
export const bareCopyApplication = (batched: boolean): string => `mdw-bench-bare-copy-${batched ? 'batched' : 'whole'}`;

/** A batch of heights, lowest and highest. */
export type HeightRange = readonly [from: number, to: number];

/**
 * bareCopyOf copies every table of `from` into the fresh schema `to` (tables referenced by a foreign key
 * first), timing only the COPYs in; `postgresCpu` reads the server's CPU seconds. With `batches`, the rows go in
 * batch by batch (each in one transaction), every table's rows of a batch after those of the batch before.
 */
export async function bareCopyOf(
  databaseUrl: string,
  from: string,
  to: string,
  postgresCpu: () => number,
  log: Logger,
  batches?: readonly HeightRange[],
): Promise<BareCopy> {
  await migrate({ databaseUrl, schema: to }, log);
  const pool = createPool({ databaseUrl, schema: to, max: 1 }, log);
  // the server (another user) writes and reads the files
  const dir = mkdtempSync(join(tmpdir(), 'mdw-bench-bare-copy-'));
  chmodSync(dir, 0o777);
  try {
    const { rows: tables } = await pool.query<{ table: string; height: boolean }>(
      `SELECT c.relname AS table, EXISTS (SELECT 1 FROM pg_attribute a WHERE a.attrelid = c.oid AND a.attname = 'height'
                                             AND NOT a.attisdropped) AS height
         FROM pg_class c
        WHERE c.relnamespace = $1::regnamespace AND c.relkind = 'r' AND c.relname <> $2`,
      [from, STATE_TABLE],
    );
    const { rows: refs } = await pool.query<{ table: string; references: string }>(
      `SELECT c.conrelid::regclass::text AS table, c.confrelid::regclass::text AS references FROM pg_constraint c
        WHERE c.contype = 'f' AND c.connamespace = $1::regnamespace AND c.conrelid <> c.confrelid`,
      [to],
    );
    const order = referencedFirst(
      tables.map((t) => t.table),
      refs.map((r) => [unqualified(r.table), unqualified(r.references)] as const),
    );
    const withHeight = new Set(tables.filter((t) => t.height).map((t) => t.table));
    // each step is one transaction's COPYs in: every table, or one batch of every table
    const steps: { table: string; file: string }[][] = [];
    let rows = 0;
    const copyOut = async (table: string, file: string, range?: HeightRange): Promise<void> => {
      const source = range
        ? `(SELECT * FROM ${quoteIdent(from)}.${quoteIdent(table)} WHERE height BETWEEN ${range[0]} AND ${range[1]})`
        : `${quoteIdent(from)}.${quoteIdent(table)}`;
      rows += (await pool.query(`COPY ${source} TO '${file}'`)).rowCount ?? 0;
    };
    for (const [b, range] of (batches ?? [undefined]).entries()) {
      const step: { table: string; file: string }[] = [];
      for (const table of order) {
        if (range && !withHeight.has(table) && b > 0) continue;
        const file = join(dir, `${table}.${b}.tsv`);
        await copyOut(table, file, range && withHeight.has(table) ? range : undefined);
        step.push({ table, file });
      }
      steps.push(step);
    }
    // the tables' own triggers derive rows the copy holds already. Dropped (`to` is a scratch schema), not disabled:
    // PostgreSQL 17 still captures every row written into the transition tables (REFERENCING NEW TABLE) of a disabled
    // statement trigger, a cost no bare COPY pays. The internal triggers of the foreign keys stay, as in (c).
    const { rows: triggers } = await pool.query<{ table: string; trigger: string }>(
      `SELECT c.relname AS table, t.tgname AS trigger FROM pg_trigger t JOIN pg_class c ON c.oid = t.tgrelid
        WHERE c.relnamespace = $1::regnamespace AND NOT t.tgisinternal`,
      [to],
    );
    for (const { table, trigger } of triggers) {
      await pool.query(`DROP TRIGGER ${quoteIdent(trigger)} ON ${quoteIdent(table)}`);
    }
    // the migrations' own rows (if any) give way to the loaded schema's
    await pool.query(`TRUNCATE ${order.map(quoteIdent).join(', ')}`);
    await pool.query('CHECKPOINT');
    // the COPYs in on a connection of their own (bench/postgres-instructions.ts counts its backend alone)
    const copyPool = createPool(
      { databaseUrl, schema: to, max: 1, applicationName: bareCopyApplication(batches !== undefined) },
      log,
    );
    const { seconds, postgresCpuSeconds } = await copyIn(copyPool, steps, postgresCpu, batches !== undefined).finally(
      () => copyPool.end(),
    );
    return { tables: order.length, rows, seconds, postgresCpuSeconds };
  } finally {
    await pool.end();
    rmSync(dir, { recursive: true, force: true });
  }
}

/** copyIn runs the steps' COPYs in (each step in a transaction of its own when `transactions`), timed. */
async function copyIn(
  pool: Pool,
  steps: readonly (readonly { table: string; file: string }[])[],
  postgresCpu: () => number,
  transactions: boolean,
): Promise<{ seconds: number; postgresCpuSeconds: number }> {
  let seconds = 0;
  const cpu0 = postgresCpu();
  const client = await pool.connect();
  try {
    for (const step of steps) {
      const started = performance.now();
      if (transactions) await client.query('BEGIN');
      for (const { table, file } of step) await client.query(`COPY ${quoteIdent(table)} FROM '${file}'`);
      if (transactions) await client.query('COMMIT');
      seconds += (performance.now() - started) / 1000;
    }
  } finally {
    client.release();
  }
  return { seconds, postgresCpuSeconds: postgresCpu() - cpu0 };
}

/**
 * populatorBatches cuts heights 0..top as the populator's loader does: at most `batchSize` generations a batch,
 * and a batch stops taking generations once it holds `batchTransactions` transactions (`txCounts[h]`: height h's).
 */
export function populatorBatches(
  txCounts: readonly number[],
  batchSize: number,
  batchTransactions: number,
): HeightRange[] {
  const batches: HeightRange[] = [];
  let from = 0;
  let txs = 0;
  for (let h = 0; h < txCounts.length; h++) {
    txs += txCounts[h]!;
    if (h - from + 1 === batchSize || txs >= batchTransactions || h === txCounts.length - 1) {
      batches.push([from, h]);
      from = h + 1;
      txs = 0;
    }
  }
  return batches;
}

/** storedTxCounts reads the transactions per height 0..top of `schema`. */
export async function storedTxCounts(databaseUrl: string, schema: string, log: Logger): Promise<number[]> {
  const pool = createPool({ databaseUrl, schema, max: 1 }, log);
  try {
    const { rows } = await pool.query<{ height: number; n: number }>(
      'SELECT k.height, coalesce(sum(m.tx_count), 0)::int AS n FROM key_blocks k LEFT JOIN micro_blocks m USING (height) GROUP BY 1 ORDER BY 1',
    );
    const counts: number[] = [];
    for (const r of rows) counts[r.height] = r.n;
    return Array.from(counts, (n) => n ?? 0);
  } finally {
    await pool.end();
  }
}

const unqualified = (name: string): string => name.slice(name.lastIndexOf('.') + 1).replace(/^"|"$/g, '');

/** referencedFirst orders tables so that every table comes after the tables its foreign keys reference. */
export function referencedFirst(
  tables: readonly string[],
  references: readonly (readonly [table: string, referenced: string])[],
): string[] {
  const order: string[] = [];
  const placed = new Set<string>();
  const place = (table: string, path: Set<string>): void => {
    if (placed.has(table) || path.has(table)) return;
    path.add(table);
    for (const [t, r] of references) if (t === table && tables.includes(r)) place(r, path);
    placed.add(table);
    order.push(table);
  };
  for (const t of [...tables].sort()) place(t, new Set());
  return order;
}
