import { expect } from 'chai';
import { promotionBlockers } from '../../../src/operator/controller/promotion-gate.ts';
import { parseStatusBody, type ProbeResult } from '../../../src/operator/controller/status-probe.ts';
import { statusReport, type StatusInputs } from '../../../src/api/status/sync-report.ts';

const healthy: ProbeResult = {
  reachable: true,
  synced: true,
  httpStatus: 200,
  height: 100,
  nodeHeight: 102,
  lag: 2,
  contiguous: true,
  populatorAlive: true,
  secondsSinceHeartbeat: 3,
};

describe('promotionBlockers', () => {
  it('lets a healthy answer within K blocks pass', () => expect(promotionBlockers(healthy, 3)).to.deep.equal([]));
  it('refuses without an answer, or an unreachable endpoint', () => {
    expect(promotionBlockers(undefined, 3)).to.deep.equal(['no status answer yet']);
    expect(promotionBlockers({ reachable: false, synced: false, error: 'timed out' }, 3)).to.deep.equal(['timed out']);
  });
  const cases: { name: string; probe: Partial<ProbeResult>; want: string }[] = [
    { name: 'a 503', probe: { httpStatus: 503, error: 'answered 503' }, want: 'answered 503' },
    { name: 'synced false', probe: { synced: false }, want: 'not synced' },
    { name: 'a sparse range', probe: { contiguous: false }, want: 'stored heights are not contiguous' },
    { name: 'no contiguous field', probe: { contiguous: undefined }, want: 'stored heights are not contiguous' },
    {
      name: 'a stale heartbeat',
      probe: { populatorAlive: false, secondsSinceHeartbeat: 90 },
      want: 'populator not alive (heartbeat 90 s old)',
    },
    { name: 'a lag above K', probe: { lag: 4 }, want: 'lag 4 beyond ±3' },
    { name: 'a store 5 ahead of the node', probe: { lag: -5 }, want: 'lag -5 beyond ±3' },
    { name: 'an unknown lag', probe: { lag: undefined }, want: 'lag unknown (no node height)' },
  ];
  for (const c of cases) {
    it(`refuses ${c.name}`, () => expect(promotionBlockers({ ...healthy, ...c.probe }, 3)).to.deep.equal([c.want]));
  }
});

// The agreed contract, end to end: what the server's own statusReport answers is what the gate reads. (The operator
// never imports the API; this test pins the two sides together.)
describe('promotionBlockers over the server answers of statusReport', () => {
  const nowMs = Date.parse('2026-11-22T12:00:00Z');
  const answer = (over: Partial<StatusInputs> & { heartbeatAgeS?: number; status?: string; top?: number }) => {
    const { heartbeatAgeS = 2, status = 'synced', top = 1000, ...inputs } = over;
    const report = statusReport({
      state: {
        topHeight: top,
        topTimeMs: nowMs - 60_000,
        nodeHeight: top,
        heartbeatAt: new Date(nowMs - heartbeatAgeS * 1000),
        status,
        lastError: undefined,
      },
      nodeHeight: 1001,
      contiguous: true,
      nowMs,
      maxBlockAge: 900,
      heartbeatTimeout: 60,
      version: 'test',
      decodeErrors: 0,
      ...inputs,
    });
    return parseStatusBody(report.ok ? 200 : 503, JSON.stringify(report.body));
  };

  it('passes a healthy generation', () => expect(promotionBlockers(answer({}), 3)).to.deep.equal([]));
  it('refuses a dead populator (stale heartbeat, 503)', () =>
    expect(promotionBlockers(answer({ heartbeatAgeS: 120 }), 3).join()).to.contain('populator not alive'));
  it('refuses a stopped populator', () =>
    expect(promotionBlockers(answer({ status: 'stopped' }), 3).join()).to.contain('populator not alive'));
  it('refuses a frozen height the node has left behind', () =>
    expect(promotionBlockers(answer({ nodeHeight: 1100 }), 3)).to.include('lag 100 beyond ±3'));
  it('refuses a sparse range', () =>
    expect(promotionBlockers(answer({ contiguous: false }), 3)).to.include('stored heights are not contiguous'));
  it('refuses an unreachable node', () =>
    expect(promotionBlockers(answer({ nodeHeight: null }), 3)).to.include('lag unknown (no node height)'));
});
