/**
 * @module A migration's SQL, for a test that puts a loaded schema back as the release before left it and runs that
 * migration again on it: through the migrator it would be refused once a later migration is applied (a pending one
 * named below an applied one, src/db/schema/baseline.ts), which a real upgrade never meets.
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { MIGRATIONS_DIR } from '../../src/db/schema/migrator.ts';

/** migrationSql is the text of migrations/<name>.sql. */
export function migrationSql(name: string): Promise<string> {
  return readFile(join(MIGRATIONS_DIR, `${name}.sql`), 'utf8');
}
