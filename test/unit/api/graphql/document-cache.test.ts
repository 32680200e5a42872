import { expect } from 'chai';
import { getIntrospectionQuery, GraphQLError, parse, type DocumentNode } from 'graphql';
import {
  CACHE_BYTES,
  checkedDocument,
  documentBytes,
  fieldCount,
  MAX_FIELDS,
} from '../../../../src/api/mdw/graphql/document-cache.ts';
import { collectAllGarbage } from '../../../../src/api/http/heap-trim.ts';

const MB = 2 ** 20;

/** heapAfter is how much the heap grew while `make` ran and its result was still held. */
function heapAfter<T>(make: () => T): { grown: number; kept: T } {
  collectAllGarbage();
  const before = process.memoryUsage().heapUsed;
  const kept = make();
  collectAllGarbage();
  return { grown: process.memoryUsage().heapUsed - before, kept };
}

/**
 * texts of four kinds: a page query with a cursor, short names (a token every 2 characters), arguments, a long string;
 * as many of each as hold some megabytes parsed, far above the measure's noise
 */
const KINDS: Record<string, { count: number; text: (i: number) => string }> = {
  page: {
    count: 200,
    text: (i) =>
      `{ transactions(limit: 100, cursor: "c${i}-${'x'.repeat(40)}") { data { hash blockHash encodedTx tx block { hash height time } } nextCursor } }`,
  },
  'short names': { count: 40, text: (i) => `{ a${i} ${'a '.repeat(3000)} }` },
  arguments: { count: 40, text: (i) => `{ a${i}(${Array.from({ length: 500 }, (_, k) => `x${k}: 1`).join(' ')}) }` },
  'a long string': { count: 200, text: (i) => `{ a${i}(x: "${'y'.repeat(20_000)}") }` },
};

describe('the GraphQL document cache', () => {
  for (const [kind, { count, text }] of Object.entries(KINDS)) {
    it(`counts at least what parsed documents hold on the heap: ${kind}`, () => {
      const texts = Array.from({ length: count }, (_, i) => text(i));
      const { grown, kept } = heapAfter(() => texts.map((t) => parse(t, { maxTokens: 10_000 })));
      const counted = kept.reduce((sum, document, i) => sum + documentBytes(texts[i]!, document), 0);
      expect(counted, `${kind}: counted ${counted}, held ${grown}`).to.be.at.least(grown);
      // and not so much more that the cache would hold few documents for nothing
      expect(counted, kind).to.be.below(4 * grown + count * 1024);
    });
  }

  it('holds at most its bound however many distinct documents a client sends', () => {
    // 40 documents of 2800 tokens (700 unused variables: its errors point into it), 1.2 MB each parsed: three bounds
    const variables = Array.from({ length: 700 }, (_, k) => `$v${k}: Int`).join(' ');
    const { grown } = heapAfter(() => {
      for (let i = 0; i < 40; i++) {
        const refused = checkedDocument(`query Q${i}(${variables}) { status { mdwHeight } }`);
        expect(refused[0 as keyof typeof refused]).to.be.instanceOf(GraphQLError);
      }
    });
    expect(grown).to.be.below(CACHE_BYTES + 8 * MB);
  });

  it('answers a text it has seen with the document it parsed', () => {
    const text = '{ status { mdwHeight nodeHeight } }';
    const first = checkedDocument(text);
    expect(first).to.have.nested.property('document.kind', 'Document');
    expect(checkedDocument(text)).to.equal(first);
  });

  it(`refuses a document of more than ${MAX_FIELDS} fields before validating it`, () => {
    const selection = (n: number) => Array.from({ length: n }, (_, i) => `a${i}: mdwHeight`).join(' ');
    expect(checkedDocument(`{ status { ${selection(MAX_FIELDS - 1)} } }`)).to.have.nested.property(
      'document.kind',
      'Document',
    );
    const refused = checkedDocument(`{ status { ${selection(MAX_FIELDS)} } }`);
    expect(refused).to.be.an('array').with.length(1);
    expect((refused as GraphQLError[])[0]!.message).to.equal(
      `the document selects ${MAX_FIELDS + 1} fields, more than ${MAX_FIELDS}`,
    );
    // GraphiQL's own query is well within
    const introspection: DocumentNode = parse(getIntrospectionQuery({ descriptions: true, specifiedByUrl: true }));
    expect(fieldCount(introspection)).to.be.below(MAX_FIELDS / 2);
  });
});
