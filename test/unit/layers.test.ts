/**
 * @module The layer rules of docs/architecture.md that a refactor could quietly break: the devnode is a development
 * tool that only the CLI starts, and chain/ is pure (it imports nothing of the project beyond itself).
 */
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { expect } from 'chai';

const SRC = new URL('../../src/', import.meta.url).pathname;

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? sourceFiles(join(dir, e.name)) : e.name.endsWith('.ts') ? [join(dir, e.name)] : [],
  );
}

/** projectImports lists the src/-relative files a source file imports (static, dynamic and re-exports). */
function projectImports(file: string): string[] {
  const code = readFileSync(file, 'utf8');
  const specifiers = [...code.matchAll(/(?:from|import)\s*\(?\s*'(\.[^']+)'/g)].map((m) => m[1]!);
  return specifiers.map((s) => relative(SRC, resolve(dirname(file), s)));
}

const layer = (path: string): string => (path.includes('/') ? path.slice(0, path.indexOf('/')) : path);

describe('layers', () => {
  const files = sourceFiles(SRC).map((f) => ({ path: relative(SRC, f), imports: projectImports(f) }));

  it('finds the imports it checks', () => {
    const posted = files.find((f) => f.path === 'events/posted-tx.ts');
    expect(posted?.imports).to.include('chain/tx-parse.ts');
  });

  it('lets only cli/ and devnode/ itself import devnode/', () => {
    const offenders = files
      .filter((f) => !['cli', 'devnode'].includes(layer(f.path)))
      .flatMap((f) => f.imports.filter((i) => layer(i) === 'devnode').map((i) => `${f.path} → ${i}`));
    expect(offenders).to.deep.equal([]);
  });

  it('keeps chain/ pure: it imports only chain/', () => {
    const offenders = files
      .filter((f) => layer(f.path) === 'chain')
      .flatMap((f) => f.imports.filter((i) => layer(i) !== 'chain').map((i) => `${f.path} → ${i}`));
    expect(offenders).to.deep.equal([]);
  });
});
