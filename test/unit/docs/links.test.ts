/**
 * @module Every relative Markdown link in README.md and docs/*.md points to a file of the checkout, and every
 * `#anchor` (in the same file or in another Markdown file) to one of its headings, slugged as GitHub does
 * (github-slugger: lower case, punctuation dropped, spaces to hyphens, `-1`, `-2`… for repeats). README.md links
 * every page of docs/.
 */
import { expect } from 'chai';
import { existsSync } from 'node:fs';
import { dirname, join, normalize, relative } from 'node:path';
import { headings, markdownFiles, readDoc, ROOT, withoutCodeBlocks } from './markdown.ts';

/** anchors are the ids GitHub gives the headings of a Markdown file (and any explicit `<a id>`/`<a name>`). */
function anchors(markdown: string): Set<string> {
  const explicit = [...withoutCodeBlocks(markdown).matchAll(/<a\s+(?:id|name)="([^"]+)"/g)].map((m) => m[1]!);
  return new Set([...headings(markdown).map((h) => h.slug), ...explicit]);
}

/** links lists the targets of the inline links and images of a Markdown file, outside code blocks and spans. */
function links(markdown: string): string[] {
  const text = withoutCodeBlocks(markdown).replace(/`[^`\n]*`/g, '');
  return [...text.matchAll(/\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g)].map((m) => m[1]!);
}

describe('docs: relative links and anchors resolve', () => {
  const files = markdownFiles();
  const anchorsOf = new Map(files.map((f) => [f, anchors(readDoc(f))]));

  it('finds the headings GitHub would (slugs of the project docs)', () => {
    expect(anchorsOf.get('docs/operations.md')).to.include.members(['upgrades', 'when-postgresql-goes-away']);
    expect(anchorsOf.get('docs/benchmarks.md')).to.include('websocket-node-benchwebsocketts');
  });

  it('links every page of docs/ from README.md', () => {
    const linked = links(readDoc('README.md')).map((target) => target.split('#')[0]);
    expect(files.filter((f) => f.startsWith('docs/') && !linked.includes(f))).to.deep.equal([]);
  });

  for (const file of files) {
    it(file, () => {
      const broken = links(readDoc(file))
        .filter((target) => !/^[a-z][a-z0-9+.-]*:/i.test(target)) // http:, https:, mailto: are not checked
        .filter((target) => {
          const [path = '', anchor] = target.split('#');
          const linked = path === '' ? file : normalize(join(dirname(file), decodeURI(path)));
          if (relative(ROOT, join(ROOT, linked)).startsWith('..') || !existsSync(join(ROOT, linked))) return true;
          if (anchor === undefined || !linked.endsWith('.md')) return false;
          const headings = anchorsOf.get(linked) ?? anchors(readDoc(linked));
          return !headings.has(decodeURIComponent(anchor));
        });
      expect(broken, `broken links in ${file}`).to.deep.equal([]);
    });
  }
});
