import { expect } from 'chai';
import { equalityFilters } from '../../../src/db/queries/equality-filters.ts';

describe('equalityFilters', () => {
  it('adds the filters given after the parameters there are, and names the combination', () => {
    const values: unknown[] = [10, 'x'];
    const where = ['a > $2'];
    const shape = equalityFilters(values, where, [
      ['c.contract_id', 'ct_1'],
      ['c.caller_id', undefined],
      ['c.function', 'f'],
    ]);
    expect(shape).to.equal('101');
    expect(values).to.deep.equal([10, 'x', 'ct_1', 'f']);
    expect(where).to.deep.equal(['a > $2', 'c.contract_id = $3', 'c.function = $4']);
  });
});
