/**
 * @module The read model's rules over src/db, read with TypeScript's own parser: every exported name is defined
 * once (two `transactionByHash` of two shapes, one for each API, had callers importing the wrong one by path), and
 * the statements that write (INSERT, UPDATE, DELETE, COPY) sit in src/db/writes/, not among the readers in queries/.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { expect } from 'chai';
import { exportedNames, namesDefinedTwice, type ExportedName } from '../../support/exported-names.ts';
import { sqlIn } from '../../support/sql-scan.ts';

const DB = new URL('../../../src/db/', import.meta.url).pathname;
const WRITE = /^\s*(?:INSERT\s+INTO|UPDATE\s+\S+\s+SET|DELETE\s+FROM|COPY)\s/;

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? sourceFiles(join(dir, e.name)) : e.name.endsWith('.ts') ? [join(dir, e.name)] : [],
  );
}

describe('the read model in src/db', () => {
  it('defines every exported name once', () => {
    const files = new Map(sourceFiles(DB).map((f) => [relative(DB, f), exportedNames(f, readFileSync(f, 'utf8'))]));
    expect(files.size, 'src/db is read').to.be.above(20);
    expect(Object.fromEntries(namesDefinedTwice(files))).to.deep.equal({});
  });

  it('names every prepared statement once (node-pg refuses a name prepared with another text on a connection)', () => {
    const byName = new Map<string, string[]>();
    for (const f of sourceFiles(DB))
      for (const [, name] of readFileSync(f, 'utf8').matchAll(/\bname: '([a-z0-9_]+)'/g))
        byName.set(name!, [...(byName.get(name!) ?? []), relative(DB, f)]);
    expect(byName.size, 'statement names are found').to.be.above(20);
    expect(Object.fromEntries([...byName].filter(([, files]) => files.length > 1))).to.deep.equal({});
  });

  it('keeps the statements that write out of queries/', () => {
    const writes = sourceFiles(join(DB, 'queries')).flatMap((f) =>
      sqlIn(f, readFileSync(f, 'utf8'))
        .filter((s) => WRITE.test(s))
        .map((s) => `${relative(DB, f)}: ${s.trim().slice(0, 60)}`),
    );
    expect(writes).to.deep.equal([]);
  });

  it('finds a name two files export, and takes a value with its type of the same name in one file as one', () => {
    const files = new Map<string, ExportedName[]>([
      [
        'a.ts',
        exportedNames(
          'a.ts',
          'export async function byHash() {}\nexport const Kind = {} as const;\nexport type Kind = 1;',
        ),
      ],
      ['b.ts', exportedNames('b.ts', 'export interface Row {}\nexport { byHash } from "./a.ts";\nconst local = 1;')],
      [
        'c.ts',
        exportedNames(
          'c.ts',
          'export const { Row, other: [deep] } = x;\nexport type { Hidden as Shown } from "./d.ts";',
        ),
      ],
    ]);
    expect(files.get('c.ts')!.map((n) => n.name)).to.deep.equal(['Row', 'deep', 'Shown']);
    expect(Object.fromEntries(namesDefinedTwice(files))).to.deep.equal({
      byHash: ['a.ts', 'b.ts'],
      Row: ['b.ts', 'c.ts'],
    });
  });
});
