/**
 * @module Migrations that stored databases have applied are never edited: the migrator runs each
 * once per database, so an edit would reach fresh databases only and leave the others silently
 * different. migrations/frozen.sha256 (sha256sum's format) lists them; a change is a new migration.
 */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect } from 'chai';
import { MIGRATIONS_DIR } from '../../../src/db/migrator.ts';

function frozen(): Array<{ file: string; sha256: string }> {
  return readFileSync(join(MIGRATIONS_DIR, 'frozen.sha256'), 'utf8')
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => {
      const [, sha256 = '', file = ''] = /^([0-9a-f]{64}) [ *](\S+)$/.exec(line) ?? [];
      return { file, sha256 };
    });
}

describe('frozen migrations', () => {
  it('lists migrations that exist, each still byte for byte as it was applied', () => {
    const list = frozen();
    expect(list.length).to.be.greaterThan(30);
    const changed = list.filter(
      ({ file, sha256 }) =>
        createHash('sha256')
          .update(readFileSync(join(MIGRATIONS_DIR, file)))
          .digest('hex') !== sha256,
    );
    expect(
      changed.map((m) => m.file),
      'edit a new migration instead',
    ).to.deep.equal([]);
  });
});
