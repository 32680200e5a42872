/** @module New micro blocks in the top generation are growth, not a fork: added without rewriting, no fork counted or announced; a real fork still is. */
import { expect } from 'chai';
import pg from 'pg';
import prom from 'prom-client';
import { decodeNotification, notifyChannel, type ChainNotification } from '../../../src/db/connection/notification.ts';
import { startPopulator, type Populator } from '../../../src/indexer/sync/populator.ts';
import { startHarness, silent, verifyClean, waitFor, type Harness } from './support/harness.ts';
import { addMicroBlock } from './support/micro-blocks.ts';

describe('populator: top generation growth versus forks (devnode + PostgreSQL)', function () {
  this.timeout(60_000);
  let h: Harness;
  let populator: Populator | undefined;
  let registry: prom.Registry;
  let listener: pg.Client;
  const notifications: ChainNotification[] = [];

  before(async () => {
    h = await startHarness(6, 'growth-test');
    registry = new prom.Registry();
    populator = await startPopulator({ cfg: h.config(), log: silent, registry });
    await populator.synced();
    listener = new pg.Client({ connectionString: h.db.url });
    await listener.connect();
    listener.on('notification', (n) => {
      const decoded = n.payload === undefined ? undefined : decodeNotification(n.payload);
      if (decoded) notifications.push(decoded);
    });
    await listener.query(`LISTEN "${notifyChannel('mdw')}"`);
  });
  after(async () => {
    await listener?.end();
    await populator?.stop();
    await h.close();
  });

  async function metric(name: string): Promise<number> {
    return (await registry.getMetricsAsJSON()).find((m) => m.name === name)?.values[0]?.value ?? 0;
  }

  /** stored is true once the database holds the node's top key block and its last micro block. */
  async function converged(): Promise<void> {
    await waitFor('the populator to store the node top generation', async () => {
      const top = h.devnode.chain.top;
      const rows = await h.query<{ hash: string; last: string | null }>(
        'mdw',
        `SELECT k.hash, (SELECT m.hash FROM micro_blocks m WHERE m.height = k.height ORDER BY m.micro_index DESC LIMIT 1) AS last
           FROM key_blocks k ORDER BY k.height DESC LIMIT 1`,
      );
      return rows[0]?.hash === top.hash && rows[0].last === (top.micro.at(-1)?.hash ?? null);
    });
    // the populator counts a load in its metrics after the commit the query above sees: the height it reports comes
    // after them, so a count read from here on includes the load (one read between the two failed once in a full run)
    await waitFor('the populator to report the stored top', async () => {
      return (await metric('mdw_sync_height')) === h.devnode.height();
    });
  }

  it('loads micro blocks added to the top generation without counting or announcing a fork', async () => {
    for (let round = 0; round < 2; round++) {
      if (round > 0) await h.devnode.mineKeyBlock();
      for (let i = 0; i < 3; i++) {
        await addMicroBlock(h.devnode);
        await converged();
      }
    }
    expect(h.devnode.chain.top.micro).to.have.length(3);
    expect(await metric('mdw_sync_forks_total')).to.equal(0);
    expect(await metric('mdw_indexer_rollbacks_total')).to.equal(0);
    await verifyClean(h);
    expect(notifications.length, 'one notification per load').to.be.greaterThan(0);
    expect(notifications.filter((n) => n.rollbackFrom !== undefined)).to.deep.equal([]);
  });

  it('adds the new micro blocks after the stored ones without rewriting them', async () => {
    await h.devnode.mineKeyBlock();
    await converged(); // stored without micro blocks: the first one is added to it, as every later one
    // xmin is the transaction that wrote a row: a rewritten row would get a new one
    const written = async (): Promise<string[]> =>
      (
        await h.query<{ row: string }>(
          'mdw',
          `SELECT m.hash || ':' || m.xmin::text AS row FROM micro_blocks m WHERE m.height = $1
       UNION ALL SELECT t.hash || ':' || t.xmin::text FROM transactions t WHERE t.height = $1
       UNION ALL SELECT k.hash || ':' || k.xmin::text FROM key_blocks k WHERE k.height = $1 ORDER BY 1`,
          [h.devnode.height()],
        )
      ).map((r) => r.row);
    const generations = await metric('mdw_indexer_generations_total');
    for (let i = 0; i < 2; i++) {
      const before = await written();
      await addMicroBlock(h.devnode);
      await converged();
      const after = await written();
      expect(after).to.include.members(before);
      expect(after.length).to.equal(before.length + 2); // one micro block and its transaction
    }
    expect(await metric('mdw_indexer_generations_total'), 'no new generation counted').to.equal(generations);
    expect(await metric('mdw_sync_forks_total')).to.equal(0);
    await verifyClean(h);
  });

  it('still counts, announces and converges after a real fork of depth 1', async () => {
    notifications.length = 0;
    await h.devnode.fork(1);
    await converged();
    expect(await metric('mdw_sync_forks_total')).to.equal(1);
    expect(await metric('mdw_indexer_rollbacks_total')).to.equal(1);
    // the notification comes on the listener's own connection after the commit converged() saw: it may be later
    await waitFor('the rollback to be announced', async () =>
      notifications.some((n) => n.rollbackFrom === h.devnode.height()),
    );
    await verifyClean(h);
  });
});
