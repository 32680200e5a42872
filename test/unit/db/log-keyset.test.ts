import { expect } from 'chai';
import { keyset, logKeyset, logKeyValues } from '../../../src/db/queries/positions.ts';

describe("db: a walk over contract logs' positions (logKeyset, logKeyValues)", () => {
  it("walks a log's height, micro block, transaction and log index, its start four int placeholders from $first", () => {
    expect(logKeyset('x', 'forward', 4)).to.deep.equal({
      where: '(x.height, x.micro_index, x.tx_index, x.log_idx) >= ($4::int, $5::int, $6::int, $7::int)',
      order: 'x.height ASC, x.micro_index ASC, x.tx_index ASC, x.log_idx ASC',
    });
    expect(logKeyset('s', 'backward', 5).where).to.equal(
      '(s.height, s.micro_index, s.tx_index, s.log_idx) <= ($5::int, $6::int, $7::int, $8::int)',
    );
  });

  it('has no start without a first placeholder, as keyset', () => {
    expect(logKeyset('l', 'backward', undefined)).to.deep.equal(
      keyset(['l.height', 'l.micro_index', 'l.tx_index', 'l.log_idx'], 'backward', undefined),
    );
  });

  it("gives a position's four numbers in the placeholders' order, or four nulls", () => {
    expect(logKeyValues({ height: 10, microIndex: 2, txIndex: 7, logIdx: 3 })).to.deep.equal([10, 2, 7, 3]);
    expect(logKeyValues(undefined)).to.deep.equal([null, null, null, null]);
  });
});
