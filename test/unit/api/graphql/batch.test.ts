import { Deadline } from '../../../../src/api/http/admission.ts';
import { expect } from 'chai';
import { execute, GraphQLObjectType, GraphQLSchema, parse } from 'graphql';
import { BatchLoader } from '../../../../src/api/mdw/graphql/batch-loader.ts';
import type { GraphQLContext, Loaders, RestObject } from '../../../../src/api/mdw/graphql/context.ts';
import { pageOf, type PageValue } from '../../../../src/api/mdw/graphql/object-types.ts';
import { Transaction } from '../../../../src/api/mdw/graphql/types-chain.ts';

/** Two generations: micro blocks mh_a (height 1) and mh_b, mh_c (height 2); mh_x is stored nowhere. */
const MICRO: Readonly<Record<string, RestObject>> = {
  mh_a: { hash: 'mh_a', height: 1 },
  mh_b: { hash: 'mh_b', height: 2 },
  mh_c: { hash: 'mh_c', height: 2 },
};
const KEY: Readonly<Record<number, RestObject>> = { 1: { hash: 'kh_1', height: 1 }, 2: { hash: 'kh_2', height: 2 } };
const TXS: PageValue = {
  data: [
    ...['mh_a', 'mh_b', 'mh_b', 'mh_c', 'mh_x', 'mh_a'].map((block, i) => ({ hash: `th_${i}`, block_hash: block })),
    // a pending transaction: no block
    { hash: 'th_6' },
  ],
  nextCursor: null,
  prevCursor: null,
};

/** A schema of one page of transactions, and loaders over the maps above that record each read. */
function setup(fail = false): { run: (query: string) => Promise<unknown>; reads: string[]; loaders: Loaders } {
  const reads: string[] = [];
  const loaders: Loaders = {
    microBlock: new BatchLoader(async (hashes) => {
      reads.push(`micro ${hashes.join(',')}`);
      if (fail) throw new Error('database away');
      return hashes.map((h) => MICRO[h] ?? null);
    }),
    keyBlock: new BatchLoader(async (heights) => {
      reads.push(`key ${heights.join(',')}`);
      return heights.map((h) => KEY[h] ?? null);
    }),
  };
  const schema = new GraphQLSchema({
    query: new GraphQLObjectType<unknown, GraphQLContext>({
      name: 'Query',
      fields: { transactions: { type: pageOf(Transaction), resolve: () => TXS } },
    }),
  });
  const contextValue: GraphQLContext = { env: undefined as never, loaders, deadline: new Deadline(Infinity) };
  const run = async (query: string): Promise<unknown> =>
    JSON.parse(JSON.stringify(await execute({ schema, document: parse(query), contextValue })));
  return { run, reads, loaders };
}

describe('GraphQL objects a page shares, read in one batch (batch.ts)', () => {
  it('reads the blocks of a page in one batch, then their key blocks in one, however the query selects them', async () => {
    const { run, reads, loaders } = setup();
    const answer = await run(
      '{ transactions { data { hash ...B block { height } } } } fragment B on Transaction { block { hash keyBlock { hash } } }',
    );
    expect(answer).to.deep.equal({
      data: {
        transactions: {
          data: [
            { hash: 'th_0', block: { hash: 'mh_a', height: 1, keyBlock: { hash: 'kh_1' } } },
            { hash: 'th_1', block: { hash: 'mh_b', height: 2, keyBlock: { hash: 'kh_2' } } },
            { hash: 'th_2', block: { hash: 'mh_b', height: 2, keyBlock: { hash: 'kh_2' } } },
            { hash: 'th_3', block: { hash: 'mh_c', height: 2, keyBlock: { hash: 'kh_2' } } },
            { hash: 'th_4', block: null },
            { hash: 'th_5', block: { hash: 'mh_a', height: 1, keyBlock: { hash: 'kh_1' } } },
            { hash: 'th_6', block: null },
          ],
        },
      },
    });
    expect(reads).to.deep.equal(['micro mh_a,mh_b,mh_c,mh_x', 'key 1,2']);
    // what was read is answered at once, with no promise
    expect(loaders.microBlock.load('mh_b')).to.deep.equal(MICRO.mh_b);
    expect(loaders.microBlock.load('mh_x')).to.equal(null);
    expect(loaders.keyBlock.load(3)).to.be.instanceOf(Promise);
  });

  it('reads nothing a query does not select, and answers a failed read as the fields’ error', async () => {
    const quiet = setup();
    await quiet.run('{ transactions { data { hash blockHash } } }');
    expect(quiet.reads).to.deep.equal([]);
    const failing = setup(true);
    const answer = (await failing.run('{ transactions { data { hash block { hash } } } }')) as {
      errors: { message: string; path: (string | number)[] }[];
    };
    // DataLoader forgets a failed batch: the items ask again, in one batch still
    expect(failing.reads).to.deep.equal(Array(2).fill('micro mh_a,mh_b,mh_c,mh_x'));
    expect(answer.errors.map((e) => e.message)).to.deep.equal(Array(6).fill('database away'));
    expect(answer.errors[0]!.path).to.deep.equal(['transactions', 'data', 0, 'block']);
  });
});
