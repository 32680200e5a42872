import { expect } from 'chai';
import { intervalOf, openingInterval } from '../../../../src/api/mdw/resources/balance-intervals.ts';
import type { BalanceChange } from '../../../../src/db/queries/balance-changes.ts';

const DAY_MS = 86_400_000;
const day = (date: string): number => Date.parse(`${date}T00:00:00Z`) / DAY_MS;

/** an untouched genesis account's change, at 2026-01-07 (a Wednesday) 13:00 UTC */
const opening: BalanceChange = {
  height: 0,
  microIndex: -1,
  txIndex: -1,
  seq: 0,
  kind: 'accounts_roma',
  txHash: null,
  delta: '7000000000000000000003',
  balance: '7000000000000000000003',
  timeMs: String(Date.parse('2026-01-07T13:00:00Z')),
};

describe('openingInterval (an untouched genesis account in /balance/history?interval_by=)', () => {
  it('is the interval holding the genesis time, with the genesis change as its last', () => {
    for (const by of ['day', 'week', 'month'] as const) {
      const found = openingInterval(by, opening, { walk: 'backward', from: undefined, n: 10 });
      expect(found, by).to.deep.equal({ interval: intervalOf(by, day('2026-01-07')), last: opening });
    }
    expect(openingInterval('week', opening, { walk: 'forward', from: undefined, n: 1 })?.interval).to.deep.equal({
      start: day('2026-01-05'),
      end: day('2026-01-12'),
    });
  });

  it('is reached by a walk from a day of its interval or beyond it, not from before it', () => {
    const reached = (walk: 'forward' | 'backward', from: string, by: 'day' | 'week' = 'day'): boolean =>
      openingInterval(by, opening, { walk, from: day(from), n: 1 }) !== undefined;
    // backward: from its own interval or a later one
    expect(reached('backward', '2026-01-07')).to.equal(true);
    expect(reached('backward', '2026-03-01')).to.equal(true);
    expect(reached('backward', '2026-01-06')).to.equal(false);
    // forward: from its own interval or an earlier one
    expect(reached('forward', '2026-01-07')).to.equal(true);
    expect(reached('forward', '2025-12-01')).to.equal(true);
    expect(reached('forward', '2026-01-08')).to.equal(false);
    // a cursor day inside its week, after the genesis day, is of its interval both ways
    expect(reached('backward', '2026-01-05', 'week')).to.equal(true);
    expect(reached('forward', '2026-01-11', 'week')).to.equal(true);
    expect(reached('forward', '2026-01-12', 'week')).to.equal(false);
  });

  it('is none for a window of no rows', () => {
    expect(openingInterval('day', opening, { walk: 'backward', from: undefined, n: 0 })).to.equal(undefined);
  });
});
