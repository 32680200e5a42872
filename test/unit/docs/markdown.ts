/** @module Reading the project's Markdown for the docs tests: its files, sections, table rows, code spans and blocks. */
import { globSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import GithubSlugger from 'github-slugger';

/** ROOT is the checkout's root directory, with a trailing slash. */
export const ROOT = fileURLToPath(new URL('../../../', import.meta.url));

/** markdownFiles lists README.md, every docs/*.md and the charts' READMEs, relative to ROOT. */
export function markdownFiles(): string[] {
  return [
    'README.md',
    ...globSync('docs/*.md', { cwd: ROOT }).sort(),
    ...globSync('charts/*/README.md', { cwd: ROOT }),
  ];
}

/** readDoc reads a Markdown file relative to ROOT. */
export function readDoc(path: string): string {
  return readFileSync(`${ROOT}${path}`, 'utf8');
}

/** withoutCodeBlocks blanks fenced code blocks (their lines stay, empty, so line numbers hold). */
export function withoutCodeBlocks(markdown: string): string {
  let fence: string | undefined;
  return markdown
    .split('\n')
    .map((line) => {
      const marker = /^\s*(```+|~~~+)/.exec(line)?.[1];
      if (fence === undefined && marker !== undefined) fence = marker;
      else if (fence !== undefined && marker !== undefined && marker.startsWith(fence)) fence = undefined;
      else if (fence === undefined) return line;
      return '';
    })
    .join('\n');
}

/**
 * section is the text under the heading `heading` (e.g. `## Configuration`) up to the next heading of its level or
 * above, code blocks included (a `#` line inside one is no heading).
 */
export function section(markdown: string, heading: string): string {
  const lines = markdown.split('\n');
  const outside = withoutCodeBlocks(markdown).split('\n');
  const start = outside.indexOf(heading);
  if (start < 0) throw new Error(`no heading ${JSON.stringify(heading)}`);
  const level = heading.indexOf(' ');
  const end = outside.findIndex((l, i) => i > start && /^#+ /.test(l) && l.indexOf(' ') <= level);
  return lines.slice(start + 1, end < 0 ? undefined : end).join('\n');
}

/** tableRows splits every body row of the tables in `markdown` into its trimmed cells (no header, no separator). */
export function tableRows(markdown: string): string[][] {
  const lines = withoutCodeBlocks(markdown).split('\n');
  const separator = (line: string | undefined): boolean => line !== undefined && /^\|[\s|:-]+\|$/.test(line);
  return lines
    .filter((line, i) => line.startsWith('|') && !separator(line) && !separator(lines[i + 1]))
    .map((row) => splitRow(row));
}

/** splitRow splits a table row at its unescaped pipes. */
function splitRow(row: string): string[] {
  return row
    .slice(1, row.endsWith('|') ? -1 : undefined)
    .split(/(?<!\\)\|/)
    .map((c) => c.trim());
}

/** codeSpans lists the contents of the inline code spans of `text`. */
export function codeSpans(text: string): string[] {
  return [...text.matchAll(/`([^`]+)`/g)].map((m) => m[1]!);
}

/** codeBlockLines lists the lines inside fenced code blocks. */
export function codeBlockLines(markdown: string): string[] {
  const outside = withoutCodeBlocks(markdown).split('\n');
  return markdown.split('\n').filter((line, i) => outside[i] !== line);
}

/** Heading is one heading of a Markdown file: its level (the count of `#`), its text and its GitHub anchor. */
export interface Heading {
  readonly level: number;
  readonly text: string;
  readonly slug: string;
}

/**
 * headings lists the headings of a Markdown file outside code blocks, each with the id GitHub gives it
 * (github-slugger: lower case, punctuation dropped, spaces to hyphens, `-1`, `-2`… for repeats), slugged from its
 * text as GitHub renders it (code, links and images reduced to their text).
 */
export function headings(markdown: string): Heading[] {
  const slugger = new GithubSlugger();
  return [...withoutCodeBlocks(markdown).matchAll(/^(#{1,6}) +(.+?)(?: +#+)? *$/gm)].map((m) => {
    const text = m[2]!;
    const plain = text
      .replace(/!?\[([^\]]*)\]\([^)]*\)/g, '$1')
      .replace(/`([^`]*)`/g, '$1')
      .trim();
    return { level: m[1]!.length, text, slug: slugger.slug(plain) };
  });
}
