/** @module tx_update reports a transaction posted through the server's forwarding at once, with no internal API. */
import { expect } from 'chai';
import prom from 'prom-client';
import { startServer } from '../../../src/api/server.ts';
import { stringifyJson } from '../../../src/chain/json.ts';
import { loadConfig } from '../../../src/config/middleware.ts';
import { postedTx } from '../../../src/events/posted-tx.ts';
import { startPopulator, type Populator } from '../../../src/indexer/sync/populator.ts';
import { startTestNode, type TestNode } from '../../devnode/harness.ts';
import { createTestDatabase } from '../../support/postgres.ts';
import { openClient, silentLogger } from './ws-client.ts';

describe('tx_update of transactions posted through the server (no NODE_INTERNAL_URL)', function () {
  this.timeout(60_000);
  let t: TestNode;
  let db: { url: string; drop(): Promise<void> };
  let populator: Populator;
  let server: Awaited<ReturnType<typeof startServer>>;

  before(async () => {
    t = await startTestNode();
    db = await createTestDatabase({ migrated: 'mdw' });
    // no NODE_INTERNAL_URL: nothing polls the mempool; only our own forwarding can know of the post
    const cfg = loadConfig({
      DATABASE_URL: db.url,
      DATABASE_SCHEMA: 'mdw',
      NODE_URL: t.node.externalUrl,
      PORT: '0',
      WEBSOCKET_ADDRESS: '127.0.0.1:0',
      POLL_INTERVAL_MS: '100',
    });
    const log = silentLogger();
    populator = await startPopulator({ cfg, log, registry: new prom.Registry() });
    await populator.synced();
    server = await startServer({ cfg, log, registry: new prom.Registry(), version: 't' });
  });

  after(async () => {
    await server?.stop();
    await populator?.stop();
    await t?.node.stop();
    await db?.drop();
  });

  // posted to the node's /v2 or its /v3 alike
  for (const v of ['v2', 'v3'] as const)
    it(`reports a transaction posted to /${v} as pending, exactly as the node shows it, then its inclusion`, async () => {
      const updates = await openClient(server.wsUrl);
      await updates.request({ op: 'Subscribe', payload: 'TxUpdate' });
      const [from, to] = t.accounts;
      const signed = await t.signed(
        'transactions/spend',
        { sender_id: from!.address, recipient_id: to!.address, amount: 1, fee: 20_000_000_000_000 },
        from!,
      );
      const res = await fetch(`${server.httpUrl}/${v}/transactions`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: stringifyJson({ tx: signed }),
      });
      const { tx_hash: hash } = (await res.json()) as { tx_hash: string };
      expect(res.status).to.equal(200);
      const pending = (await updates.next()) as { payload: { hash: string; block_height: number } };
      // the node's own answer for the still pending transaction is the oracle
      const nodeView = await t.get(`/${v}/transactions/${hash}`);
      expect(nodeView.body.block_height).to.equal(-1);
      expect(pending).to.deep.equal({ payload: nodeView.body, subscription: 'TxUpdate' });
      await t.node.mineKeyBlock();
      const inclusion = (await updates.next(20_000)) as { payload: { hash: string; block_height: number } };
      expect(inclusion.payload.hash).to.equal(hash);
      expect(inclusion.payload.block_height).to.equal(t.node.height() - 1);
      updates.ws.close();
    });

  it('reads nothing out of a body it cannot decode', () => {
    for (const body of ['', '{}', '{"tx": 1}', '{"tx": "tx_notbase64"}', 'not json']) {
      expect(postedTx(body), body).to.equal(undefined);
    }
  });
});
