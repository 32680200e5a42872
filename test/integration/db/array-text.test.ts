/** @module Array parameters as literal text (db/connection/array-text.ts) read back by PostgreSQL as the values themselves. */
import { expect } from 'chai';
import { arrayParameter, arrayText } from '../../../src/db/connection/array-text.ts';
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

  it("arrayParameter reads back as pg's own conversion of the array: nulls, escapes, numbers, booleans, bytes", async () => {
    const cases: [string, unknown[]][] = [
      ['text', ['a"b', 'c\\d', 'e,f', '{g}', ' h i ', '', 'NULL', null, undefined, 'ünï', '\\"']],
      ['numeric', [1, -0, 1.5, 2n ** 70n, null, -3n]],
      ['int', [0, -2147483648, 2147483647, null]],
      ['boolean', [true, false, null]],
      ['bytea', [Buffer.from('00ff5c22', 'hex'), new Uint8Array([1, 2, 3]).subarray(1), null, Buffer.alloc(0)]],
      ['text', []],
    ];
    for (const [type, values] of cases) {
      const literal = arrayParameter(values);
      expect(literal, type).to.be.a('string');
      const { rows } = await queryOnce<{ same: boolean; ours: unknown[] }>(
        db.url,
        `SELECT $1::${type}[] IS NOT DISTINCT FROM $2::${type}[] AS same, $1::${type}[]::text[] AS ours`,
        [literal, values],
      );
      expect(rows[0]!.same, `${type}: ${String(rows[0]!.ours)}`).to.equal(true);
    }
  });

  it('arrayParameter leaves an array holding another kind of value (a Date, a nested array) to pg', () => {
    const dated = [new Date(0)];
    const nested = [[1, 2]];
    expect(arrayParameter(dated)).to.equal(dated);
    expect(arrayParameter(nested)).to.equal(nested);
  });
});
