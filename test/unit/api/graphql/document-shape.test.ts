import { expect } from 'chai';
import { parse } from 'graphql';
import { shapeOf } from '../../../../src/api/mdw/graphql/document-shape.ts';
import { SCHEMA } from '../../../../src/api/mdw/graphql/schema.ts';

const shape = (query: string): string => shapeOf(SCHEMA, query, parse(query)).text;

describe('GraphQL document shapes (document-shape.ts)', () => {
  it('blanks the string literals given where a String is expected: cursors, hashes, list items, variable defaults', () => {
    expect(shape('{ transactions(limit: 100, cursor: "a1") { data { hash } } }')).to.equal(
      '{ transactions(limit: 100, cursor: "") { data { hash } } }',
    );
    expect(shape('{ transaction(hash: "th_1") { hash } }')).to.equal(shape('{ transaction(hash: "th_2") { hash } }'));
    expect(shape('{ transactions(type: ["spend", "oracle_query"]) { data { hash } } }')).to.equal(
      '{ transactions(type: ["", ""]) { data { hash } } }',
    );
    expect(shape('query($c: String = "x") { transactions(cursor: $c) { nextCursor } }')).to.equal(
      'query($c: String = "") { transactions(cursor: $c) { nextCursor } }',
    );
    expect(shape('{ transactions(cursor: """a\n"b""") { nextCursor } }')).to.equal(
      '{ transactions(cursor: "") { nextCursor } }',
    );
  });

  it('keeps every literal whose content may decide validity: other types, unknown arguments and fields', () => {
    for (const query of [
      '{ keyBlocks(limit: "ten") { data { hash } } }',
      '{ transactions(direction: "forward") { nextCursor } }',
      '{ transactions(nope: "x") { nextCursor } }',
      '{ nope(cursor: "x") { hash } }',
      '{ transactionsCount }',
    ])
      expect(shape(query)).to.equal(query);
    expect(shape('{ keyBlocks(limit: "ten") { data { hash } } }')).to.not.equal(
      shape('{ keyBlocks(limit: "10") { data { hash } } }'),
    );
  });
});
