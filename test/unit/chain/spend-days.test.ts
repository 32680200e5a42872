/**
 * @module The spends per height and UTC day (migration 1061, /middleware/transactions/rate): counted and summed
 * exactly, split at midnight, and a stored SpendTx's amount read from bytes the aepp-sdk built.
 */
import { expect } from 'chai';
import { buildTx, decode, MemoryAccount, Tag } from '@aeternity/aepp-sdk';
import { spendsPerDay, spendsPerHeightDay, storedSpendAmount } from '../../../src/chain/spend-days.ts';
import { utcDay } from '../../../src/chain/stats-intervals.ts';

const at = (iso: string): bigint => BigInt(Date.parse(iso));
const BIG = 2n ** 64n + 7n;

describe('spends per height and UTC day', () => {
  it('counts and sums per height and day, a generation crossing midnight in two rows, amounts past 2^53 exact', () => {
    const totals = spendsPerHeightDay([
      { height: 8, microTimeMs: at('2026-01-02T00:00:03Z'), amount: BIG },
      { height: 7, microTimeMs: at('2026-01-01T23:59:57Z'), amount: 5n },
      { height: 7, microTimeMs: at('2026-01-01T23:59:57Z'), amount: BIG },
      { height: 7, microTimeMs: at('2026-01-02T00:00:00Z'), amount: 0n },
    ]);
    const day = utcDay(Date.parse('2026-01-01T00:00:00Z'));
    expect(totals).to.deep.equal([
      { height: 7, day, count: 2, amount: BIG + 5n },
      { height: 7, day: day + 1, count: 1, amount: 0n },
      { height: 8, day: day + 1, count: 1, amount: BIG },
    ]);
    expect(spendsPerDay(totals)).to.deep.equal([
      { day, count: 2, amount: BIG + 5n },
      { day: day + 1, count: 2, amount: BIG },
    ]);
    expect(spendsPerHeightDay([])).to.deep.equal([]);
  });

  it('adds kept days and decoded heights of the same day together, in day order', () => {
    expect(
      spendsPerDay([
        { day: 3, count: 1, amount: 1n },
        { day: 1, count: 4, amount: BIG },
        { day: 3, count: 2, amount: BIG },
      ]),
    ).to.deep.equal([
      { day: 1, count: 4, amount: BIG },
      { day: 3, count: 3, amount: BIG + 1n },
    ]);
  });

  it("reads a stored SpendTx's amount from its signed bytes, past 2^53", () => {
    const sender = MemoryAccount.generate().address;
    const recipient = MemoryAccount.generate().address;
    for (const amount of [0n, 1n, 2n ** 53n + 1n, BIG]) {
      const spend = buildTx({ tag: Tag.SpendTx, senderId: sender, recipientId: recipient, amount, nonce: 1 });
      const signed = buildTx({
        tag: Tag.SignedTx,
        encodedTx: decode(spend),
        signatures: [new Uint8Array(64).fill(1)],
      });
      expect(storedSpendAmount(decode(signed)), String(amount)).to.equal(amount);
    }
  });
});
