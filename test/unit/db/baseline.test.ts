/**
 * @module The migration history's rules (db/schema/baseline.ts), alone: which schemas move onto 0.1.0's baseline, which are
 * refused, and the order of pending files.
 */
import { expect } from 'chai';
import { AppError } from '../../../src/base/errors.ts';
import { BASELINE, BEFORE_BASELINE, checkKnown, checkOrder, movesOntoBaseline } from '../../../src/db/schema/baseline.ts';

const refusal = (fn: () => unknown): AppError => {
  try {
    fn();
  } catch (err) {
    expect(err).to.be.instanceOf(AppError);
    expect((err as AppError).code).to.equal('MDW_DB_MIGRATION_REFUSED');
    return err as AppError;
  }
  return expect.fail('not refused');
};

describe('migration history: the 0.1.0 baseline', () => {
  it('moves a schema that applied every file before the release, when the files hold the baseline', () => {
    expect(movesOntoBaseline('s', [...BEFORE_BASELINE].sort(), BASELINE)).to.equal(true);
    expect(movesOntoBaseline('s', [...BEFORE_BASELINE], [...BASELINE, '1010_later'])).to.equal(true);
  });

  it('leaves fresh schemas, baseline schemas, and directories without the baseline alone', () => {
    expect(movesOntoBaseline('s', [], BASELINE)).to.equal(false);
    expect(movesOntoBaseline('s', [...BASELINE], BASELINE)).to.equal(false);
    // the files before the release migrating themselves (the fixtures of the baseline's tests)
    expect(movesOntoBaseline('s', BEFORE_BASELINE.slice(0, 3), BEFORE_BASELINE)).to.equal(false);
  });

  it('refuses a schema the files before the release left short of their last, naming where it stopped', () => {
    const err = refusal(() => movesOntoBaseline('mdw_g1', BEFORE_BASELINE.slice(0, -1), BASELINE));
    expect(err.message).to.contain('schema "mdw_g1"');
    expect(err.message).to.contain('stopped at 0099_name_fees_rebooked');
    expect(err.message).to.contain('Load the chain into a new schema');
  });

  it('refuses a pending file named below the newest applied one, naming both', () => {
    expect(() => checkOrder('s', [...BASELINE], ['1010_a', '1011_b'])).not.to.throw();
    expect(() => checkOrder('s', [], [...BASELINE])).not.to.throw();
    const err = refusal(() => checkOrder('s', [...BASELINE, '1020_newer'], ['1015_older', '1030_newest']));
    expect(err.message).to.contain('migration 1015_older is pending');
    expect(err.message).to.contain('below 1020_newer');
  });

  it('refuses a schema a newer version migrated (issue 38): its version, the binary’s and what to do', () => {
    expect(() => checkKnown('s', [...BASELINE], [...BASELINE, '1010_a'])).not.to.throw();
    // a schema from before the release is moved, not refused
    expect(() => checkKnown('s', [...BEFORE_BASELINE], [...BASELINE])).not.to.throw();
    let err: unknown;
    try {
      checkKnown('mdw_g1', [...BASELINE, '1010_a', '1042_later', '1041_later'], [...BASELINE, '1010_a']);
    } catch (e) {
      err = e;
    }
    expect(err).to.be.instanceOf(AppError);
    expect((err as AppError).code).to.equal('MDW_DB_SCHEMA_NEWER');
    expect((err as AppError).message).to.match(
      /^schema "mdw_g1" is at migration 1042_later, newer than this binary, whose newest is 1010_a: .*Run that version or a newer one again .*"Upgrades and rollbacks"/,
    );
  });
});
