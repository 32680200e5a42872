/** @module Issue 38: which operand image the operator may roll, from the image's own `mdw db usage` (pure). */
import { expect } from 'chai';
import type { DatabaseReport } from '../../../src/operator/controller/database-report.ts';
import { MIN_OPERAND_VERSION, judgeOperand } from '../../../src/operator/controller/operand-version.ts';

const IMAGE = 'ghcr.io/aeternity/mdw:x';
const schema = (name: string, migration: string | null) => ({
  name,
  generation: Number(/\d+$/.exec(name)?.[0]),
  bytes: 1,
  migrated: true,
  height: 1,
  migration,
});

function report(version: string | undefined, newestMigration: string, schemas = [schema('mdw_g1', '1010_x')]) {
  return {
    ...(version === undefined ? {} : { version }),
    newestMigration,
    databaseBytes: 10,
    schemas,
  } as DatabaseReport;
}

describe('judgeOperand', () => {
  it('refuses an image that reports no version (older than the first that does) or one below the minimum', () => {
    const none = judgeOperand(IMAGE, report(undefined, '1010_x'), ['mdw_g1']);
    expect(none).to.deep.include({ accepted: false, reason: 'OperandTooOld' });
    expect(none.message).to.contain('reports no version').and.contain(MIN_OPERAND_VERSION);
    expect(judgeOperand(IMAGE, report('0.0.9', '1010_x'), ['mdw_g1'])).to.deep.include({
      accepted: false,
      reason: 'OperandTooOld',
    });
    expect(judgeOperand(IMAGE, report('not-a-version', '1010_x'), ['mdw_g1'])).to.deep.include({ accepted: false });
  });
  it('refuses an image that does not know a migration applied to a schema it would run on', () => {
    const verdict = judgeOperand(IMAGE, report('9.0.0', '1009_y'), ['mdw_g1']);
    expect(verdict).to.deep.include({ accepted: false, reason: 'OperandOlderThanSchema' });
    expect(verdict.message).to.contain('mdw_g1 has 1010_x applied');
    // a schema it would not run on (another prefix's, a retired generation) does not count
    expect(judgeOperand(IMAGE, report('9.0.0', '1009_y'), ['mdw_g2']).accepted).to.equal(true);
  });
  it('accepts an image at least the minimum that knows the schemas, with what it reported', () => {
    const verdict = judgeOperand(IMAGE, report(MIN_OPERAND_VERSION, '1010_x'), ['mdw_g1']);
    expect(verdict).to.deep.include({
      accepted: true,
      operand: { image: IMAGE, version: MIN_OPERAND_VERSION, newestMigration: '1010_x' },
    });
    expect(judgeOperand(IMAGE, report('9.0.0', '1011_z'), ['mdw_g1']).accepted).to.equal(true);
  });
});
