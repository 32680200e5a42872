import { expect } from 'chai';
import {
  difficultyOf,
  firstDay,
  hashrateOf,
  intervalDates,
  intervalOf,
  isoDate,
  parseIsoDate,
  utcDay,
} from '../../../src/chain/stats-intervals.ts';

const day = (iso: string): number => utcDay(Date.parse(`${iso}T00:00:00Z`));

describe('statistics intervals (UTC, as ae_mdw counts them)', () => {
  it('puts a time in its UTC day, whatever the hour', () => {
    expect(utcDay(Date.parse('2026-01-01T00:00:00Z'))).to.equal(20454);
    expect(utcDay(Date.parse('2026-01-01T23:59:59.999Z'))).to.equal(20454);
    expect(utcDay(Date.parse('2026-01-02T00:00:00Z'))).to.equal(20455);
    expect(utcDay(0)).to.equal(0);
    expect(isoDate(20454)).to.equal('2026-01-01');
  });

  it('starts weeks on Thursdays (1970-01-01 was one) and months on the 1st', () => {
    // 2026-01-01 is a Thursday: it starts a week; the Wednesday after still belongs to it
    expect(intervalDates(intervalOf(day('2026-01-07'), 'week'), 'week')).to.deep.equal({
      start_date: '2026-01-01',
      end_date: '2026-01-08',
    });
    expect(intervalDates(intervalOf(day('2026-01-08'), 'week'), 'week').start_date).to.equal('2026-01-08');
    expect(intervalDates(intervalOf(day('2024-02-29'), 'month'), 'month')).to.deep.equal({
      start_date: '2024-02-01',
      end_date: '2024-03-01',
    });
    expect(intervalDates(intervalOf(day('2025-12-31'), 'month'), 'month')).to.deep.equal({
      start_date: '2025-12-01',
      end_date: '2026-01-01',
    });
    expect(intervalOf(day('1970-01-31'), 'month')).to.equal(0);
    expect(intervalOf(day('1971-02-01'), 'month')).to.equal(13);
    expect(intervalDates(20454, 'day')).to.deep.equal({ start_date: '2026-01-01', end_date: '2026-01-02' });
  });

  it('maps every day of a leap year to the interval whose dates hold it', () => {
    for (let d = day('2024-01-01'); d < day('2025-01-01'); d++)
      for (const by of ['day', 'week', 'month'] as const) {
        const start = intervalOf(d, by);
        expect(firstDay(start, by), `${isoDate(d)} ${by}`).to.be.at.most(d);
        expect(firstDay(start + 1, by), `${isoDate(d)} ${by}`).to.be.greaterThan(d);
      }
  });

  it('reads only real calendar dates', () => {
    expect(parseIsoDate('2024-02-29')).to.equal(day('2024-02-29'));
    expect(parseIsoDate('2023-02-29')).to.equal(undefined);
    expect(parseIsoDate('2024-13-01')).to.equal(undefined);
    expect(parseIsoDate('2024-1-01')).to.equal(undefined);
    expect(parseIsoDate('yesterday')).to.equal(undefined);
  });
});

describe('difficulty and hashrate (the node and ae_mdw formulas)', () => {
  it('gives the largest target 0x2100ffff difficulty 2^24 and hashrate 4', () => {
    expect(difficultyOf(0x2100ffff)).to.equal(2n ** 24n);
    // 16777216 × 42 / 180000 / 1000 = 3.91 → 4
    expect(hashrateOf(2n ** 24n)).to.equal(4n);
  });

  it('reads the compact target as exponent and significand', () => {
    // a target 2^16 times smaller (two bytes less of exponent) is 2^16 times harder
    expect(difficultyOf(0x1f00ffff)).to.equal(2n ** 24n * 2n ** 16n);
    // a mainnet-like target: 0x1e0f3b5a = 0x0f3b5a × 256^(0x1e - 3)
    const target = 0x0f3b5an << (8n * (0x1en - 3n));
    expect(difficultyOf(0x1e0f3b5a)).to.equal((2n ** 24n * (0xffffn << 240n)) / target);
    // the sign bit of the significand makes the exponent negative: a target of 0, no difficulty
    expect(difficultyOf(0x01800001)).to.equal(0n);
    expect(difficultyOf(0)).to.equal(0n);
  });

  it('rounds the hashrate half up, exactly beyond 2^53', () => {
    expect(hashrateOf(0n)).to.equal(0n);
    // 42 × d / 180000000 = 0.5 exactly when d = 180000000 / 84
    expect(hashrateOf(2_142_857n)).to.equal(0n);
    expect(hashrateOf(2_142_858n)).to.equal(1n);
    const big = 10n ** 30n;
    expect(hashrateOf(big)).to.equal((big * 42n + 90_000_000n) / 180_000_000n);
  });
});
