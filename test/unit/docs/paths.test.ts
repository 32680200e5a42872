/**
 * @module Every file of the checkout that README.md or docs/*.md names in code (`src/…`, `test/…`, `bench/…`, …)
 * exists; a name with `*` must match at least one file. Placeholders (`<name>`, `…`) are not checked, nor
 * `bench/results/`, which `make bench` writes (git ignores it). Every migration the docs name by number
 * ("migration 1003", "migrations 1000–1004", "migrations 1002 and 1004") is a file of migrations/.
 */
import { expect } from 'chai';
import { existsSync, globSync, readdirSync } from 'node:fs';
import { codeSpans, markdownFiles, readDoc, ROOT, withoutCodeBlocks } from './markdown.ts';

const TOP_DIRECTORIES = ['src', 'test', 'bench', 'docs', 'migrations', 'charts', 'crds', 'examples', 'bin'];

/** repositoryPaths lists the code spans of a Markdown file that name a path in one of the top directories. */
function repositoryPaths(markdown: string): string[] {
  return codeSpans(withoutCodeBlocks(markdown))
    .filter((span) => new RegExp(`^(${TOP_DIRECTORIES.join('|')})/[^\\s<>…]*$`).test(span))
    .filter((span) => !span.startsWith('bench/results/'))
    .map((span) => span.replace(/[#:].*$/, '')); // `file.ts:123` and `file.md#anchor` name the file
}

describe('docs: the repository paths named in code exist', () => {
  for (const file of markdownFiles()) {
    it(file, () => {
      const missing = repositoryPaths(readDoc(file)).filter((path) =>
        path.includes('*') ? globSync(path, { cwd: ROOT }).length === 0 : !existsSync(`${ROOT}${path}`),
      );
      expect(missing, `paths named in ${file}`).to.deep.equal([]);
    });
  }

  const migrations = new Set(readdirSync(`${ROOT}migrations`).map((f) => f.slice(0, 4)));
  for (const file of markdownFiles()) {
    it(`${file}: migrations named by number`, () => {
      const named = [...readDoc(file).matchAll(/[Mm]igrations? (\d{4}(?:(?:[–-]|, | and | or )\d{4})*)/g)].flatMap(
        (m) => m[1]!.match(/\d{4}/g)!,
      );
      expect(
        named.filter((n) => !migrations.has(n)),
        `migrations named in ${file}`,
      ).to.deep.equal([]);
    });
  }
});
