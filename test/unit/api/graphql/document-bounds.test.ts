import { expect } from 'chai';
import { parse } from 'graphql';
import { deeperThan, DOCUMENT_LIMITS, documentProblem } from '../../../../src/api/mdw/graphql/document-bounds.ts';

const nested = (open: string, inner: string, close: string, n: number): string =>
  open.repeat(n) + inner + close.repeat(n);

describe('documentProblem', () => {
  it('passes a document within the bounds, its deepest nesting included', () => {
    expect(documentProblem('{ keyBlocks(limit: 10) { data { hash } } }')).to.equal(undefined);
    const deepest = `{ a(x: ${nested('[', '1', ']', DOCUMENT_LIMITS.nesting - 2)}) }`;
    expect(documentProblem(deepest)).to.equal(undefined);
    expect(() => parse(deepest)).to.not.throw();
  });

  it('refuses nesting of every kind one level beyond the bound, and the stack-overflowing 1,999 brackets', () => {
    const n = DOCUMENT_LIMITS.nesting;
    for (const document of [
      `{ a(x: ${nested('[', '1', ']', n)}) }`,
      `{ a(x: ${nested('{a: ', '1', '}', n)}) }`,
      `{ ${nested('a { ', 'b', ' }', n)} }`,
      `{ ${nested('... on Q { ', 'b', ' }', n)} }`,
      `query($v: ${nested('[', 'Int', ']', n + 1)}) { a }`,
      `{ a @include(if: ${nested('[', 'true', ']', n)}) }`,
      `{ a(x: ${nested('[', '1', ']', 1999)}) }`,
    ])
      expect(documentProblem(document), document.slice(0, 30)).to.match(
        /^the document nests brackets more than 64 deep$/,
      );
  });

  it('counts no bracket in a string, a block string or a comment', () => {
    const many = '['.repeat(500);
    for (const document of [
      `{ a(x: "${many}") }`,
      `{ a(x: "\\"${many}") }`,
      `{ a(x: """${many}\\"""${many}""") }`,
      `{ a # ${many}\n }`,
      `{ a # ${many}\r }`,
    ])
      expect(deeperThan(document, 3), document.slice(0, 30)).to.equal(false);
    // a string ends at its line's end and a comment too: what follows counts
    expect(deeperThan(`{ a(x: "${many}\n ${'['.repeat(5)}`, 3)).to.equal(true);
    expect(deeperThan(`# ${many}\n${'{'.repeat(5)}`, 3)).to.equal(true);
    // an escaped quote does not end a string, an escaped backslash before one does
    expect(deeperThan(`"\\\\" ${'['.repeat(5)}`, 3)).to.equal(true);
  });

  it('refuses a document longer than the bound', () => {
    expect(documentProblem(`{ a(x: "${'y'.repeat(DOCUMENT_LIMITS.length)}") }`)).to.match(
      /^the document is \d+ characters long, more than 32768$/,
    );
  });
});
