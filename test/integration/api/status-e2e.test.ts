import { expect } from 'chai';
import prom from 'prom-client';
import { startServer } from '../../../src/api/server.ts';
import { loadConfig } from '../../../src/config/middleware.ts';
import { startPopulator } from '../../../src/indexer/sync/populator.ts';
import { startTestNode } from '../../devnode/harness.ts';
import { createTestDatabase } from '../../support/postgres.ts';
import { within } from '../../support/wait.ts';
import { silentLog } from './harness.ts';

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- status bodies are read field by field
type Status = { status: number; body: any };

describe('/middleware/status end to end (devnode → populator → server): the promotion gate’s view', function () {
  // each step is bounded (within, until) so that a hang names its step; a CI run once hung past a 60 s timeout unnamed
  this.timeout(120_000);

  it('follows the node now: lag grows when the populator stops, synced turns false at once, node_height null in an outage', async () => {
    const t = await startTestNode();
    for (let i = 0; i < 5; i++) await t.node.mineKeyBlock();
    const db = await createTestDatabase({ migrated: 'mdw' });
    const cfg = loadConfig({
      DATABASE_URL: db.url,
      DATABASE_SCHEMA: 'mdw',
      NODE_URL: t.node.externalUrl,
      PORT: '0',
      WEBSOCKET_ADDRESS: '127.0.0.1:0',
      POLL_INTERVAL_MS: '100',
      NODE_TIMEOUT_MS: '500',
      STATUS_MAX_BLOCK_AGE: String(10 ** 9),
    });
    let populator = await within(
      'the first populator’s start',
      startPopulator({ cfg, log: silentLog, registry: new prom.Registry() }),
    );
    const server = await startServer({ cfg, log: silentLog, registry: new prom.Registry(), version: 't' });
    const status = async (): Promise<Status> => {
      const res = await fetch(`${server.httpUrl}/middleware/status`, { signal: AbortSignal.timeout(10_000) });
      return { status: res.status, body: await res.json() };
    };
    const until = async (what: string, ok: (s: Status) => boolean): Promise<Status> => {
      let last: Status | undefined;
      for (let i = 0; i < 150; i++) {
        last = await status();
        if (ok(last)) return last;
        await new Promise((r) => setTimeout(r, 100));
      }
      throw new Error(`${what}: last status ${JSON.stringify(last)}`);
    };
    try {
      const top = t.node.height();
      const synced = await until('synced', (s) => s.body.synced === true && s.body.height === top);
      expect(synced.status).to.equal(200);
      expect(synced.body).to.include({ node_height: top, lag: 0, contiguous: true });
      expect(synced.body.populator).to.include({ alive: true });

      await within('the populator’s stop', populator.stop());
      // no waiting for a heartbeat to go stale: the clean stop is visible on the next answer
      const stopped = await status();
      expect(stopped.status).to.equal(503);
      expect(stopped.body).to.include({ synced: false, reason: 'the populator has stopped' });
      expect(stopped.body.populator).to.include({ status: 'stopped', alive: false });

      for (let i = 0; i < 6; i++) await t.node.mineKeyBlock();
      const behind = await until('the lag against the node now', (s) => s.body.node_height === top + 6);
      expect(behind.body).to.include({ height: top, lag: 6, synced: false });

      // a populator again: synced again; then the node goes away under a running populator
      populator = await within(
        'the second populator’s start',
        startPopulator({ cfg, log: silentLog, registry: new prom.Registry() }),
      );
      await until('synced again', (s) => s.body.synced === true && s.body.height === top + 6);
      await within('the node’s stop', t.node.stop());
      const outage = await until('the node outage', (s) => s.body.node_height === null);
      expect(outage.status).to.equal(503);
      expect(outage.body).to.include({ lag: null, synced: false, reason: 'the node cannot be reached' });
      expect(outage.body.populator).to.include({ alive: true });
    } finally {
      await within('the server’s stop', server.stop());
      await within(
        'the populator’s last stop',
        populator.stop().catch(() => {}),
      );
      await within(
        'the node’s last stop',
        t.node.stop().catch(() => {}),
      );
      await db.drop();
    }
  });
});
