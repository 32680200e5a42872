import { expect } from 'chai';
import { statusBody } from '../../../../src/api/mdw/resources/status-source.ts';
import type { StoredTotals } from '../../../../src/db/queries/sync-state.ts';
import { protocolReport } from '../../../../src/chain/protocols.ts';

describe('/v3/status body', () => {
  const totals: StoredTotals = {
    topHeight: 100,
    txCount: 7,
    lastMigration: '0101_x',
    nodeHeight: 101,
    populatorStatus: 'synced',
    heartbeatAt: new Date(),
    failedAreas: [],
    aex9StateTokens: 0,
    incompleteAreas: [],
    deferredBuilds: [],
    pendingRepairs: [],
  };
  const body = (over: Partial<StoredTotals>, nodeTop = 101) =>
    statusBody({
      totals: { ...totals, ...over },
      node: { top_block_height: nodeTop },
      gensPerMinute: 0,
      revision: 'r',
    });

  it('is synced within the lag bound and syncing while behind', () => {
    expect(body({})).to.include({ mdw_synced: true, mdw_syncing: false, mdw_height: 100, node_height: 101 });
    expect(body({ populatorStatus: 'catching_up' }, 200)).to.include({ mdw_synced: false, mdw_syncing: true });
  });
  it('carries the stored chain’s protocol as mdw_protocol, a protocol it does not know as such, still synced', () => {
    expect(body({})).to.include({ mdw_protocol: null });
    const withProtocol = statusBody({
      totals,
      node: { top_block_height: 101 },
      gensPerMinute: 0,
      revision: 'r',
      protocol: protocolReport(9, 40),
    });
    expect(withProtocol).to.deep.include({
      mdw_synced: true,
      mdw_protocol: { version: 9, name: null, known: false, rules: 7, since_height: 40 },
    });
  });
  it('is neither synced nor syncing while the populator cannot advance, however small the lag', () => {
    for (const populatorStatus of ['node_unavailable', 'error'])
      expect(body({ populatorStatus }), populatorStatus).to.include({ mdw_synced: false, mdw_syncing: false });
  });
  it('carries the derived areas that fail: area, from which height, since when, why (issue 39)', () => {
    const since = new Date('2026-11-24T20:00:00.000Z');
    expect(body({}).mdw_failed_areas).to.deep.equal([]);
    expect(
      body({ failedAreas: [{ area: 'stats', from: 17, since, error: 'boom at 17' }] }).mdw_failed_areas,
    ).to.deep.equal([{ area: 'stats', from: 17, since: '2026-11-24T20:00:00.000Z', error: 'boom at 17' }]);
  });

  it('carries how many AEX-9 tokens are read from their state (issue 58)', () => {
    expect(body({}).mdw_aex9_state_tokens).to.equal(0);
    expect(body({ aex9StateTokens: 3 }).mdw_aex9_state_tokens).to.equal(3);
  });

  it('carries what the populator found its nodes allow, null before it probed (issue 87)', () => {
    expect(body({}).mdw_node_gaps).to.equal(null);
    const nodeProbe = { probed_at: '2026-11-28T00:00:00.000Z', gaps: ['pending_txs'], nodes: [] };
    expect(body({ nodeProbe }).mdw_node_gaps).to.deep.equal(nodeProbe);
  });
});
