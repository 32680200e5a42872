/** @module A long job's progress line: its numbers, and at most one line per interval. */
import { expect } from 'chai';
import { ProgressLine, progressFields } from '../../src/base/progress-line.ts';
import { capturedLog } from '../support/captured-log.ts';

describe('progressFields(done, total, elapsedMs)', () => {
  it('gives the rate since the start and the seconds left at that rate', () => {
    expect(progressFields(500, 2000, 10_000)).to.deep.equal({
      done: 500,
      total: 2000,
      perSecond: 50,
      secondsLeft: 30,
    });
    expect(progressFields(2000, 2000, 10_000).secondsLeft).to.equal(0);
  });

  it('says nothing of the time left before anything is done', () => {
    expect(progressFields(0, 10, 5000)).to.deep.equal({ done: 0, total: 10, perSecond: 0, secondsLeft: null });
  });
});

describe('ProgressLine', () => {
  const settle = () => new Promise((resolve) => setImmediate(resolve));

  it('logs at most once per interval, with done of total and its fields', async () => {
    const { log, lines } = capturedLog();
    let now = 0;
    const line = new ProgressLine({ log, message: 'heights verified', total: 100, intervalMs: 10_000, now: () => now });
    for (let i = 0; i < 10; i++) {
      now += 3000; // a step every 3 s: a line at 12 s, 24 s
      line.advance(5, { part: 'x' });
    }
    await settle();
    expect(lines.map((l) => [l.msg, l.done, l.total, l.part])).to.deep.equal([
      ['heights verified', 20, 100, 'x'],
      ['heights verified', 40, 100, 'x'],
    ]);
    // 20 in 12 s: 1.7 per second, 80 left
    expect([lines[0]!.perSecond, lines[0]!.secondsLeft]).to.deep.equal([1.7, 48]);
  });

  it('counts a resumed job from where it was, and its rate from this run only', async () => {
    const { log, lines } = capturedLog();
    let now = 0;
    const line = new ProgressLine({ log, message: 'm', total: 1000, doneBefore: 900, intervalMs: 0, now: () => now });
    now = 10_000;
    line.advance(50);
    await settle();
    expect([lines[0]!.done, lines[0]!.total, lines[0]!.perSecond, lines[0]!.secondsLeft]).to.deep.equal([
      950, 1000, 5, 10,
    ]);
  });

  it('says done and the rate only when the total is not known beforehand', async () => {
    const { log, lines } = capturedLog();
    let now = 0;
    const line = new ProgressLine({ log, message: 'm', total: undefined, intervalMs: 0, now: () => now });
    now = 2000;
    line.advance(10);
    await settle();
    expect([lines[0]!.done, lines[0]!.perSecond]).to.deep.equal([10, 5]);
    expect(lines[0]).not.to.have.any.keys('total', 'secondsLeft');
  });
});
