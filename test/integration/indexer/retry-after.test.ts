/**
 * @module Issue 39: a node's 503 with Retry-After is honoured: the node client and the populator leave the node alone
 * for as long as it asked (never sooner), the dry-runs too; asserted on the devnode's count of refused requests and
 * on the waits recorded (mdw_outbound_retry_after_wait_seconds), never on how long anything took.
 */
import { expect } from 'chai';
import pino from 'pino';
import prom from 'prom-client';
import { loadConfig } from '../../../src/config/middleware.ts';
import { createPool } from '../../../src/db/connection/pool.ts';
import { topHeight } from '../../../src/db/queries/blocks.ts';
import type { Devnode } from '../../../src/devnode/index.ts';
import { startPopulator, type Populator } from '../../../src/indexer/sync/populator.ts';
import { NodeClient } from '../../../src/node/client.ts';
import { NodeError } from '../../../src/node/errors.ts';
import { createOutboundMetrics } from '../../../src/node/outbound-metrics.ts';
import type { SeriesValue } from '../../support/outbound.ts';
import { createTestDatabase } from '../../support/postgres.ts';
import { waitFor } from '../../support/wait.ts';
import { startGeneratedDevnode } from '../../support/devnode.ts';
import { capturedLog } from '../../support/captured-log.ts';

const silent = pino({ level: 'silent' });

/** waits is what mdw_outbound_retry_after_wait_seconds recorded for the node: how many waits and their seconds. */
async function waits(registry: prom.Registry): Promise<{ count: number; sum: number }> {
  const metric = await registry.getSingleMetric('mdw_outbound_retry_after_wait_seconds')?.get();
  const value = (name: string): number =>
    (metric?.values as SeriesValue[] | undefined)?.find((v) => v.metricName === name && v.labels.target === 'node')
      ?.value ?? 0;
  return {
    count: value('mdw_outbound_retry_after_wait_seconds_count'),
    sum: value('mdw_outbound_retry_after_wait_seconds_sum'),
  };
}

describe('issue 39: a node’s 503 with Retry-After', function () {
  this.timeout(60_000);
  let devnode: Devnode;
  before(async () => {
    devnode = await startGeneratedDevnode({ generations: 5, seed: 'retry-after' });
  });
  after(async () => {
    await devnode?.stop();
  });

  it('has the node client wait what the node asked before its next try, not its own shorter backoff', async () => {
    const registry = new prom.Registry();
    const client = new NodeClient(
      {
        url: devnode.externalUrl,
        timeoutMs: 2000,
        attempts: 4,
        backoffInitialMs: 5,
        backoffMaxMs: 20,
        metrics: createOutboundMetrics(registry),
      },
      silent,
    );
    const refused = devnode.overloadStats().refused;
    devnode.overload(2, '1');
    expect(await client.topHeight()).to.equal(devnode.height());
    // two refusals, each followed by the one second the node asked for (its own backoff was 5 and 10 ms)
    expect(devnode.overloadStats()).to.deep.equal({ refused: refused + 2, remaining: 0 });
    expect(await waits(registry)).to.deep.equal({ count: 2, sum: 2 });
  });

  it('keeps the wait the node asked for on the error when the tries are spent, bounded at a minute', async () => {
    const client = new NodeClient({ url: devnode.externalUrl, timeoutMs: 2000, attempts: 1 }, silent);
    devnode.overload(1, '30');
    const err = await client.topHeight().then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(err).to.be.instanceOf(NodeError);
    expect(err).to.include({ nodeStatus: 503, transient: true, retryAfterMs: 30_000 });
    // a client of its own: the first one leaves the node alone for the 30 s it asked (its pace, node-pace.ts)
    const other = new NodeClient({ url: devnode.externalUrl, timeoutMs: 2000, attempts: 1 }, silent);
    devnode.overload(1, '86400');
    expect(await other.topHeight().catch((e: NodeError) => e.retryAfterMs)).to.equal(60_000);
  });

  it('has the populator leave an overloaded node alone for as long as it asked, then follow on', async () => {
    const db = await createTestDatabase({ migrated: 'mdw' });
    const registry = new prom.Registry();
    const { log, lines } = capturedLog();
    const cfg = loadConfig({
      NODE_URL: devnode.externalUrl,
      DATABASE_URL: db.url,
      DATABASE_SCHEMA: 'mdw',
      POLL_INTERVAL_MS: '50',
    });
    let populator: Populator | undefined;
    const pool = createPool({ databaseUrl: db.url, schema: 'mdw', max: 1 }, silent);
    try {
      populator = await startPopulator({ cfg, log, registry });
      await populator.synced();
      const refused = devnode.overloadStats().refused;
      // the poll of the node's top is refused once: the populator waits the 2 s asked, not its 50 ms backoff
      devnode.overload(1, '2');
      await waitFor('the refusal', () => devnode.overloadStats().refused === refused + 1);
      await waitFor('the wait recorded', async () => (await waits(registry)).count === 1);
      expect(await waits(registry)).to.deep.equal({ count: 1, sum: 2 });
      // and it follows on: a new block is stored
      await devnode.mineKeyBlock();
      await waitFor('the new block stored', async () => (await topHeight(pool)) === devnode.height());
      expect(devnode.overloadStats().refused).to.equal(refused + 1);
      // issue 87: a refusal is the node's pace, waited out by the poll itself: no step of the populator failed for it
      expect(lines.filter((l) => /step failed/.test(String(l.msg))).map((l) => l.msg)).to.deep.equal([]);
    } finally {
      await populator?.stop();
      await pool.end();
      await db.drop();
    }
  });
});
