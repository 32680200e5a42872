/** @module The ids' numbers (migration 1000): one number per id, its kind in its low bits, safe across writers and rollbacks. */
import { expect } from 'chai';
import { randomBytes } from 'node:crypto';
import { encode as sdkEncode, Encoding } from '@aeternity/aepp-sdk';
import { KEY_TAGS, idKey } from '../../../src/chain/id-key.ts';
import { withTransaction, type Pool } from '../../../src/db/connection/pool.ts';
import { AccountNumbers } from '../../../src/db/writes/account-numbers.ts';
import { createMigratedDatabase } from '../../support/postgres.ts';

const ids = (encoding: Encoding, n: number): string[] =>
  Array.from({ length: n }, () => sdkEncode(randomBytes(32), encoding));

describe('AccountNumbers (account_ids, real PostgreSQL)', () => {
  let db: { pool: Pool; drop(): Promise<void> };
  before(async () => {
    db = await createMigratedDatabase('mdw', 4);
  });
  after(() => db.drop());

  const stored = async (): Promise<Map<string, number>> =>
    new Map(
      (await db.pool.query<{ num: number; key: Buffer }>('SELECT num, key FROM account_ids')).rows.map((r) => [
        r.key.toString('hex'),
        r.num,
      ]),
    );

  it("numbers each id once, with its kind's tag in the low three bits", async () => {
    const all = [...ids(Encoding.AccountAddress, 20), ...ids(Encoding.OracleAddress, 5), ...ids(Encoding.Name, 5)];
    const numbers = new AccountNumbers();
    await withTransaction(db.pool, (c) => numbers.resolve(c, [...all, ...all.slice(0, 10)]));
    const rows = await stored();
    for (const id of all) {
      expect(rows.get(idKey(id).toString('hex')), id).to.equal(numbers.number(id));
      expect(numbers.number(id) & 7, id).to.equal(KEY_TAGS[id.slice(0, 2)]);
    }
    expect(new Set(all.map((id) => numbers.number(id))).size).to.equal(all.length);
    // another writer finds the same numbers
    const other = new AccountNumbers();
    await other.resolve(db.pool, all);
    expect(all.map((id) => other.number(id))).to.deep.equal(all.map((id) => numbers.number(id)));
  });

  it('two writers numbering the same new ids at once agree, each waiting for the other', async () => {
    const all = ids(Encoding.AccountAddress, 50);
    const [a, b] = [new AccountNumbers(), new AccountNumbers()];
    await Promise.all([
      withTransaction(db.pool, (c) => a.resolve(c, all)),
      withTransaction(db.pool, (c) => b.resolve(c, all.toReversed())),
    ]);
    expect(all.map((id) => b.number(id))).to.deep.equal(all.map((id) => a.number(id)));
  });

  it('forgets what a rolled-back transaction numbered, and numbers it again', async () => {
    const [id] = ids(Encoding.ContractAddress, 1);
    const numbers = new AccountNumbers();
    await withTransaction(db.pool, async (c) => {
      await numbers.resolve(c, [id!]);
      throw new Error('the batch fails');
    }).catch(() => numbers.forget());
    expect(() => numbers.number(id!)).to.throw();
    expect((await stored()).has(idKey(id!).toString('hex'))).to.equal(false);
    await numbers.resolve(db.pool, [id!]);
    expect((await stored()).get(idKey(id!).toString('hex'))).to.equal(numbers.number(id!));
  });

  it('refuses an id of no stored kind', async () => {
    const err = await new AccountNumbers().resolve(db.pool, ['ak_notbase58']).catch((e: unknown) => e);
    expect(err).to.be.instanceOf(TypeError);
  });
});
