import { expect } from 'chai';
import { GraphQLError } from 'graphql';
import { jsonBytes } from '../../../src/chain/json-bytes.ts';
import { stringifyRawBigInts, withRawBigInts } from '../../../src/chain/json.ts';

/** the same text as the one-string writer, byte for byte */
const same = (value: unknown): void => {
  expect(jsonBytes(value).toString('utf8')).to.equal(stringifyRawBigInts(value));
};

describe('jsonBytes: a JSON answer written in pieces (json-bytes.ts)', () => {
  it('writes the text the native stringify writes: envelopes, lists, scalars, what JSON leaves out', () => {
    const nullPrototype = Object.assign(Object.create(null) as Record<string, unknown>, { a: 1, b: [null] });
    for (const value of [
      null,
      true,
      0,
      -1.5,
      'é "quoted" \u2028 ✓',
      [],
      {},
      [1, 'two', [3, [4]], { five: 5 }],
      [undefined, () => 1, Symbol('s')],
      { skipped: undefined, fn: () => 1, sym: Symbol('s'), kept: null, 'odd "key"': 1 },
      nullPrototype,
      { data: { list: { data: [{ a: 1 }, { b: [2, 3] }], next: null } }, errors: [new GraphQLError('no', {})] },
      { when: new Date(0), raw: JSON.rawJSON('123456789012345678901234567890') },
      withRawBigInts({ amounts: [2n ** 64n, -(2n ** 70n)], one: 1n }),
    ])
      same(value);
  });

  it('writes a page larger than its pieces (a GraphQL page with blocks) as one text, exact integers included', () => {
    const block = { hash: 'mh_' + 'x'.repeat(50), height: 290, time: 1767277806000 };
    const page = {
      data: {
        transactions: {
          data: Array.from({ length: 300 }, (_, i) => ({
            hash: `th_${i}`.padEnd(53, 'a'),
            tx: withRawBigInts({ amount: 10n ** 20n + BigInt(i), payload: 'ba_ü' }),
            block,
          })),
          nextCursor: 'c',
        },
      },
    };
    const bytes = jsonBytes(page);
    expect(bytes.length).to.be.greaterThan(64 * 1024);
    same(page);
    expect(bytes.toString()).to.contain('"amount":100000000000000000299');
  });

  it('writes what a bigint was left in (behind a toJSON) as the one-string writer does', () => {
    same({ list: [{ toJSON: () => ({ big: 5n }) }] });
  });
});
