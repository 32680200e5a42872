/** @module QuotaBook (pure): the quota decisions a server makes from memory, and what its flushes carry. */
import { expect } from 'chai';
import { QuotaBook } from '../../../../src/api/quota/quota-book.ts';
import type { Tier } from '../../../../src/api/quota/tiers.ts';

const TIER: Tier = {
  name: 'free',
  requestsPerSecond: 3,
  requestsPerDay: 5,
  websocketConnections: 1,
  subscriptions: 1,
  exports: 1,
};
// 12:00:00.250 UTC of a day: its second ends in 750 ms, its day in 12 hours
const NOON = Date.UTC(2026, 10, 27, 12, 0, 0, 250);

describe('QuotaBook', () => {
  it('lets requests in while each window has room, counting their cost, and says what remains and when it resets', () => {
    const book = new QuotaBook();
    const first = book.take('key_a', TIER, 2, NOON);
    expect(first.allowed).to.equal(true);
    expect(first.windows.map((w) => [w.window.policy, w.quota, w.remaining, w.resetSeconds])).to.deep.equal([
      ['second', 3, 1, 1],
      ['day', 5, 3, 43_200],
    ]);
    const refused = book.take('key_a', TIER, 2, NOON + 10);
    expect(refused).to.deep.include({ allowed: false, retryAfter: 1 });
    // a refusal counts nothing
    expect(book.take('key_a', TIER, 1, NOON + 20).allowed).to.equal(true);
    expect(book.take('key_a', TIER, 1, NOON + 30).allowed).to.equal(false);
  });

  it('starts a new second from zero, while the day keeps counting until it refuses with the time to midnight', () => {
    const book = new QuotaBook();
    for (let s = 0; s < 5; s++) expect(book.take('key_a', TIER, 1, NOON + s * 1000).allowed).to.equal(true);
    const refused = book.take('key_a', TIER, 1, NOON + 5000);
    expect(refused.allowed).to.equal(false);
    expect(refused.retryAfter).to.equal(43_195);
    // another subject has its own counts
    expect(book.take('addr:10.0.0.1', TIER, 1, NOON + 5000).allowed).to.equal(true);
  });

  it('lets one request costlier than a whole window in when nothing else used that window, its own charges included', () => {
    const book = new QuotaBook();
    expect(book.take('key_a', TIER, 4, NOON).allowed).to.equal(true);
    expect(book.take('key_a', TIER, 1, NOON + 1).allowed).to.equal(false);
    // an export: its request's unit, then the rest of its cost charged by the same request
    const second = NOON + 1000;
    expect(book.take('key_b', TIER, 1, second).allowed).to.equal(true);
    expect(book.take('key_b', TIER, 19, second, 1).allowed).to.equal(true);
    expect(book.take('key_c', TIER, 1, second).allowed).to.equal(true);
    expect(book.take('key_c', TIER, 1, second).allowed).to.equal(true);
    expect(book.take('key_c', TIER, 19, second, 1).allowed).to.equal(false);
  });

  it("hands its own counts to a flush once, and takes everyone's back as what is known", () => {
    const book = new QuotaBook();
    book.take('key_a', TIER, 1, NOON);
    const { deltas, subjects } = book.drain(NOON + 1);
    expect(subjects).to.deep.equal(['key_a']);
    expect(deltas).to.have.deep.members([
      { subject: 'key_a', windowSeconds: 1, windowStart: NOON / 1000 - 0.25, used: 1 },
      { subject: 'key_a', windowSeconds: 86_400, windowStart: Date.UTC(2026, 10, 27) / 1000, used: 1 },
    ]);
    expect(book.drain(NOON + 2).deltas).to.deep.equal([]);
    // the other servers let in three more in the day
    book.learn([{ subject: 'key_a', windowSeconds: 86_400, windowStart: Date.UTC(2026, 10, 27) / 1000, used: 4 }]);
    expect(book.take('key_a', TIER, 1, NOON + 3).allowed).to.equal(true);
    expect(book.take('key_a', TIER, 1, NOON + 2000).allowed).to.equal(false);
  });

  it('counts what a flush under way carries until the flush answers', () => {
    const book = new QuotaBook();
    for (let i = 0; i < 3; i++) book.take('key_a', TIER, 1, NOON + i * 1000);
    book.drain(NOON + 3000);
    // the flush has not answered: its three are still this server's to count
    expect(book.take('key_a', TIER, 1, NOON + 3000).windows[1]!.remaining).to.equal(1);
    expect(book.take('key_a', TIER, 1, NOON + 3001).allowed).to.equal(true);
    expect(book.take('key_a', TIER, 1, NOON + 3002).allowed).to.equal(false);
  });

  it('gives back what a failed flush took, so the next one adds it', () => {
    const book = new QuotaBook();
    book.take('key_a', TIER, 2, NOON);
    book.drain(NOON + 1);
    book.failed();
    expect(book.drain(NOON + 2).deltas.map((d) => d.used)).to.deep.equal([2, 2]);
  });

  it('forgets the windows that ended once flushed, and keeps the running ones', () => {
    const book = new QuotaBook();
    book.take('key_a', TIER, 1, NOON);
    book.drain(NOON + 1);
    book.learn([]);
    expect(book.size).to.equal(2);
    expect(book.drain(NOON + 2000).subjects).to.deep.equal(['key_a']);
    expect(book.size).to.equal(1);
  });
});
