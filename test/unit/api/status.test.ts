import { expect } from 'chai';
import { heartbeatTimeoutSeconds, statusReport, SYNCED_MAX_LAG } from '../../../src/api/status/sync-report.ts';
import type { SyncState } from '../../../src/db/queries/sync-state.ts';
import { protocolReport } from '../../../src/chain/protocols.ts';

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
  const report = (s: Partial<SyncState>, maxBlockAge = 900, nodeHeight: number | null = 101, contiguous = true) =>
    statusReport({
      state: { ...state, ...s },
      nodeHeight,
      contiguous,
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
      contiguous: true,
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
  it('is synced only within the lag bound, with a live populator, no reload and no gap', () => {
    expect(report({}, 900, 100 + SYNCED_MAX_LAG).body.synced).to.equal(true);
    expect(report({}, 900, 101 + SYNCED_MAX_LAG).body.synced).to.equal(false);
    expect(report({}, 900, 99 - SYNCED_MAX_LAG).body).to.include({ synced: false, lag: -SYNCED_MAX_LAG - 1 });
    expect(report({ status: 'reloading' }).body.synced).to.equal(false);
    expect(report({}, 900, 101, false).body).to.include({ synced: false, contiguous: false });
    expect(report({ heartbeatAt: new Date(now - 61_000) }).body.synced).to.equal(false);
  });
  it("takes the lag from the node's height now, not from the populator's last write", () => {
    expect(report({ nodeHeight: 101 }, 900, 150).body).to.include({ node_height: 150, lag: 50, synced: false });
  });
  it('is 503, not synced, with node_height and lag null while the node cannot be reached', () => {
    const { ok, body } = report({}, 900, null);
    expect(ok).to.equal(false);
    expect(body).to.include({ reason: 'the node cannot be reached', node_height: null, lag: null, synced: false });
  });
  it('is 503 and not alive as soon as the populator stopped cleanly, however fresh its heartbeat', () => {
    const { ok, body } = report({ status: 'stopped', heartbeatAt: new Date(now) });
    expect(ok).to.equal(false);
    expect(body).to.include({ reason: 'the populator has stopped', synced: false });
    expect(body.populator).to.include({ status: 'stopped', alive: false });
  });
  it('is 503 and not synced while the populator cannot advance, saying why, until a step succeeds again', () => {
    for (const status of ['node_unavailable', 'error']) {
      const { ok, body } = report({ status, lastError: 'no node sent the code of ct_x' });
      expect(ok, status).to.equal(false);
      expect(body, status).to.include({
        synced: false,
        reason: 'the populator cannot advance: no node sent the code of ct_x',
      });
      expect(body.populator, status).to.include({ alive: true, last_error: 'no node sent the code of ct_x' });
    }
    // the node out of reach is said first: the server sees it too
    expect(report({ status: 'node_unavailable' }, 900, null).body.reason).to.equal('the node cannot be reached');
    expect(report({ status: 'catching_up' }).ok).to.equal(true);
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

  it('lists the derived areas behind the stored heights, a failing one with its error, without changing OK or synced', () => {
    const failingSince = new Date(now - 60_000);
    const { ok, body } = report({
      derivations: [
        { area: 'tokens', next: 0, to: 90 },
        { area: 'stats', next: 40, to: 100, failingSince, error: 'statistics broken' },
      ],
    });
    expect(ok).to.equal(true);
    expect(body.synced).to.equal(true);
    expect((body.populator as Record<string, unknown>).derivations).to.deep.equal([
      { area: 'tokens', from: 0, to: 90, failing_since: null, error: null },
      { area: 'stats', from: 40, to: 100, failing_since: failingSince.toISOString(), error: 'statistics broken' },
    ]);
    expect((report({}).body.populator as Record<string, unknown>).derivations).to.deep.equal([]);
  });

  it('shows the stored chain’s protocol, one it does not know as such, without changing OK or synced', () => {
    expect(report({}).body.protocol).to.equal(null);
    const unknown = protocolReport(8, 250);
    const { ok, body } = statusReport({
      state,
      nodeHeight: 101,
      contiguous: true,
      nowMs: now,
      maxBlockAge: 900,
      heartbeatTimeout: 60,
      version: '1.2.3',
      decodeErrors: 0,
      protocol: unknown,
    });
    expect(ok).to.equal(true);
    expect(body).to.deep.include({
      synced: true,
      protocol: { version: 8, name: null, known: false, rules: 7, since_height: 250 },
    });
  });

  it('lists the read replicas of a server reading standbys, and nothing of them otherwise', () => {
    expect(report({}).body).to.not.have.property('read_replicas');
    const replica = {
      url: 'postgres://mdw:***@standby-1/mdw',
      serving: true,
      reachable: true,
      replayed: '0/3000060',
      lagSeconds: 0.5,
      lagBytes: 120,
    };
    const { ok, body } = statusReport({
      state,
      nodeHeight: 101,
      contiguous: true,
      nowMs: now,
      maxBlockAge: 900,
      heartbeatTimeout: 60,
      version: '1.2.3',
      decodeErrors: 0,
      replicas: [replica, { ...replica, serving: false, reachable: false, lagSeconds: null, lagBytes: null }],
    });
    expect(ok).to.equal(true);
    expect(body.read_replicas).to.deep.equal([
      { url: replica.url, serving: true, reachable: true, replayed_lsn: '0/3000060', lag_seconds: 0.5, lag_bytes: 120 },
      {
        url: replica.url,
        serving: false,
        reachable: false,
        replayed_lsn: '0/3000060',
        lag_seconds: null,
        lag_bytes: null,
      },
    ]);
  });
});
