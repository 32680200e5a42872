import { expect } from 'chai';
import { execute, GraphQLObjectType, GraphQLSchema, parse } from 'graphql';
import { BigIntScalar, IntScalar, JsonScalar } from '../../../../src/api/mdw/graphql/scalars.ts';
import { stringifyRawBigInts } from '../../../../src/chain/json.ts';

/** A query of the three scalars, whose values the root gives as the REST answers hold them. */
const schema = new GraphQLSchema({
  query: new GraphQLObjectType({
    name: 'Query',
    fields: { big: { type: BigIntScalar }, json: { type: JsonScalar }, int: { type: IntScalar } },
  }),
});

function answer(rootValue: Record<string, unknown>): string {
  const result = execute({ schema, document: parse('{ big json int }'), rootValue });
  if ('then' in result) throw new Error('the scalars resolve at once');
  return stringifyRawBigInts(result);
}

describe('GraphQL scalars (scalars.ts), as the endpoint writes them', () => {
  const huge = 2n ** 64n + 1n;

  it('writes Int and JSON integers beyond 2^53 digit for digit, BigInt as a string', () => {
    const text = answer({ big: huge, int: huge, json: { tx: { amount: huge, fee: 20_000n, ids: ['ak_x'] } } });
    expect(text).to.equal(
      `{"data":{"big":"${huge}","json":{"tx":{"amount":${huge},"fee":20000,"ids":["ak_x"]}},"int":${huge}}}`,
    );
  });

  it('leaves the REST answer it reads unchanged', () => {
    const json = { tx: { amount: huge } };
    answer({ json });
    expect(json.tx.amount).to.equal(huge);
  });

  it('writes a bigint nested deeper than the raw-JSON walk looks, by the replacer', () => {
    let deep: unknown = huge;
    for (let i = 0; i < 100; i++) deep = [deep];
    expect(answer({ json: deep })).to.include(`[${huge}]`);
  });
});
