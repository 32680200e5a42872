/** @module parseActiveState: the `state` filter of /v3's names, oracles and channels, a 400 for anything else. */
import { expect } from 'chai';
import { AppError } from '../../../../src/base/errors.ts';
import { parseActiveState } from '../../../../src/api/mdw/resources/mdw-params.ts';

describe('parseActiveState', () => {
  it('takes active and inactive, and both (undefined) when absent', () => {
    expect(parseActiveState('active')).to.equal('active');
    expect(parseActiveState('inactive')).to.equal('inactive');
    expect(parseActiveState(undefined)).to.equal(undefined);
  });

  it('refuses any other state with a 400 naming it', () => {
    for (const state of ['', 'Active', 'expired', 'active,inactive'])
      expect(() => parseActiveState(state))
        .to.throw(AppError, `invalid query: state=${state}`)
        .with.property('status', 400);
  });
});
