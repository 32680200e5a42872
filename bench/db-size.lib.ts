/**
 * @module Where a populated schema's bytes go, per transaction: every table with its TOAST and each of its
 * indexes (pg_total_relation_size sums them). Used by bench/indexer.ts (devnode chain) and bench/sync.ts
 * (mainnet-like chain).
 */
import { schemaSizes, type RelationSize } from '../src/db/schema/admin.ts';

export interface DatabaseSize {
  readonly bytes: number;
  readonly bytesPerTx: number;
  readonly tables: readonly RelationSize[];
}

/** databaseSize measures `schema` after a load of `transactions` transactions. */
export async function databaseSize(databaseUrl: string, schema: string, transactions: number): Promise<DatabaseSize> {
  const tables = await schemaSizes(databaseUrl, schema);
  const bytes = tables.reduce((sum, t) => sum + t.totalBytes, 0);
  return { bytes, bytesPerTx: bytes / transactions, tables };
}

/**
 * sizeLines are the lines that print it: the total, then each table over 1 % of it (and each of `always`), bytes per
 * transaction, then the other tables together.
 */
export function sizeLines(size: DatabaseSize, transactions: number, always: readonly string[] = []): string[] {
  const per = (bytes: number): string => (bytes / transactions).toFixed(0);
  const shown = size.tables.filter((t) => t.totalBytes >= size.bytes / 100 || always.includes(t.table));
  const rest = size.tables.filter((t) => !shown.includes(t));
  return [
    `database: ${per(size.bytes)} bytes/tx, tables and indexes (${(size.bytes / 2 ** 20).toFixed(1)} MiB, target ≤ 1536)`,
    ...shown.map(
      (t) =>
        `  ${t.table} (${t.rows} rows): ${per(t.totalBytes)} = table ${per(t.tableBytes)}` +
        t.indexes.map((i) => ` + ${i.name} ${per(i.bytes)}`).join(''),
    ),
    `  ${rest.length} other tables: ${per(rest.reduce((sum, t) => sum + t.totalBytes, 0))}`,
  ];
}
