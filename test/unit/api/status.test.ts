import { expect } from 'chai';
import { heartbeatTimeoutSeconds, statusReport, SYNCED_MAX_LAG } from '../../../src/api/status.ts';
import type { SyncState } from '../../../src/db/queries/stats.ts';

describe('statusReport', () => {
  const now = 1_700_000_000_000;
  const state: SyncState = {
    topHeight: 100,
    topTimeMs: now - 30_000,
    nodeHeight: 101,
    heartbeatAt: new Date(now - 5000),
    status: 'following',
    lastError: undefined,
  };
  const report = (s: Partial<SyncState>, maxBlockAge = 900) =>
    statusReport({
      state: { ...state, ...s },
      nowMs: now,
      maxBlockAge,
      heartbeatTimeout: 60,
      version: '1.2.3',
      decodeErrors: 2,
    });

  it('is OK with heights, lag, block age and the original fields', () => {
    const { ok, body } = report({});
    expect(ok).to.equal(true);
    expect(body).to.deep.include({
      OK: true,
      height: 100,
      node_height: 101,
      lag: 1,
      synced: true,
      seconds_since_last_block: 30,
      queue_length: 1,
      version: '1.2.3',
      errors_last_500_blocks: 2,
    });
  });
  it('is not OK when the newest block is older than the maximum age', () => {
    const { ok, body } = report({}, 29);
    expect(ok).to.equal(false);
    expect(body.reason).to.equal('the newest block is 30 seconds old (maximum 29)');
  });
  it('is not OK when the heartbeat is stale or missing (populator stuck or never ran)', () => {
    expect(report({ heartbeatAt: new Date(now - 61_000) }).body).to.include({
      OK: false,
      reason: 'the populator is stuck: no heartbeat',
    });
    expect(report({ heartbeatAt: undefined }).ok).to.equal(false);
  });
  it('is synced only within the lag bound and not while reloading', () => {
    expect(report({ nodeHeight: 100 + SYNCED_MAX_LAG }).body.synced).to.equal(true);
    expect(report({ nodeHeight: 101 + SYNCED_MAX_LAG }).body.synced).to.equal(false);
    expect(report({ status: 'reloading' }).body.synced).to.equal(false);
    expect(report({ nodeHeight: undefined }).body).to.include({ synced: false, lag: null });
  });
  it('handles an empty database without throwing', () => {
    const { ok, body } = report({ topHeight: undefined, topTimeMs: undefined });
    expect(ok).to.equal(false);
    expect(body).to.include({ height: null, seconds_since_last_block: null });
  });
  it('waits ten polls, at least a minute, before calling the populator stuck', () => {
    expect(heartbeatTimeoutSeconds(2000)).to.equal(60);
    expect(heartbeatTimeoutSeconds(30_000)).to.equal(300);
  });
});
