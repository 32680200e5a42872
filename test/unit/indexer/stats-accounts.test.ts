/** @module The accounts' statistics of a batch counted in memory (the stored derivation's twin: test/integration/indexer/stats-memory.test.ts). */
import { expect } from 'chai';
import { KEY_TAGS } from '../../../src/chain/id-key.ts';
import type { AccountTxRow, GenerationRows } from '../../../src/indexer/rows/rows.ts';
import { countedAccounts } from '../../../src/indexer/derived/stats-accounts.ts';

const DAY = 86_400_000n;

/** gen is a generation with only its micro blocks' indexes and times. */
const gen = (height: number, micros: bigint[], continuesAt?: number): GenerationRows =>
  ({
    keyBlock: { height },
    continuesAt,
    microBlocks: micros.map((ms, microIndex) => ({ microIndex, timeMs: ms })),
  }) as unknown as GenerationRows;

/** numbers as the writer makes them: 8 × n + the kind's tag */
const NUMBERS = new Map([
  ['ak_a', 8 + KEY_TAGS.ak!],
  ['ak_b', 16 + KEY_TAGS.ak!],
  ['ct_c', 24 + KEY_TAGS.ct!],
]);
const numbers = { number: (id: string): number => NUMBERS.get(id)! };
const seen = (account: string, height: number, microIndex: number, txIndex: number): AccountTxRow => ({
  account,
  height,
  microIndex,
  txIndex,
  txHash: '',
  txType: 'SpendTx',
  fields: [],
});

describe('countedAccounts', () => {
  // day 20 454 is a Thursday (weeks start on Thursdays) and 2026-01-01 (month 672)
  const day = 20_454n;
  const gens = [gen(10, [day * DAY - 1n, day * DAY]), gen(11, [(day + 1n) * DAY + 5n])];

  it("counts each account's first appearance and its lowest height per day, week and month, accounts only", () => {
    const rows = [
      [seen('ak_a', 11, 0, 0), seen('ak_a', 10, 1, 2), seen('ct_c', 10, 0, 0), seen('ak_b', 10, 1, 3)],
      // the name rows: ak_a seen earlier in the same micro block
      [seen('ak_a', 10, 1, 1), seen('ak_b', 10, 0, 4)],
    ];
    const { firstSeen, active } = countedAccounts(gens, { rows, numbers });
    const a = NUMBERS.get('ak_a')!;
    const b = NUMBERS.get('ak_b')!;
    expect(firstSeen.accounts.map((n, i) => [n, firstSeen.heights[i], firstSeen.days[i]])).to.deep.equal([
      [a, 10, Number(day)],
      [b, 10, Number(day) - 1],
    ]);
    const d = Number(day);
    const week = Math.floor(d / 7);
    expect(
      active.accounts.map((n, i) => `${n} ${active.intervalBy[i]} ${active.starts[i]} ${active.heights[i]}`).sort(),
    ).to.deep.equal(
      [
        `${a} day ${d} 10`,
        `${a} day ${d + 1} 11`,
        `${a} week ${week} 10`,
        `${a} month 672 10`,
        `${b} day ${d} 10`,
        `${b} day ${d - 1} 10`,
        // day − 1 is a Wednesday (the week before) and 2025-12-31 (month 671)
        `${b} week ${week - 1} 10`,
        `${b} week ${week} 10`,
        `${b} month 671 10`,
        `${b} month 672 10`,
      ].sort(),
    );
  });

  it('refuses a continued generation, and leaves out an appearance without its micro block as the join does', () => {
    expect(() => countedAccounts([gen(3, [0n], 1)], { rows: [], numbers })).to.throw(RangeError, /continues/);
    const { firstSeen } = countedAccounts(gens, { rows: [[seen('ak_a', 11, 4, 0)]], numbers });
    expect(firstSeen.accounts).to.deep.equal([]);
  });
});
