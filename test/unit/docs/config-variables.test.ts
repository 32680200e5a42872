/**
 * @module The environment variables src/config/ reads are exactly the ones README's Configuration tables list,
 * and each default the code has is the one the table shows. Any other variable-like name the docs show in code
 * (`BENCH_…`, `TEST_DATABASE_URL`, `NODE_OPTIONS`, …) occurs in the code, so a renamed one cannot linger in the docs.
 */
import { expect } from 'chai';
import { globSync, readFileSync } from 'node:fs';
import { DEFAULTS } from '../../../src/config/defaults.ts';
import { loadConfig } from '../../../src/config/middleware.ts';
import { loadKubeSettings, loadOperatorConfig } from '../../../src/config/cluster.ts';
import {
  codeBlockLines,
  codeSpans,
  markdownFiles,
  readDoc,
  ROOT,
  section,
  tableRows,
  withoutCodeBlocks,
} from './markdown.ts';

/** Where a variable can be read or set: the sources, benchmarks, tests, the chart and the build (not these tests). */
const CODE = ['{src,bench,test}/**/*.ts', 'charts/**/*.{yaml,tpl,json}', 'Makefile', 'Dockerfile'];

/** UPPER_SNAKE names of other programs the docs may show though no code of ours has them (e.g. `LD_PRELOAD`). */
const OTHER_PROGRAMS: string[] = [
  // the æternity node's configuration file (docs/devnode.md, a real node beside mdw dev)
  'AETERNITY_CONFIG',
  // the explorer's (aescan) settings, pointed at the gateway
  'NUXT_PUBLIC_NODE_URL',
  'NUXT_PUBLIC_MIDDLEWARE_URL',
  'NUXT_PUBLIC_WEBSOCKET_URL',
  'NUXT_PUBLIC_NETWORK_ID',
];

/** variablesRead runs `load` on an empty environment that records every name it is asked for. */
function variablesRead(load: (env: Record<string, string | undefined>) => unknown): string[] {
  const asked = new Set<string>();
  const env = new Proxy({}, { get: (_, name) => (typeof name === 'string' && asked.add(name), undefined) });
  try {
    load(env);
  } catch {
    // a required variable is missing (MIDDLEWARE_IMAGE): every variable was read before the error
  }
  return [...asked];
}

describe('docs: configuration variables (README.md#configuration)', () => {
  const rows = tableRows(section(readDoc('README.md'), '## Configuration'));
  /** the variables each row's first cell names (one row may name several, e.g. the hard-fork files) */
  const variablesOf = (row: string[]): string[] => codeSpans(row[0]!).filter((s) => /^[A-Z][A-Z0-9_]*$/.test(s));
  const documented = new Set(rows.flatMap(variablesOf));
  const read = new Set([loadConfig, loadKubeSettings, loadOperatorConfig].flatMap(variablesRead));

  it('reads variables at all (the recording works)', () => {
    expect(read).to.include.members(['NODE_URL', 'MINERVA_ACCOUNTS_FILE', 'MIDDLEWARE_IMAGE']);
  });

  it('documents every variable src/config/ reads', () => {
    expect([...read].filter((v) => !documented.has(v)).sort()).to.deep.equal([]);
  });

  it('documents no variable src/config/ does not read', () => {
    expect([...documented].filter((v) => !read.has(v)).sort()).to.deep.equal([]);
  });

  it("shows each variable's default from src/config/ in the default column", () => {
    const wrong = Object.entries(DEFAULTS).flatMap(([name, value]) =>
      rows
        .filter((row) => variablesOf(row).includes(name))
        .filter((row) => !codeSpans(row[1] ?? '').includes(String(value)))
        .map((row) => `${name}: default cell ${JSON.stringify(row[1])} lacks \`${value}\``),
    );
    expect(wrong).to.deep.equal([]);
  });

  it('shows in code no UPPER_SNAKE name (a variable, a code) that the code does not have', () => {
    const code = globSync(CODE, { cwd: ROOT, exclude: ['test/unit/docs/**'] })
      .map((f) => readFileSync(`${ROOT}${f}`, 'utf8'))
      .join('\n');
    const missing = markdownFiles().flatMap((path) => {
      const markdown = readDoc(path);
      const shown = [...codeSpans(withoutCodeBlocks(markdown)), ...codeBlockLines(markdown)].flatMap((text) =>
        [...text.matchAll(/\b[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+_?/g)].map((m) => m[0]),
      );
      return [...new Set(shown)]
        .filter((name) => !code.includes(name) && !OTHER_PROGRAMS.includes(name))
        .map((name) => `${path}: ${name}`);
    });
    expect(missing).to.deep.equal([]);
  });
});
