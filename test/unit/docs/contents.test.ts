/**
 * @module docs/operations.md opens with a table of contents that lists its `##` and `###` headings in order, each
 * linked to its anchor and indented by its level, so a heading added, renamed or moved shows in the contents too.
 */
import { expect } from 'chai';
import { headings, readDoc, withoutCodeBlocks } from './markdown.ts';

/** contentsEntries reads the `- [text](#anchor)` lines before the first `##` heading as (level, text, anchor). */
function contentsEntries(markdown: string): string[] {
  const text = withoutCodeBlocks(markdown);
  const head = text.slice(0, text.search(/^## /m));
  return [...head.matchAll(/^( *)- \[(.+)\]\(#([^)]+)\)$/gm)].map((m) => `${m[1]!.length / 2 + 2} ${m[2]} #${m[3]}`);
}

describe('docs: docs/operations.md has a table of contents in step with its headings', () => {
  const doc = readDoc('docs/operations.md');

  it('lists every ## and ### heading, in order, linked to its anchor', () => {
    const expected = headings(doc)
      .filter((h) => h.level === 2 || h.level === 3)
      .map((h) => `${h.level} ${h.text} #${h.slug}`);
    expect(expected).to.include('2 Upgrades #upgrades');
    expect(contentsEntries(doc)).to.deep.equal(expected);
  });
});
