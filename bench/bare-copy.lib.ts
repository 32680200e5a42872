/**
 * @module The bare COPY of everything a load left in the database: issue 15's baseline for PostgreSQL's CPU
 * per transaction in (c). Every table of the loaded schema, derived rows included (statistics, internal
 * transfers, tokens, name_state …), is written out (COPY text, as the populator sends it, to files: not timed) and COPYed into a fresh
 * schema migrated the same way (same tables, indexes and constraints), with the tables' own triggers disabled
 * (their rows are in the copy already); only PostgreSQL's CPU and the wall time of the COPYs in are counted.
 */
import { chmodSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import type { Logger } from '../src/log.ts';
import { migrate, STATE_TABLE } from '../src/db/migrator.ts';
import { createPool, quoteIdent } from '../src/db/pool.ts';

export interface BareCopy {
  readonly tables: number;
  readonly rows: number;
  readonly seconds: number;
  readonly postgresCpuSeconds: number;
}

/**
 * bareCopyOf copies every table of `from` into the fresh schema `to` (tables referenced by a foreign key
 * first), timing only the COPYs in; `postgresCpu` reads the server's CPU seconds.
 */
export async function bareCopyOf(
  databaseUrl: string,
  from: string,
  to: string,
  postgresCpu: () => number,
  log: Logger,
): Promise<BareCopy> {
  await migrate({ databaseUrl, schema: to }, log);
  const pool = createPool({ databaseUrl, schema: to, max: 1 }, log);
  // the server (another user) writes and reads the files
  const dir = mkdtempSync(join(tmpdir(), 'mdw-bench-bare-copy-'));
  chmodSync(dir, 0o777);
  try {
    const { rows: tables } = await pool.query<{ table: string }>(
      `SELECT c.relname AS table FROM pg_class c
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
    const file = (table: string): string => join(dir, `${table}.tsv`);
    let rows = 0;
    for (const table of order) {
      const out = await pool.query(`COPY ${quoteIdent(from)}.${quoteIdent(table)} TO '${file(table)}'`);
      rows += out.rowCount ?? 0;
      await pool.query(`ALTER TABLE ${quoteIdent(table)} DISABLE TRIGGER USER`);
    }
    // the migrations' own rows (if any) give way to the loaded schema's
    await pool.query(`TRUNCATE ${order.map(quoteIdent).join(', ')}`);
    await pool.query('CHECKPOINT');
    let seconds = 0;
    const cpu0 = postgresCpu();
    for (const table of order) {
      const started = performance.now();
      await pool.query(`COPY ${quoteIdent(table)} FROM '${file(table)}'`);
      seconds += (performance.now() - started) / 1000;
    }
    const postgresCpuSeconds = postgresCpu() - cpu0;
    for (const table of order) await pool.query(`ALTER TABLE ${quoteIdent(table)} ENABLE TRIGGER USER`);
    return { tables: order.length, rows, seconds, postgresCpuSeconds };
  } finally {
    await pool.end();
    rmSync(dir, { recursive: true, force: true });
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
