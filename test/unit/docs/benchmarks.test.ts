/**
 * @module docs/benchmarks.md describes every benchmark `make bench` runs (bench/run.ts: each bench/*.ts but run.ts
 * and the `.lib.` helpers), naming it as `bench/<name>.ts` or `make bench ONLY=<name>`, and stays a page of current
 * figures: under 600 lines (the runs that made them are in git, not on the page).
 */
import { expect } from 'chai';
import { readdirSync } from 'node:fs';
import { readDoc, ROOT } from './markdown.ts';

describe('docs: every benchmark is described in docs/benchmarks.md', () => {
  const doc = readDoc('docs/benchmarks.md');
  const benchmarks = readdirSync(`${ROOT}bench`)
    .filter((f) => f.endsWith('.ts') && f !== 'run.ts' && !f.includes('.lib.'))
    .map((f) => f.slice(0, -'.ts'.length));

  it('finds the benchmarks', () => expect(benchmarks).to.include.members(['indexer', 'api']));

  it('names each', () => {
    const missing = benchmarks.filter((b) => !doc.includes(`bench/${b}.ts`) && !doc.includes(`ONLY=${b}\``));
    expect(missing).to.deep.equal([]);
  });

  it('stays under 600 lines: current figures, the diaries in git', () =>
    expect(doc.split('\n').length).to.be.below(600));
});
