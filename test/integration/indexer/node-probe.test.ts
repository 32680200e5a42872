/**
 * @module Issue 87, told not discovered: at its start the populator probes what its node allows and says, in one log
 * line per node and in /mdw/v3/status's mdw_node_gaps, which areas will be gaps and the node configuration that fills
 * them: against a devnode configured as a node by default (no dry-run group, no debug endpoints, the 3 s limit) and
 * pruning, all of it; against a devnode with everything on, nothing. The sync goes on either way.
 */
import { expect } from 'chai';
import pino from 'pino';
import prom from 'prom-client';
import request from 'supertest';
import { createApp } from '../../../src/api/app.ts';
import { createPool } from '../../../src/db/connection/pool.ts';
import { startPopulator, type Populator } from '../../../src/indexer/sync/populator.ts';
import { startHarness, waitFor, type Harness } from './support/harness.ts';
import { capturedLog, type LogLine } from '../../support/captured-log.ts';
import type { DevnodeOptions } from '../../../src/devnode/index.ts';

/** runs a populator against a devnode configured by `node`, until it stored the top and said what the node allows */
async function probed(
  seed: string,
  node: Omit<DevnodeOptions, 'generate'>,
): Promise<{ h: Harness; populator: Populator; line: LogLine; status: Record<string, unknown> }> {
  const h = await startHarness(8, seed, {}, {}, node);
  const { log, lines } = capturedLog();
  const cfg = h.config({ NODE_INTERNAL_URL: h.devnode.internalUrl });
  const populator = await startPopulator({ cfg, log, registry: new prom.Registry() });
  const said = (): LogLine[] => lines.filter((l) => l.msg.startsWith('node probe:'));
  await waitFor('the probe said what the node allows', async () => said().length > 0);
  const silent = pino({ level: 'silent' });
  const pool = createPool({ databaseUrl: cfg.databaseUrl, schema: cfg.databaseSchema, max: 2 }, silent);
  const app = createApp({ cfg, log: silent, pool, registry: new prom.Registry(), version: 't' });
  let status: Record<string, unknown> = {};
  try {
    await waitFor('the status to show it', async () => {
      status = (await request(app.callback()).get('/mdw/v3/status')).body as Record<string, unknown>;
      return status.mdw_node_gaps !== null;
    });
  } finally {
    await pool.end();
  }
  // the sync went on: the node's top is stored
  await waitFor(
    'the stored top',
    async () =>
      (await h.query<{ h: number }>('mdw', 'SELECT max(height) AS h FROM key_blocks'))[0]?.h === h.devnode.height(),
  );
  expect(said(), 'one line per node').to.have.length(1);
  return { h, populator, line: said()[0]!, status };
}

describe('issue 87: the populator says at its start what its node allows', function () {
  this.timeout(120_000);

  it('against a node with its defaults (no dry-run group, no debug endpoints, 3 s limit) and pruning: every gap and its configuration', async () => {
    const { h, populator, line, status } = await probed('probe-defaults', {
      dryRunEndpoint: false,
      debugEndpoints: false,
      dryRunTimeoutMs: 3000,
      gcHeight: 4,
    });
    try {
      expect(line.level, 'a warning').to.equal(40);
      expect(line).to.include({
        node: h.devnode.externalUrl,
        dryRun: 'off',
        internalDryRun: 'off',
        debugEndpoints: 'off',
        gasCap: 'unknown',
        dryRunTimeLimit: 'unknown',
        stateHistory: 'off',
      });
      expect(line.gaps).to.deep.equal(['tokens', 'int_calls', 'verify_state', 'pending_txs', 'call_infos']);
      expect(line.msg).to.equal(
        'node probe: this node leaves tokens, int_calls, verify_state, pending_txs, call_infos empty (no external ' +
          'dry-run; old state garbage-collected (410); no debug endpoints); node configuration that fills them: ' +
          'http.endpoints.dry-run: true, http.endpoints.debug: true, http.internal.debug_endpoints: true, ' +
          'chain.garbage_collection.enabled: false',
      );
      const yaml =
        'http:\n  endpoints:\n    dry-run: true\n    debug: true\n  internal:\n    debug_endpoints: true\n' +
        'chain:\n  garbage_collection:\n    enabled: false\n';
      expect(line.config).to.equal(yaml);
      const gaps = status.mdw_node_gaps as Record<string, unknown>;
      expect(gaps.gaps).to.deep.equal(['tokens', 'int_calls', 'verify_state', 'pending_txs', 'call_infos']);
      expect(gaps.nodes).to.deep.equal([
        {
          node: 0,
          dry_run: 'off',
          internal_dry_run: 'off',
          debug_endpoints: 'off',
          gas_cap: 'unknown',
          dry_run_time_limit: 'unknown',
          state_history: 'off',
          gaps: [
            { area: 'tokens', because: ['no external dry-run', 'old state garbage-collected (410)'] },
            { area: 'int_calls', because: ['no external dry-run', 'old state garbage-collected (410)'] },
            { area: 'verify_state', because: ['no external dry-run'] },
            { area: 'pending_txs', because: ['no debug endpoints'] },
            { area: 'call_infos', because: ['old state garbage-collected (410)'] },
          ],
          config: yaml,
        },
      ]);
    } finally {
      await populator.stop();
      await h.close();
    }
  });

  it('against a node that allows it all: no gap, everything on but the time limit no request tells', async () => {
    const { h, populator, line, status } = await probed('probe-all-on', {});
    try {
      expect(line.level, 'information').to.equal(30);
      expect(line.msg).to.equal('node probe: this node leaves no area empty');
      expect(line).to.include({
        dryRun: 'on',
        internalDryRun: 'on',
        debugEndpoints: 'on',
        gasCap: 'on',
        dryRunTimeLimit: 'unknown',
        stateHistory: 'on',
      });
      expect(line.gaps).to.deep.equal([]);
      expect(line).to.not.have.property('config');
      const gaps = status.mdw_node_gaps as { gaps: unknown; nodes: { gaps: unknown; config: unknown }[] };
      expect(gaps.gaps).to.deep.equal([]);
      expect(gaps.nodes.map((n) => [n.gaps, n.config])).to.deep.equal([[[], '']]);
    } finally {
      await populator.stop();
      await h.close();
    }
  });
});
