/** @module Array parameters as literal text (db/connection/array-text.ts) read back by PostgreSQL as the values themselves. */
import { expect } from 'chai';
import { arrayText } from '../../../src/db/connection/array-text.ts';
import { createTestDatabase, queryOnce } from '../../support/postgres.ts';

describe('arrayText against PostgreSQL', () => {
  let db: Awaited<ReturnType<typeof createTestDatabase>>;
  before(async () => {
    db = await createTestDatabase();
  });
  after(async () => {
    await db?.drop();
  });

  it('reads back every string as itself: quotes, backslashes, commas, braces, spaces, empty, NULL', async () => {
    const values = ['a"b', 'c\\d', 'e,f', '{g}', ' h i ', '', 'NULL', 'transactions:SpendTx', 'ünï'];
    const { rows } = await queryOnce<{ v: string[] }>(db.url, 'SELECT $1::text[] AS v', [arrayText(values)]);
    expect(rows[0]!.v).to.deep.equal(values);
  });

  it('reads back integers exactly, bigints above 2^53 included, and an empty array', async () => {
    const big = 2n ** 200n + 1n;
    const { rows } = await queryOnce<{ n: string[]; i: number[]; e: number[] }>(
      db.url,
      'SELECT $1::numeric[]::text[] AS n, $2::int[] AS i, $3::int[] AS e',
      [arrayText([big, 7, -3]), arrayText([0, -2147483648, 2147483647]), arrayText([])],
    );
    expect(rows[0]).to.deep.equal({ n: [String(big), '7', '-3'], i: [0, -2147483648, 2147483647], e: [] });
  });

  it('refuses a number that is not an exact integer', () => {
    expect(() => arrayText([1.5])).to.throw(RangeError);
    expect(() => arrayText([2 ** 53])).to.throw(RangeError);
  });
});
