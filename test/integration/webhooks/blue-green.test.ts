/**
 * @module Issue 77: webhooks and API keys across a blue/green reload. With DATABASE_CONFIG_SCHEMA the users'
 * configuration leaves the first generation for a schema of its own when its populator starts; a second generation
 * loaded from genesis sees the same hooks and keys, writes no delivery below where each hook got in the first one,
 * skips what the first one sent, and delivers the blocks after it once.
 */
import { expect } from 'chai';
import { MemoryAccount } from '@aeternity/aepp-sdk';
import prom from 'prom-client';
import { createKey } from '../../../src/api/quota/keys-admin.ts';
import { loadConfig } from '../../../src/config/middleware.ts';
import { createPool, type Pool } from '../../../src/db/connection/pool.ts';
import { startPopulator, type Populator } from '../../../src/indexer/sync/populator.ts';
import { createWebhookMetrics } from '../../../src/webhooks/metrics.ts';
import { WebhookSender, type SenderSettings } from '../../../src/webhooks/sender.ts';
import { startReceiver, type Receiver } from '../../support/webhook-receiver.ts';
import { waitFor } from '../../support/wait.ts';
import { silentLog } from '../api/harness.ts';
import { startV3, type V3UnderTest } from '../v3/harness.ts';

const SETTINGS: SenderSettings = {
  timeoutMs: 1000,
  maxResponseBytes: 1024,
  allowPrivate: true,
  concurrency: 4,
  leaseMs: 2000,
  pollMs: 20,
  retry: { initialMs: 100, maxMs: 400 },
  maxAttempts: 100,
};

describe('webhooks and API keys across a blue/green reload (DATABASE_CONFIG_SCHEMA)', function () {
  this.timeout(180_000);
  let v3: V3UnderTest;
  let receiver: Receiver;
  let green: Pool | undefined;
  let populator: Populator | undefined;
  const senders: WebhookSender[] = [];

  before(async () => {
    v3 = await startV3(4, 'blue-green', () => ({ DATABASE_CONFIG_SCHEMA: 'mdw_config', WEBHOOKS_ANONYMOUS: 'true' }));
    receiver = await startReceiver();
  });
  after(async () => {
    for (const s of senders) await s.stop();
    await populator?.stop();
    await green?.end();
    await receiver?.close();
    await v3?.close();
  });

  const sender = (pool: Pool, schema: string): WebhookSender => {
    const s = new WebhookSender({
      pool,
      schema,
      log: silentLog,
      metrics: createWebhookMetrics(new prom.Registry()),
      settings: SETTINGS,
    });
    s.start();
    senders.push(s);
    return s;
  };

  /** block puts a spend to `recipient` in a micro block and closes its generation. */
  async function block(recipient: string): Promise<void> {
    await v3.spend(recipient, 1);
    await v3.devnode.mineMicroBlock();
    await v3.devnode.mineKeyBlock();
  }

  it('keeps the hooks and keys of the first generation in the second, which resumes each hook after what was sent', async () => {
    const recipient = MemoryAccount.generate().address;
    const created = await fetch(`${v3.url}/mdw/v3/webhooks`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ url: `${receiver.url}/bg`, filters: [{ account: recipient }] }),
    });
    expect(created.status).to.equal(201);
    const hook = String(((await created.json()) as { id: string }).id);
    const cfg = loadConfig(v3.settings);
    const key = await createKey(cfg, silentLog, 'blue-green', 'pro');
    // the first generation's tables moved when its populator started
    const { rows: where } = await v3.pool.query<{ schema: string }>(
      "SELECT table_schema AS schema FROM information_schema.tables WHERE table_name IN ('webhooks', 'api_keys')",
    );
    expect(where.map((r) => r.schema)).to.deep.equal(['mdw_config', 'mdw_config']);

    const blue = sender(v3.pool, 'mdw_v3');
    await block(recipient);
    await v3.synced();
    await waitFor('the first spend', () => receiver.on('/bg').length === 1);
    await blue.stop();

    // the second generation, loaded from genesis beside the first
    const greenCfg = loadConfig({ ...v3.settings, DATABASE_SCHEMA: 'mdw_g2' });
    populator = await startPopulator({ cfg: greenCfg, log: silentLog, registry: new prom.Registry() });
    await populator.synced();
    green = createPool(
      { databaseUrl: cfg.databaseUrl, schema: 'mdw_g2', configSchema: 'mdw_config', max: 4 },
      silentLog,
    );
    expect((await green.query('SELECT id FROM webhooks')).rows).to.deep.equal([{ id: hook }]);
    expect((await green.query('SELECT id FROM api_keys WHERE id = $1', [key.id])).rowCount).to.equal(1);
    const first = receiver.on('/bg')[0]!;
    // nothing below the height the hook got to; the delivery there is written (its micro block may hold more)
    const { rows: written } = await green.query<{ id: string; height: number }>(
      'SELECT delivery_id AS id, height FROM webhook_deliveries WHERE webhook_id = $1',
      [hook],
    );
    expect(written).to.deep.equal([{ id: first.deliveryId, height: first.body.height }]);

    sender(green, 'mdw_g2');
    await block(recipient);
    await waitFor('the second spend from the second generation', () => receiver.on('/bg').length === 2);
    const second = receiver.on('/bg')[1]!;
    expect(second.body.height).to.be.above(first.body.height as number);
    // the first one was skipped there, as the first generation had sent it: delivered once. The sender records an
    // answer after the receiver gave it: wait for that before reading
    const deliveries = async () =>
      (
        await green!.query<{ id: string; status: string; attempts: number }>(
          'SELECT delivery_id AS id, status, attempts FROM webhook_deliveries WHERE webhook_id = $1 ORDER BY height',
          [hook],
        )
      ).rows;
    await waitFor('the second delivery recorded', async () => (await deliveries()).every((d) => d.status === 'sent'));
    expect(await deliveries()).to.deep.equal([
      { id: first.deliveryId, status: 'sent', attempts: 0 },
      { id: second.deliveryId, status: 'sent', attempts: 1 },
    ]);
    await new Promise((r) => setTimeout(r, 200));
    expect(receiver.on('/bg').map((r) => r.deliveryId)).to.deep.equal([first.deliveryId, second.deliveryId]);
  });
});
