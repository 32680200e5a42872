import { expect } from 'chai';
import { PrimaryPositions } from '../../../src/db/connection/replica-lag.ts';

describe('db/replica-lag: a standby lags since the primary was first seen beyond it', () => {
  it('counts from the first position beyond the replay, not from the newest', () => {
    const p = new PrimaryPositions();
    p.observe(100n, 1000);
    p.observe(200n, 2000);
    p.observe(300n, 3000);
    expect(p.lagMs(150n, 5000)).to.equal(3000);
    expect(p.lagMs(99n, 5000)).to.equal(4000);
    expect(p.lagMs(300n, 5000)).to.equal(0);
    expect(p.newest).to.equal(300n);
  });

  it('an idle primary the standby has replayed is no lag, however old its last commit', () => {
    const p = new PrimaryPositions();
    p.observe(100n, 0);
    p.observe(100n, 60_000);
    expect(p.lagMs(100n, 120_000)).to.equal(0);
  });

  it('a position seen again keeps its first moment; forgetting keeps the newest', () => {
    const p = new PrimaryPositions();
    p.observe(100n, 1000);
    p.observe(200n, 2000);
    p.observe(200n, 9000);
    expect(p.lagMs(100n, 10_000)).to.equal(8000);
    p.forgetUpTo(500n);
    expect(p.newest).to.equal(200n);
    expect(p.lagMs(150n, 10_000)).to.equal(8000);
    expect(p.lagMs(200n, 10_000)).to.equal(0);
  });
});
