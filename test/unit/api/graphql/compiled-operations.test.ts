import { expect } from 'chai';
import { parse, print, type OperationDefinitionNode } from 'graphql';
import {
  CompiledOperations,
  literalsAsVariables,
  spreadFields,
} from '../../../../src/api/mdw/graphql/compiled-operations.ts';
import { checkedDocument, type CheckedDocument } from '../../../../src/api/mdw/graphql/document-cache.ts';
import { shapeOf } from '../../../../src/api/mdw/graphql/document-shape.ts';
import { SCHEMA } from '../../../../src/api/mdw/graphql/schema.ts';

const compiledText = (query: string, operationName?: string): string | undefined => {
  const document = parse(query);
  const parameterized = literalsAsVariables(document, shapeOf(SCHEMA, query, document).literals, operationName);
  return parameterized && print(parameterized);
};

describe('GraphQL operations compiled per shape (compiled-operations.ts)', () => {
  it('turns the literals a shape blanks into variables of their input types, in the text’s order', () => {
    expect(compiledText('{ transactions(limit: 100, cursor: "a1") { data { hash } } }')).to.equal(
      print(parse('query ($__s0: String) { transactions(limit: 100, cursor: $__s0) { data { hash } } }')),
    );
    expect(
      compiledText('query Q($n: Int) { transaction(hash: "th_1") { hash } keyBlocks(limit: $n) { nextCursor } }'),
    ).to.equal(
      print(
        parse(
          'query Q($n: Int, $__s0: String) { transaction(hash: $__s0) { hash } keyBlocks(limit: $n) { nextCursor } }',
        ),
      ),
    );
    // list items, and literals in the fragments the operation spreads
    expect(
      compiledText('{ transactions(type: ["spend"]) { ...F } } fragment F on TransactionPage { nextCursor }'),
    ).to.equal(
      print(
        parse(
          'query ($__s0: String!) { transactions(type: [$__s0]) { ...F } } fragment F on TransactionPage { nextCursor }',
        ),
      ),
    );
  });

  it('keeps the named operation only, and leaves to graphql-js what it cannot compile', () => {
    const two = 'query A { status { mdwHeight } } query B { transaction(hash: "th_1") { hash } }';
    expect(compiledText(two, 'B')).to.equal(
      print(parse('query B($__s0: String) { transaction(hash: $__s0) { hash } }')),
    );
    // a variable's default must stay a literal; a client's variable of the literals' names
    expect(compiledText('query($c: String = "x") { transactions(cursor: $c) { nextCursor } }')).to.equal(undefined);
    expect(compiledText('query($__s0: String) { transactions(cursor: $__s0) { nextCursor } }')).to.equal(undefined);
    expect(compiledText('query A { status { mdwHeight } }', 'C')).to.equal(undefined);
  });

  it('counts the fields a chain of fragments spreads, however deep, stopping past the bound', () => {
    const chain = (links: number): string =>
      `{ status { ...F0 } } ` +
      Array.from({ length: links }, (_, i) =>
        i === links - 1
          ? `fragment F${i} on Status { mdwHeight }`
          : `fragment F${i} on Status { ...F${i + 1} ...F${i + 1} }`,
      ).join(' ');
    const fields = (query: string): number => {
      const document = parse(query);
      const operation = document.definitions[0] as OperationDefinitionNode;
      return spreadFields(document, operation.selectionSet, 1024);
    };
    expect(fields(chain(1))).to.equal(2);
    expect(fields(chain(5))).to.equal(1 + 2 ** 4);
    expect(fields(chain(40))).to.equal(1025);
  });

  it('compiles a shape the second time it is seen, and never one that spreads into more than 256 fields', () => {
    const operations = new CompiledOperations(SCHEMA);
    const checked = (query: string): CheckedDocument => checkedDocument(query) as CheckedDocument;
    const page = (cursor: string) => `{ transactions(limit: 5, cursor: "${cursor}") { nextCursor } }`;
    expect(operations.runner(checked(page('a')), undefined)).to.equal(undefined);
    // another text of the same shape
    expect(operations.runner(checked(page('b')), undefined)).to.be.a('function');
    expect(operations.runner(checked(page('c')), undefined)).to.be.a('function');
    const aliases = (n: number) => Array.from({ length: n }, (_, i) => `a${i}: mdwHeight`).join(' ');
    for (const [query, compiled] of [
      [`{ status { ${aliases(255)} } }`, true],
      // 202 fields written, 402 spread
      [`{ s1: status { ...F } s2: status { ...F } } fragment F on Status { ${aliases(200)} }`, false],
    ] as const) {
      expect(operations.runner(checked(query), undefined)).to.equal(undefined);
      expect(operations.runner(checked(query), undefined), query.slice(0, 30)).to.satisfy((r: unknown) =>
        compiled ? typeof r === 'function' : r === undefined,
      );
    }
  });
});
