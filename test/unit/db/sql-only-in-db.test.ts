/**
 * @module The data-access rule: SQL statements and the `pg` import live under src/db/ only. Every
 * string literal and template of every other source file is read with TypeScript's own parser.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { expect } from 'chai';
import { sqlIn } from '../../support/sql-scan.ts';

const SRC = new URL('../../../src/', import.meta.url).pathname;

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? sourceFiles(join(dir, e.name)) : e.name.endsWith('.ts') ? [join(dir, e.name)] : [],
  );
}

describe('SQL and pg only under src/db/', () => {
  it('finds no SQL statement and no pg import in any other source file', () => {
    const offenders = sourceFiles(SRC)
      .filter((f) => !relative(SRC, f).startsWith('db/'))
      .flatMap((f) => sqlIn(f, readFileSync(f, 'utf8')).map((s) => `${relative(SRC, f)}: ${s.slice(0, 80)}`));
    expect(offenders).to.deep.equal([]);
  });

  it('recognises statements, locks, notifications and pg imports, and leaves prose alone', () => {
    const code = [
      "import pg from 'pg';",
      "const a = 'SELECT height FROM key_blocks WHERE height = $1';",
      'const b = `DELETE FROM ${table} WHERE height >= $1`;',
      "const c = 'SELECT pg_advisory_lock(hashtext($1))';",
      'const d = `LISTEN ${quoteIdent(channel)}`;',
      "const e = 'ISOLATION LEVEL REPEATABLE READ READ ONLY';",
      'const f = `INSERT INTO ${t} (${names}) SELECT ${sources} FROM unnest(x)`;',
      "const g = 'BEGIN';",
      "await import('pg');",
      // prose that mentions SQL words is not SQL
      "log.warn('database listen connection lost; reconnecting');",
      "const h = 'DELETED';",
      "const i = 'Select a schema to update';",
      "const j = 'LISTEN connection restored';",
    ].join('\n');
    expect(sqlIn('example.ts', code)).to.have.length(9);
  });
});
