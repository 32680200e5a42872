import { expect } from 'chai';
import { API_VERSION, KIND } from '../../../src/operator/api/middleware-types.ts';
import {
  PROBE_FAILURE_THRESHOLD,
  ProbeStreaks,
  isTolerated,
  nextStreak,
} from '../../../src/operator/controller/probe-streak.ts';
import type { ProbeResult } from '../../../src/operator/controller/status-probe.ts';

const t0 = new Date('2026-11-21T00:00:00Z');
const t1 = new Date('2026-11-21T00:00:30Z');
const refused: ProbeResult = { reachable: false, synced: false, error: 'connect ECONNREFUSED (ECONNREFUSED)' };
const lagging: ProbeResult = { reachable: true, synced: false, httpStatus: 503, height: 1, nodeHeight: 90, lag: 89 };
const MW = { apiVersion: API_VERSION, kind: KIND, namespace: 'chain', name: 'mainnet' };

describe('nextStreak', () => {
  it('counts failures in a row from the first one’s time', () => {
    const first = nextStreak(undefined, refused, t0);
    expect(first).to.deep.equal({ failures: 1, since: t0.toISOString() });
    expect(nextStreak(first, refused, t1)).to.deep.equal({ failures: 2, since: t0.toISOString() });
  });

  it('ends on any answer, a lagging or failing one too, and when there was no server to ask', () => {
    const run = { failures: 2, since: t0.toISOString() };
    expect(nextStreak(run, lagging, t1)).to.equal(undefined);
    expect(nextStreak(run, { reachable: true, synced: false, httpStatus: 500, error: 'answered 500' }, t1)).to.equal(
      undefined,
    );
    expect(nextStreak(run, undefined, t1)).to.equal(undefined);
  });
});

describe('isTolerated', () => {
  it('tolerates fewer failures than the threshold, three as a readiness probe’s default', () => {
    expect(PROBE_FAILURE_THRESHOLD).to.equal(3);
    const since = t0.toISOString();
    expect(
      [undefined, 1, 2, 3, 4].map((n) => isTolerated(n === undefined ? undefined : { failures: n, since })),
    ).to.deep.equal([false, true, true, false, false]);
  });
});

describe('ProbeStreaks', () => {
  it('keeps each Middleware’s run between passes', () => {
    const streaks = new ProbeStreaks();
    streaks.record(MW, 'u1', refused, t0);
    expect(streaks.record({ ...MW, name: 'testnet' }, 'u2', refused, t1).streak).to.deep.include({ failures: 1 });
    expect(streaks.record(MW, 'u1', refused, t1)).to.deep.equal({ streak: { failures: 2, since: t0.toISOString() } });
    expect(streaks.record(MW, 'u1', lagging, t1)).to.deep.equal({
      streak: undefined,
      answeredAfter: { failures: 2, since: t0.toISOString() },
    });
    expect(streaks.record(MW, 'u1', refused, t1).streak).to.deep.include({ failures: 1 });
  });

  it('says which run a pass ended, by an answer or for want of a server to ask; none when there was none', () => {
    const streaks = new ProbeStreaks();
    expect(streaks.record(MW, 'u1', lagging, t0)).to.deep.equal({ streak: undefined });
    expect(streaks.record(MW, 'u1', undefined, t0)).to.deep.equal({ streak: undefined });
    streaks.record(MW, 'u1', refused, t0);
    streaks.record(MW, 'u1', refused, t1);
    expect(streaks.record(MW, 'u1', undefined, t1)).to.deep.equal({
      streak: undefined,
      unansweredAfter: { failures: 2, since: t0.toISOString() },
    });
    expect(streaks.record(MW, 'u1', lagging, t1)).to.deep.equal({ streak: undefined });
  });

  it('starts afresh for a Middleware made again under the same name, or forgotten', () => {
    const streaks = new ProbeStreaks();
    streaks.record(MW, 'u1', refused, t0);
    expect(streaks.record(MW, 'u2', refused, t1)).to.deep.equal({ streak: { failures: 1, since: t1.toISOString() } });
    streaks.forget(MW);
    expect(streaks.record(MW, 'u2', refused, t1).streak).to.deep.include({ failures: 1 });
    expect(streaks.record(MW, 'u1', lagging, t1)).to.deep.equal({ streak: undefined });
  });
});
