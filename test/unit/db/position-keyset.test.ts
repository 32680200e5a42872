import { expect } from 'chai';
import { keyset, positionKeyset } from '../../../src/db/queries/positions.ts';

describe("db: a walk over transactions' positions (positionKeyset)", () => {
  it('walks from a position: three int placeholders from $first, the position its values in their order', () => {
    expect(
      positionKeyset('e', { walk: 'forward', from: { height: 10, microIndex: 2, txIndex: 7 }, n: 5 }, 4),
    ).to.deep.equal({
      where: '(e.height, e.micro_index, e.tx_index) >= ($4::int, $5::int, $6::int)',
      order: 'e.height ASC, e.micro_index ASC, e.tx_index ASC',
      values: [10, 2, 7],
    });
    expect(
      positionKeyset('x', { walk: 'backward', from: { height: 0, microIndex: 0, txIndex: 0 }, n: 1 }, 3),
    ).to.include({
      where: '(x.height, x.micro_index, x.tx_index) <= ($3::int, $4::int, $5::int)',
    });
  });

  it('walks the whole list without a position, with no placeholder and no value', () => {
    expect(positionKeyset('p', { walk: 'backward', from: undefined, n: 1 }, 4)).to.deep.equal({
      ...keyset(['p.height', 'p.micro_index', 'p.tx_index'], 'backward', undefined),
      values: [],
    });
  });
});
