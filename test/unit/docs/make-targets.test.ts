/** @module Every `make <target>` the docs show in code (`make dev`, `make test-pg11`, `make bench`) is a Makefile target. */
import { expect } from 'chai';
import { codeBlockLines, codeSpans, markdownFiles, readDoc, withoutCodeBlocks } from './markdown.ts';

describe('docs: the make targets the docs use exist', () => {
  const targets = [...readDoc('Makefile').matchAll(/^([a-z][a-z0-9-]*):/gm)].map((m) => m[1]!);

  it('reads the Makefile', () => expect(targets).to.include.members(['dev', 'test']));

  for (const file of markdownFiles()) {
    it(file, () => {
      const markdown = readDoc(file);
      const code = [...codeSpans(withoutCodeBlocks(markdown)), ...codeBlockLines(markdown)];
      const used = code.flatMap((text) =>
        [...text.matchAll(/(?:^|[|;&(]\s*)make ([a-z][a-z0-9-]*)/gm)].map((m) => m[1]!),
      );
      expect(
        used.filter((t) => !targets.includes(t)),
        `make targets in ${file}`,
      ).to.deep.equal([]);
    });
  }
});
