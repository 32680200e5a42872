import { expect } from 'chai';
import {
  getOperationAST,
  GraphQLInt,
  GraphQLList,
  GraphQLObjectType,
  GraphQLSchema,
  GraphQLString,
  Kind,
  parse,
  type FragmentDefinitionNode,
} from 'graphql';
import { measure } from '../../../../src/api/mdw/graphql/cost.ts';

// a schema of the same form as ae_mdw's: pages with `limit`, items pointing at other objects
const Block = new GraphQLObjectType({
  name: 'Block',
  fields: { hash: { type: GraphQLString }, height: { type: GraphQLInt } },
});
const Tx = new GraphQLObjectType({
  name: 'Tx',
  fields: {
    hash: { type: GraphQLString },
    fee: { type: GraphQLInt },
    block: { type: Block },
    // a scalar with a read of its own, as Status's counts
    confirmations: { type: GraphQLInt, extensions: { reads: true } },
  },
});
const TxPage = new GraphQLObjectType({
  name: 'TxPage',
  fields: { data: { type: new GraphQLList(Tx) }, nextCursor: { type: GraphQLString } },
});
const Query = new GraphQLObjectType({
  name: 'Query',
  fields: {
    txs: { type: TxPage, args: { limit: { type: GraphQLInt } } },
    tx: { type: Tx, args: { hash: { type: GraphQLString } } },
    txCount: { type: GraphQLInt },
  },
});
const schema = new GraphQLSchema({ query: Query });

function measured(source: string, variables: Record<string, unknown> = {}) {
  const document = parse(source);
  const fragments = new Map(
    document.definitions
      .filter((d): d is FragmentDefinitionNode => d.kind === Kind.FRAGMENT_DEFINITION)
      .map((d) => [d.name.value, d]),
  );
  return measure(getOperationAST(document)!, schema.getQueryType()!, fragments, variables);
}

describe('GraphQL cost and depth (cost.ts)', () => {
  it('counts a page as its limit times the objects of an item, scalars free', () => {
    expect(measured('{ txs(limit: 100) { data { hash fee } nextCursor } }')).to.deep.equal({ depth: 3, cost: 101 });
    expect(measured('{ txs(limit: 100) { data { hash block { hash } } } }')).to.deep.equal({ depth: 4, cost: 201 });
  });

  it('reads the default page size when no limit is given and keeps a given one within 1..100', () => {
    expect(measured('{ txs { data { hash } } }').cost).to.equal(11);
    expect(measured('{ txs(limit: 100000) { data { hash } } }').cost).to.equal(101);
    expect(measured('{ txs(limit: 0) { data { hash } } }').cost).to.equal(2);
  });

  it('takes a limit from a variable and counts every alias', () => {
    expect(measured('query($n: Int) { txs(limit: $n) { data { hash } } }', { n: 50 }).cost).to.equal(51);
    expect(measured('{ a: txs(limit: 100) { data { hash } } b: txs(limit: 100) { data { hash } } }').cost).to.equal(
      202,
    );
  });

  it('counts fragments and inline fragments where they are used', () => {
    const viaFragment = measured('{ txs(limit: 10) { data { ...T } } } fragment T on Tx { hash block { height } }');
    expect(viaFragment).to.deep.equal(measured('{ txs(limit: 10) { data { hash block { height } } } }'));
    expect(measured('{ tx(hash: "x") { ... on Tx { block { hash } } } }')).to.deep.equal({ depth: 3, cost: 2 });
  });

  it('measures a fragment spread twice down a long chain without walking it once per path', () => {
    // F0 spreads F1 twice, F1 spreads F2 twice, …: 2^60 paths to the last one's block, each costing 1
    const chain = Array.from({ length: 61 }, (_, i) =>
      i === 60 ? `fragment F60 on Tx { block { hash } }` : `fragment F${i} on Tx { ...F${i + 1} ...F${i + 1} }`,
    ).join(' ');
    expect(measured(`{ tx(hash: "x") { ...F0 } } ${chain}`)).to.deep.equal({ depth: 3, cost: 2 ** 60 + 1 });
  });

  it('counts a scalar that is a read of its own: a field of the query type, or one marked as reading', () => {
    const aliases = (n: number, field: string) => Array.from({ length: n }, (_, i) => `a${i}: ${field}`).join(' ');
    expect(measured(`{ ${aliases(1001, 'txCount')} }`)).to.deep.equal({ depth: 1, cost: 1001 });
    expect(measured(`{ tx(hash: "x") { ${aliases(1000, 'confirmations')} fee } }`)).to.deep.equal({
      depth: 2,
      cost: 1001,
    });
  });

  it('leaves introspection to graphql-js', () => {
    expect(measured('{ __schema { types { name fields { name type { name } } } } }')).to.deep.equal({
      depth: 0,
      cost: 0,
    });
  });
});
