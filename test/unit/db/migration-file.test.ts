/** @module What a migration file asks of the migrator: in its transaction or outside, its statements, the runs. */
import { expect } from 'chai';
import { isNoTransaction, nextRun, statementsOf } from '../../../src/db/schema/migration-file.ts';
import { AppError, ErrorCode } from '../../../src/base/errors.ts';

const CONCURRENT = `-- an index on the largest table without blocking its writes
-- mdw:no-transaction
DROP INDEX CONCURRENTLY IF EXISTS transactions_fee;
CREATE INDEX CONCURRENTLY transactions_fee
    ON transactions (fee);
`;

describe('isNoTransaction(sql)', () => {
  it('is true for a file with the marker line, false for any other', () => {
    expect(isNoTransaction(CONCURRENT)).to.equal(true);
    expect(isNoTransaction('CREATE INDEX a ON b (c);')).to.equal(false);
    // the marker is a line of its own, not a mention of it
    expect(isNoTransaction('-- unlike a file marked -- mdw:no-transaction\nCREATE INDEX a ON b (c);')).to.equal(false);
  });
});

describe('statementsOf(name, sql)', () => {
  it('splits at the lines that end with a semicolon, leaving out comment lines', () => {
    expect(statementsOf('1056_x', CONCURRENT)).to.deep.equal([
      'DROP INDEX CONCURRENTLY IF EXISTS transactions_fee;',
      'CREATE INDEX CONCURRENTLY transactions_fee\n    ON transactions (fee);',
    ]);
  });

  it('refuses dollar quoting, naming the file', () => {
    const sql = '-- mdw:no-transaction\nCREATE FUNCTION f() RETURNS int AS $$ SELECT 1; $$ LANGUAGE sql;\n';
    expect(() => statementsOf('1057_f', sql))
      .to.throw(AppError, /1057_f .*dollar quoting/)
      .with.property('code', ErrorCode.DB_MIGRATION_REFUSED);
  });
});

describe('nextRun(pending, noTransaction)', () => {
  const outside = new Set(['3_c']);
  it('takes the files in a transaction up to one that runs outside, then that one alone, then the rest', () => {
    expect(nextRun(['1_a', '2_b', '3_c', '4_d'], outside)).to.deep.equal({
      names: ['1_a', '2_b'],
      inTransaction: true,
    });
    expect(nextRun(['3_c', '4_d'], outside)).to.deep.equal({ names: ['3_c'], inTransaction: false });
    expect(nextRun(['4_d'], outside)).to.deep.equal({ names: ['4_d'], inTransaction: true });
    expect(nextRun([], outside)).to.deep.equal({ names: [], inTransaction: true });
  });
});
