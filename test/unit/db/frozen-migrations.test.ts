/**
 * @module Migrations that stored databases have applied are never edited: the migrator runs each
 * once per database, so an edit would reach fresh databases only and leave the others silently
 * different. migrations/frozen.sha256 (sha256sum's format) lists them from the 0.1.0 baseline on; a change is a
 * new migration. The files from before the release stay as they were applied too
 * (test/fixtures/migrations-0.0/, which prove the baseline equal to them).
 */
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect } from 'chai';
import { BASELINE } from '../../../src/db/schema/baseline.ts';
import { MIGRATIONS_DIR } from '../../../src/db/schema/migrator.ts';

const BEFORE_RELEASE = fileURLToPath(new URL('../../fixtures/migrations-0.0/', import.meta.url));

function frozen(dir: string): Array<{ file: string; sha256: string }> {
  return readFileSync(join(dir, 'frozen.sha256'), 'utf8')
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => {
      const [, sha256 = '', file = ''] = /^([0-9a-f]{64}) [ *](\S+)$/.exec(line) ?? [];
      return { file, sha256 };
    });
}

/** the files of `dir`'s list whose bytes are no longer those listed */
function changed(dir: string): string[] {
  return frozen(dir)
    .filter(
      ({ file, sha256 }) =>
        createHash('sha256')
          .update(readFileSync(join(dir, file)))
          .digest('hex') !== sha256,
    )
    .map((m) => m.file);
}

describe('frozen migrations', () => {
  it('lists migrations that exist, each still byte for byte as it was applied', () => {
    expect(frozen(MIGRATIONS_DIR).map((m) => m.file)).to.include.members(BASELINE.map((name) => `${name}.sql`));
    expect(changed(MIGRATIONS_DIR), 'edit a new migration instead').to.deep.equal([]);
  });

  it('keeps the files from before 0.1.0 as they were applied, every one listed', () => {
    const files = readdirSync(BEFORE_RELEASE).filter((f) => f.endsWith('.sql'));
    expect(files).to.have.length(46);
    expect(frozen(BEFORE_RELEASE).map((m) => m.file)).to.have.members(files);
    expect(changed(BEFORE_RELEASE)).to.deep.equal([]);
  });
});
