import { expect } from 'chai';
import { readFileSync } from 'node:fs';
import { AppError, ErrorCode } from '../../src/errors.ts';

describe('errors registry', () => {
  const doc = readFileSync(new URL('../../docs/errors.md', import.meta.url), 'utf8');
  const documented = new Set([...doc.matchAll(/`(MDW_[A-Z_]+)`/g)].map((m) => m[1]!));
  const registered = new Set<string>(Object.values(ErrorCode));

  it('documents every registered code in docs/errors.md', () => {
    expect([...registered].filter((c) => !documented.has(c))).to.deep.equal([]);
  });

  it('registers every code docs/errors.md mentions', () => {
    expect([...documented].filter((c) => !registered.has(c))).to.deep.equal([]);
  });

  it('exposes 4xx messages to clients and hides 5xx ones', () => {
    expect(new AppError(ErrorCode.API_BAD_REQUEST, 400, 'bad').expose).to.equal(true);
    expect(new AppError(ErrorCode.INTERNAL, 500, 'secret').expose).to.equal(false);
  });
});
