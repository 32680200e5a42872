import { expect } from 'chai';
import type { NodeFindings } from '../../../src/node/node-probe.ts';
import { configYaml, logLine, middlewareGaps, nodeGaps, probeReport } from '../../../src/indexer/sync/node-gaps.ts';

const ALL_ON: NodeFindings = {
  dryRun: 'on',
  internalDryRun: 'on',
  debugEndpoints: 'on',
  gasCap: 'on',
  dryRunTimeLimit: 'unknown',
  stateHistory: 'on',
};
const DRY_RUN_OFF: NodeFindings = {
  ...ALL_ON,
  dryRun: 'off',
  gasCap: 'unknown',
  internalDryRun: 'off',
  debugEndpoints: 'off',
};

describe('node gaps: the areas a node leaves empty and the configuration that fills them', () => {
  it('finds none where the node allows everything, whatever it left unknown', () => {
    const none = nodeGaps(ALL_ON, { hyperchain: true });
    expect(none.gaps).to.deep.equal([]);
    expect(none.config).to.deep.equal([]);
    expect(logLine(none)).to.equal('node probe: this node leaves no area empty');
    const unknown = nodeGaps({ ...ALL_ON, dryRun: 'unknown', stateHistory: 'unknown' }, { hyperchain: false });
    expect(unknown.gaps).to.deep.equal([]);
  });

  it('names every area dry-runs serve, and pending transactions, where dry-runs and debug endpoints are off', () => {
    const node = nodeGaps(DRY_RUN_OFF, { hyperchain: false });
    expect(node.gaps.map((g) => g.area)).to.deep.equal(['tokens', 'int_calls', 'verify_state', 'pending_txs']);
    expect(node.config).to.deep.equal([
      'http.endpoints.dry-run: true',
      'http.endpoints.debug: true',
      'http.internal.debug_endpoints: true',
    ]);
    expect(logLine(node)).to.equal(
      'node probe: this node leaves tokens, int_calls, verify_state, pending_txs empty (no external dry-run; no debug ' +
        'endpoints); node configuration that fills them: http.endpoints.dry-run: true, http.endpoints.debug: true, ' +
        'http.internal.debug_endpoints: true',
    );
    // a hyperchain's reads are dry-runs too
    expect(nodeGaps(DRY_RUN_OFF, { hyperchain: true }).gaps.map((g) => g.area)).to.include('hyperchain');
  });

  it('gives each area all its causes: a low gas cap and collected state', () => {
    const node = nodeGaps({ ...ALL_ON, gasCap: 'off', stateHistory: 'off' }, { hyperchain: false });
    expect(node.gaps).to.deep.equal([
      {
        area: 'tokens',
        because: [
          "its dry-run gas cap refuses the middleware's requests (6 calls, 6000000 gas)",
          'old state garbage-collected (410)',
        ],
      },
      {
        area: 'int_calls',
        because: [
          "its dry-run gas cap refuses the middleware's requests (6 calls, 6000000 gas)",
          'old state garbage-collected (410)',
        ],
      },
      {
        area: 'verify_state',
        because: ["its dry-run gas cap refuses the middleware's requests (6 calls, 6000000 gas)"],
      },
      { area: 'call_infos', because: ['old state garbage-collected (410)'] },
    ]);
    expect(configYaml(node.config)).to.equal(
      'http:\n  external:\n    gas_limit: 6000000\nchain:\n  garbage_collection:\n    enabled: false\n',
    );
  });

  it("leaves an area to the middleware's gaps only when every node leaves it (a request goes on to the next node)", () => {
    const off = nodeGaps(DRY_RUN_OFF, { hyperchain: false });
    const pruned = nodeGaps({ ...ALL_ON, stateHistory: 'off', debugEndpoints: 'unknown' }, { hyperchain: false });
    expect(middlewareGaps([off, pruned])).to.deep.equal(['tokens', 'int_calls', 'pending_txs']);
    expect(middlewareGaps([pruned, off]), 'the mempool is the first node’s only').to.deep.equal([
      'tokens',
      'int_calls',
    ]);
    expect(middlewareGaps([])).to.deep.equal([]);
  });

  it('reports each node as /mdw/v3/status has it, the YAML as a node reads it', () => {
    const report = probeReport([nodeGaps(DRY_RUN_OFF, { hyperchain: false })], new Date(Date.UTC(2026, 10, 28)));
    expect(report).to.deep.equal({
      probed_at: '2026-11-28T00:00:00.000Z',
      gaps: ['tokens', 'int_calls', 'verify_state', 'pending_txs'],
      nodes: [
        {
          node: 0,
          dry_run: 'off',
          internal_dry_run: 'off',
          debug_endpoints: 'off',
          gas_cap: 'unknown',
          dry_run_time_limit: 'unknown',
          state_history: 'on',
          gaps: [
            { area: 'tokens', because: ['no external dry-run'] },
            { area: 'int_calls', because: ['no external dry-run'] },
            { area: 'verify_state', because: ['no external dry-run'] },
            { area: 'pending_txs', because: ['no debug endpoints'] },
          ],
          config: 'http:\n  endpoints:\n    dry-run: true\n    debug: true\n  internal:\n    debug_endpoints: true\n',
        },
      ],
    });
  });
});
