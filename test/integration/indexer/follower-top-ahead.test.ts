/**
 * The follower asks the node's top beside the write of the batch that reaches the top it knew (src/indexer/sync/
 * follower.ts): the step after it finds itself at the top without a round trip of its own, at the end of a catch-up
 * and for each new block while following, and asks no more polls than before.
 */
import { expect } from 'chai';
import prom from 'prom-client';
import type { Pool } from '../../../src/db/connection/pool.ts';
import { createIndexerMetrics } from '../../../src/indexer/metrics.ts';
import { SyncGauges } from '../../../src/indexer/sync/sync-gauges.ts';
import { Follower, type StepResult } from '../../../src/indexer/sync/follower.ts';
import { NodeClient } from '../../../src/node/client.ts';
import { silent, startHarness, type Harness } from './support/harness.ts';
import { loaderDeps, migratedPool } from './support/loader-deps.ts';

describe('the follower’s poll of the node’s top', function () {
  this.timeout(120_000);
  let h: Harness;
  let pool: Pool;

  before(async () => {
    h = await startHarness(25, 'follower-top-ahead');
    pool = await migratedPool(h.config(), 'follower-top-ahead', 3);
  });
  after(async () => {
    await pool?.end();
    await h?.close();
  });

  it('is asked beside the last write, so the step that finds the top asks none of its own', async () => {
    const cfg = h.config({ POLL_INTERVAL_MS: '60000' });
    const node = new NodeClient({ url: cfg.nodeUrls[0]!, timeoutMs: 30_000 }, silent);
    let polls = 0;
    const poll = {
      topHeight: () => {
        polls++;
        return node.topHeight();
      },
    } as NodeClient;
    const metrics = createIndexerMetrics(new prom.Registry());
    const follower = new Follower({
      cfg,
      log: silent,
      poll,
      loader: { ...(await loaderDeps(cfg, pool, node)), metrics },
      gauges: new SyncGauges(metrics),
      signal: new AbortController().signal,
    });
    /** each step's result with the polls it asked */
    const step = async (): Promise<[StepResult, number]> => {
      const before = polls;
      const result = await follower.step();
      return [result, polls - before];
    };
    const steps: [StepResult, number][] = [];
    do steps.push(await step());
    while (steps.at(-1)![0] === 'busy');
    // the last load asked the top beside its write (and its own at the step's start); the idle step none
    expect(steps.at(-2)).to.deep.equal(['busy', 2]);
    expect(steps.at(-1)).to.deep.equal(['idle', 0]);
    expect(follower.caughtUp).to.equal(true);
    // following: a new block is loaded with the next top asked beside it, found at the top with no request
    await h.devnode.mineKeyBlock();
    expect(await step()).to.deep.equal(['busy', 2]);
    expect(await step()).to.deep.equal(['idle', 0]);
    // at the top with nothing asked ahead, each step polls
    expect(await step()).to.deep.equal(['idle', 1]);
    const [stored] = await h.query<{ top: number }>(cfg.databaseSchema, 'SELECT max(height) AS top FROM key_blocks');
    expect(stored!.top).to.equal(h.devnode.height());
  });

  it('says the node down when its poll fails, and nothing when its own end aborted the poll (the writer lock lost)', async () => {
    const cfg = h.config({ POLL_INTERVAL_MS: '60000' });
    const node = new NodeClient({ url: cfg.nodeUrls[0]!, timeoutMs: 30_000 }, silent);
    /** the node dependency gauge after a step whose poll fails, `aborting` the follower's end or not */
    const nodeUpAfter = async (aborting: boolean): Promise<number | undefined> => {
      const metrics = createIndexerMetrics(new prom.Registry());
      const gauges = new SyncGauges(metrics);
      gauges.polled(h.devnode.height());
      const end = new AbortController();
      const ended = new NodeClient(
        { url: cfg.nodeUrls[0]!, timeoutMs: 30_000, attempts: 1, signal: end.signal },
        silent,
      );
      const poll = {
        topHeight: () => {
          if (aborting) end.abort();
          return aborting ? ended.topHeight() : Promise.reject(new Error('the node did not answer'));
        },
      } as NodeClient;
      const follower = new Follower({
        cfg,
        log: silent,
        poll,
        loader: { ...(await loaderDeps(cfg, pool, node)), metrics },
        gauges,
        signal: end.signal,
      });
      await follower.step().then(
        () => expect.fail('the step polled and failed'),
        () => {},
      );
      return (await metrics.dependencyUp.get()).values.find((v) => v.labels.dependency === 'node')?.value;
    };
    expect(await nodeUpAfter(false), 'a failed poll').to.equal(0);
    expect(await nodeUpAfter(true), 'a poll its end aborted').to.equal(1);
  });
});
