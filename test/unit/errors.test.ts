import { expect } from 'chai';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { AppError, ErrorCode } from '../../src/base/errors.ts';

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? sourceFiles(join(dir, e.name)) : e.name.endsWith('.ts') ? [join(dir, e.name)] : [],
  );
}

describe('errors registry', () => {
  const doc = readFileSync(new URL('../../docs/errors.md', import.meta.url), 'utf8');
  // the first column of the table's rows, in order, repeats included
  const documented = [...doc.matchAll(/^\| `(MDW_[A-Z_]+)` \|/gm)].map((m) => m[1]!);
  const registered: string[] = Object.values(ErrorCode);

  it('documents each registered code exactly once, and nothing else, in docs/errors.md', () => {
    expect([...documented].sort()).to.deep.equal([...registered].sort());
  });

  it('registers each code once', () => {
    expect(new Set(registered).size).to.equal(registered.length);
  });

  it('raises every registered code somewhere (no dead codes)', () => {
    const src = new URL('../../src/', import.meta.url).pathname;
    const code = sourceFiles(src)
      .filter((f) => !f.endsWith('/errors.ts'))
      .map((f) => readFileSync(f, 'utf8'))
      .join('\n');
    const names = Object.keys(ErrorCode) as (keyof typeof ErrorCode)[];
    const dead = names.filter((n) => !code.includes(`ErrorCode.${n}`) && !code.includes(`'${ErrorCode[n]}'`));
    expect(dead).to.deep.equal([]);
  });

  it('exposes 4xx messages to clients and hides 5xx ones', () => {
    expect(new AppError(ErrorCode.API_BAD_REQUEST, 400, 'bad').expose).to.equal(true);
    expect(new AppError(ErrorCode.INTERNAL, 500, 'secret').expose).to.equal(false);
  });
});
