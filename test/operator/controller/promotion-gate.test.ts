import { expect } from 'chai';
import { promotionBlockers } from '../../../src/operator/controller/promotion-gate.ts';
import type { ProbeResult } from '../../../src/operator/controller/status-probe.ts';

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
    { name: 'a lag above K', probe: { lag: 4 }, want: 'lag 4 above 3' },
    { name: 'an unknown lag', probe: { lag: undefined }, want: 'lag unknown (no node height)' },
  ];
  for (const c of cases) {
    it(`refuses ${c.name}`, () => expect(promotionBlockers({ ...healthy, ...c.probe }, 3)).to.deep.equal([c.want]));
  }
});
