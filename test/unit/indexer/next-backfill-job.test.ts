/**
 * @module The backfill's choice of the area it derives next (derive-backfill.ts nextJob): DERIVED_AREAS' order, but
 * while the populator catches up the balances, which gather, wait for a whole stretch (issue 40): of heights or of
 * transactions (issue 76); the internal calls do not gather.
 */
import { expect } from 'chai';
import { nextJob, readsBelow } from '../../../src/indexer/derived/derive-backfill.ts';
import { DERIVED_AREAS } from '../../../src/indexer/derived/derived-areas.ts';
import type { PendingBackfill } from '../../../src/db/queries/pending-backfills.ts';

const pending = (area: string, next: number, to: number, failing = false): PendingBackfill => ({
  area,
  next,
  to,
  ...(failing ? { failingSince: new Date(0), error: 'node down' } : {}),
});

describe('nextJob (derive-backfill.ts)', () => {
  it('takes the areas in the order they derive', () => {
    const stats = pending('stats', 0, 9);
    const transfers = pending('transfers', 5, 9);
    expect(nextJob([stats, transfers], false)).to.equal(transfers);
    expect(nextJob([stats, transfers], true)).to.equal(transfers);
    expect(nextJob([], true)).to.equal(undefined);
  });

  it('derives the GA calls before the transfers, which read them (issue 89 item 9), failing or not', () => {
    const transfers = pending('transfers', 0, 9);
    const ga = pending('ga', 5, 9);
    expect(nextJob([transfers, ga], false)).to.equal(ga);
    expect(nextJob([transfers, ga], true)).to.equal(ga);
    // a failing ga holds the transfers up (retried first), where fees without its gas would be wrong
    const failing = pending('ga', 5, 9, true);
    expect(nextJob([transfers, failing], false)).to.equal(failing);
    expect(nextJob([transfers], false)).to.equal(transfers);
  });

  it('leaves the balances waiting while catching up, and the areas after them go on', () => {
    const balances = pending('balances', 0, 2999);
    const stats = pending('stats', 10, 20);
    expect(nextJob([balances], true)).to.equal(undefined);
    expect(nextJob([balances, stats], true)).to.equal(stats);
    // caught up, or a whole stretch pending: derived (after the statistics, which come first)
    expect(nextJob([balances], false)).to.equal(balances);
    expect(nextJob([pending('balances', 0, 9_999)], true)?.area).to.equal('balances');
  });

  it('derives the balances only below the heights the internal calls and GA calls have still to derive (issue 76)', () => {
    const balances = pending('balances', 0, 99);
    expect(nextJob([balances, pending('int_calls', 0, 99)], false)?.area).to.equal('int_calls');
    // catching up, internal calls pending (a batch that could not ask them) derive at once, before the balances
    const stretch = pending('balances', 0, 19_999);
    const calls = pending('int_calls', 50, 99);
    expect(nextJob([calls, stretch], true)).to.equal(calls);
    // once they are derived, a whole stretch of balances goes on
    expect(nextJob([stretch], true)).to.equal(stretch);
    expect(
      readsBelow(
        [pending('int_calls', 50, 99), pending('ga', 70, 99), pending('stats', 10, 99)],
        DERIVED_AREAS.get('balances')!,
      ),
    ).to.equal(50);
    // a failing read area holds them up no more: its gaps are reconciled with the node's balances
    const failing = pending('int_calls', 0, 99, true);
    expect(readsBelow([failing], DERIVED_AREAS.get('balances')!)).to.equal(Infinity);
  });

  it('derives the balances while catching up once their pending heights hold a stretch’s transactions (issue 76)', () => {
    const balances = pending('balances', 0, 199);
    expect(nextJob([balances], true, new Set(['balances']))).to.equal(balances);
    expect(nextJob([balances], true, new Set(['int_calls']))).to.equal(undefined);
    // still only below what their reads have to derive
    expect(nextJob([pending('ga', 0, 199), balances], true, new Set(['balances']))?.area).to.equal('ga');
  });

  it('retries failing balances at once, stretch or not', () => {
    const failing = pending('balances', 0, 9, true);
    expect(nextJob([failing], true)).to.equal(failing);
  });
});
