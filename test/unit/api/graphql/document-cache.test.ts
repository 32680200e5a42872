import { Worker } from 'node:worker_threads';
import { expect } from 'chai';
import { getIntrospectionQuery, parse, type DocumentNode, type GraphQLError } from 'graphql';
import {
  CACHE_BYTES,
  checkedDocument,
  fieldCount,
  MAX_FIELDS,
} from '../../../../src/api/mdw/graphql/document-cache.ts';
import { BOUND, KINDS, type HeapAnswer } from './document-heap.ts';

const MB = 2 ** 20;

/** measured runs the heap measures in a worker thread of its own (document-heap.ts says why). */
function measured(kinds: string[]): Promise<HeapAnswer[]> {
  return new Promise((resolve, reject) => {
    const worker = new Worker(new URL('./document-heap.ts', import.meta.url), { workerData: kinds });
    worker.once('message', (answers: HeapAnswer[]) => resolve(answers));
    worker.once('error', reject);
    worker.once('exit', (code) => reject(new Error(`the heap measures' worker exited with ${code}`)));
  });
}

describe('the GraphQL document cache', () => {
  const kinds = Object.keys(KINDS);
  let answers: Promise<HeapAnswer[]>;
  before(() => {
    answers = measured([...kinds, BOUND]);
  });

  for (const [n, kind] of kinds.entries()) {
    it(`counts at least what parsed documents hold on the heap: ${kind}`, async () => {
      const { grown, counted } = (await answers)[n]!;
      expect(counted, `${kind}: counted ${counted}, held ${grown}`).to.be.at.least(grown);
      // and not so much more that the cache would hold few documents for nothing
      expect(counted, kind).to.be.below(4 * grown + KINDS[kind]!.count * 1024);
    });
  }

  it('holds at most its bound however many distinct documents a client sends', async () => {
    const { grown, allRefused } = (await answers)[kinds.length]!;
    expect(allRefused, 'every document refused').to.equal(true);
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
