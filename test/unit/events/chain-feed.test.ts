/** @module Tests of the chain feed's range bookkeeping: duplicates, gaps, forks, reloads. */
import { expect } from 'chai';
import { completeChunk, noteNotification, takeChunk, type FeedState } from '../../../src/events/chain-feed.ts';

const MEMORY = 100;

/** drain runs the state to completion and lists the chunks read. */
function drain(state: FeedState, chunk = 10): { chunks: [number, number][]; state: FeedState } {
  const chunks: [number, number][] = [];
  for (let c = takeChunk(state, chunk); c; c = takeChunk(state, chunk)) {
    chunks.push([c.from, c.to]);
    state = completeChunk(state, c.from, c.to);
  }
  return { chunks, state };
}

describe('chain feed planning', () => {
  const start: FeedState = { next: 101, wanted: 100 };

  it('reads a notified range once, in chunks, in height order', () => {
    const state = noteNotification(start, { from: 101, to: 125 }, MEMORY);
    expect(drain(state).chunks).to.deep.equal([
      [101, 110],
      [111, 120],
      [121, 125],
    ]);
    expect(drain(state).state).to.deep.equal({ next: 126, wanted: 125 });
  });

  it('does nothing for a duplicate notification of heights already read', () => {
    const done = drain(noteNotification(start, { from: 101, to: 105 }, MEMORY)).state;
    const again = noteNotification(done, { from: 106, to: 105 }, MEMORY);
    expect(drain(again).chunks).to.deep.equal([]);
  });

  it('fills a gap when a notification was missed', () => {
    const state = noteNotification(start, { from: 104, to: 106 }, MEMORY);
    expect(drain(state).chunks).to.deep.equal([[101, 106]]);
  });

  it('rechecks heights a fork rewrote, then continues past the old top', () => {
    const atTop = drain(noteNotification(start, { from: 101, to: 110 }, MEMORY)).state;
    const forked = noteNotification(atTop, { from: 107, to: 112, rollbackFrom: 107 }, MEMORY);
    expect(drain(forked).chunks).to.deep.equal([[107, 112]]);
    expect(drain(forked).state).to.deep.equal({ next: 113, wanted: 112 });
  });

  it('rechecks a reloaded middle range without re-reading the heights above it', () => {
    const atTop = drain(noteNotification(start, { from: 101, to: 150 }, MEMORY)).state;
    const reloaded = noteNotification(atTop, { from: 120, to: 121, rollbackFrom: 120 }, MEMORY);
    expect(drain(reloaded).chunks).to.deep.equal([
      [120, 129],
      [130, 139],
      [140, 149],
      [150, 150],
    ]);
    // …and the rechecked chunks are filtered by the feed's memory of sent blocks, so only
    // blocks that really changed go out. Heights above the old top are read once:
    const after = drain(reloaded).state;
    expect(drain(noteNotification(after, { from: 151, to: 151 }, MEMORY)).chunks).to.deep.equal([[151, 151]]);
  });

  it('never rechecks deeper than its memory of sent blocks', () => {
    const atTop = drain(noteNotification(start, { from: 101, to: 300 }, MEMORY)).state;
    const reloadAll = noteNotification(atTop, { from: 0, to: 300, rollbackFrom: 0 }, MEMORY);
    expect(reloadAll.recheckFrom).to.equal(301 - MEMORY);
  });

  it('keeps a lower recheck that arrived while a chunk was being read', () => {
    const atTop = drain(noteNotification(start, { from: 101, to: 130 }, MEMORY)).state;
    let state = noteNotification(atTop, { from: 125, to: 130, rollbackFrom: 125 }, MEMORY);
    const chunk = takeChunk(state, 10)!;
    expect([chunk.from, chunk.to]).to.deep.equal([125, 130]);
    state = noteNotification(state, { from: 110, to: 131, rollbackFrom: 110 }, MEMORY);
    state = completeChunk(state, chunk.from, chunk.to);
    expect(drain(state).chunks).to.deep.equal([
      [110, 119],
      [120, 129],
      [130, 131],
    ]);
  });

  it('starts on an empty chain at height 0', () => {
    const empty: FeedState = { next: 0, wanted: -1 };
    expect(drain(noteNotification(empty, { from: 0, to: 2 }, MEMORY)).chunks).to.deep.equal([[0, 2]]);
  });
});
