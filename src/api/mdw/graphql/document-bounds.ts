/**
 * @module The bounds a GraphQL document's text is held to before it is parsed: its length, and how deep its brackets
 * nest. graphql-js parses nested values, selections and types recursively, and a few kilobytes of `[[[[…` (1,999
 * levels) overflowed its stack: a 500 where every other abuse was refused. Its parser's options bound tokens
 * (maxLexicalTokens, document-cache.ts), comments and length, but not nesting; the length is checked here, before the
 * nesting is counted, and both refusals are a 400 (endpoint.ts), where the parser's would be a GraphQL error. Pure.
 */

/** DOCUMENT_LIMITS: the longest document, in UTF-16 code units, and the deepest nesting of `{`, `[` and `(`. */
export const DOCUMENT_LIMITS = {
  /** 4000 tokens (the parser's bound) of names a few letters long; a page query is some 200 */
  length: 32 * 1024,
  /**
   * A query is at most QUERY_LIMITS.depth (10) fields deep, each field a `{` and maybe a `(`, an inline fragment a `{`
   * more, and an argument's value a few levels of lists and objects; the parser's stack overflowed near 2,000.
   */
  nesting: 64,
} as const;

const HASH = 0x23;
const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const LINE_FEED = 0x0a;
const CARRIAGE_RETURN = 0x0d;
const OPENING = new Set([0x7b, 0x5b, 0x28]); // { [ (
const CLOSING = new Set([0x7d, 0x5d, 0x29]); // } ] )

/**
 * documentProblem says why a document's text is refused before parsing, or undefined when it is within the bounds.
 * Brackets in strings and comments are not counted, as the parser does not nest there.
 */
export function documentProblem(query: string): string | undefined {
  if (query.length > DOCUMENT_LIMITS.length)
    return `the document is ${query.length} characters long, more than ${DOCUMENT_LIMITS.length}`;
  if (deeperThan(query, DOCUMENT_LIMITS.nesting))
    return `the document nests brackets more than ${DOCUMENT_LIMITS.nesting} deep`;
  return undefined;
}

/** deeperThan is true when `{`, `[` and `(` nest more than `limit` deep outside strings and comments. */
export function deeperThan(query: string, limit: number): boolean {
  let depth = 0;
  for (let i = 0; i < query.length; i++) {
    const c = query.charCodeAt(i);
    if (c === HASH) i = lineEnd(query, i);
    else if (c === QUOTE) i = stringEnd(query, i);
    else if (OPENING.has(c)) {
      if (++depth > limit) return true;
    } else if (CLOSING.has(c) && depth > 0) depth--;
  }
  return false;
}

/** lineEnd is where a comment starting at `i` ends: its line's last character. */
function lineEnd(query: string, i: number): number {
  let j = i;
  while (j + 1 < query.length && !isLineTerminator(query.charCodeAt(j + 1))) j++;
  return j;
}

/**
 * stringEnd is the index of the closing quote of the string starting at `i` (a block string `"""…"""`, where `\"""`
 * is a quote, or a string on one line with backslash escapes), or of the text's last character when it is not closed.
 */
function stringEnd(query: string, i: number): number {
  if (query.startsWith('"""', i)) {
    let j = i + 3;
    for (;;) {
      const close = query.indexOf('"""', j);
      if (close < 0) return query.length - 1;
      if (query.charCodeAt(close - 1) !== BACKSLASH) return close + 2;
      j = close + 3;
    }
  }
  for (let j = i + 1; j < query.length; j++) {
    const c = query.charCodeAt(j);
    if (c === BACKSLASH) j++;
    else if (c === QUOTE || isLineTerminator(c)) return j;
  }
  return query.length - 1;
}

function isLineTerminator(c: number): boolean {
  return c === LINE_FEED || c === CARRIAGE_RETURN;
}
