/** @module DERIVED_AREAS' order and kinds: which areas a learned transaction type re-derives, where the hyperchain's sits. */
import { expect } from 'chai';
import { DERIVED_AREAS, transactionAreas } from '../../../src/indexer/derived/derived-areas.ts';

describe('DERIVED_AREAS', () => {
  it('sends a learned transaction type to every area but those derived from key blocks alone (the hyperchain)', () => {
    expect(transactionAreas()).to.deep.equal([
      'ga',
      'names',
      'transfers',
      'tokens',
      'stats',
      'calls',
      'int_calls',
      'balances',
      'channels',
      'created',
      'spends',
    ]);
  });

  it('derives the GA calls before the transfers, which read them (issue 89 item 9)', () => {
    const order = [...DERIVED_AREAS.keys()];
    expect(order.indexOf('ga')).to.be.lessThan(order.indexOf('transfers'));
    // not standalone: a batch that does not derive it defers the areas after it
    expect(DERIVED_AREAS.get('ga')!.standalone).to.equal(undefined);
  });

  it('derives the hyperchain area last and alone: its failing holds up no other area, in a batch or the backfill', () => {
    expect([...DERIVED_AREAS.keys()].at(-1)).to.equal('hyperchain');
    expect(DERIVED_AREAS.get('hyperchain')).to.include({ standalone: true, asksNode: true });
  });
});
