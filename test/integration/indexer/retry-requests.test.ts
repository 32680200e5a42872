/**
 * @module A populator step that fails once its next batch is prepared is retried from what it fetched (issue 88): the
 * retry asks the node about as many requests as a load with no failure, where it asked its batch, the batch prepared
 * ahead and the fetch-ahead's window again (9 532 requests against 6 537 on 800 generations). Near the node's top, what
 * a fork may have replaced while the step failed is asked again: the replaced blocks are never stored.
 */
import { expect } from 'chai';
import prom from 'prom-client';
import { startPopulator } from '../../../src/indexer/sync/populator.ts';
import { populateToTop } from '../../support/populate.ts';
import { silent, startHarness, storedTopHash, verifyClean, waitFor, type Harness } from './support/harness.ts';
import { rowsApart } from './support/schema-rows.ts';

/** the sum of a counter's series in `registry` */
async function total(registry: prom.Registry, name: string): Promise<number> {
  const metric = await registry.getSingleMetric(name)?.get();
  return metric?.values.reduce((sum, v) => sum + v.value, 0) ?? 0;
}

describe('a populator step retried after its next batch was prepared', function () {
  this.timeout(180_000);
  let h: Harness;
  /** as deployed (BATCH_SIZE 500, FORK_WINDOW 30), batches cut at 200 transactions: ~25 generations each */
  const env = {
    BATCH_SIZE: '500',
    BATCH_TRANSACTIONS: '200',
    FORK_WINDOW: '30',
    FETCH_CONCURRENCY: '4',
    // no poll of the node's top by the clock: the loads' counts differ by what they fetch only
    POLL_INTERVAL_MS: '3600000',
  };

  before(async () => {
    // 160 generations, a fifth fewer blocks to load: the failed write at 60 still 100 heights below the top (at 120
    // generations the retry asked 22% more, near enough the top to ask again what a fork may have replaced)
    h = await startHarness(160, 'retry-requests');
  });
  after(() => h?.close());

  it('asks the node for what it fetched before the failure no more', async () => {
    const clean = new prom.Registry();
    await populateToTop(h.config({ ...env, DATABASE_SCHEMA: 'clean' }), clean);
    // the write of height 60 (the third batch's) fails once: a sequence's value is no part of the rolled back transaction
    await h.query('mdw', 'CREATE SEQUENCE public.fail_once');
    await h.query(
      'mdw',
      `CREATE FUNCTION public.fail_once() RETURNS trigger LANGUAGE plpgsql AS $$
       BEGIN IF nextval('public.fail_once') = 1 THEN RAISE EXCEPTION 'a write failed on purpose'; END IF;
       RETURN NEW; END $$`,
    );
    await h.query(
      'mdw',
      'CREATE TRIGGER fail_once BEFORE INSERT ON key_blocks FOR EACH ROW WHEN (NEW.height = 60) EXECUTE PROCEDURE public.fail_once()',
    );
    const failing = new prom.Registry();
    await populateToTop(h.config(env), failing);
    expect(await total(failing, 'mdw_populator_failures_total'), 'one step failed').to.equal(1);
    const usual = await total(clean, 'mdw_node_requests_total');
    const retried = await total(failing, 'mdw_node_requests_total');
    // asked again before: ~75 generations (the batch, the one prepared ahead, the window): 2 753 against 2 190 of 200
    expect(retried, `${retried} node requests with a failed step against ${usual}`).to.be.at.most(usual * 1.05);
    // the retried load's tables as the unfailed one's, as `-v --full` compares its scratch load (a load without a
    // failure): one `-v --full` of this chain, the next case's, which finds these heights the node's too
    expect(await rowsApart(h.db.url, 'clean', 'mdw')).to.deep.equal([]);
  });

  it('asks again near the top what a fork replaced while the step failed, and never stores the replaced blocks', async () => {
    const registry = new prom.Registry();
    // following the node's head, its top polled
    const following = { ...env, POLL_INTERVAL_MS: '200' };
    const populator = await startPopulator({ cfg: h.config(following), log: silent, registry });
    try {
      await populator.synced();
      const stored = (await storedTopHash(h, 'mdw'))!.height;
      // every new height's write fails while the gate holds a row
      await h.query('mdw', 'CREATE TABLE public.retry_gate ()');
      await h.query('mdw', 'INSERT INTO public.retry_gate DEFAULT VALUES');
      await h.query(
        'mdw',
        `CREATE FUNCTION public.gated() RETURNS trigger LANGUAGE plpgsql AS $$
         BEGIN IF EXISTS (SELECT FROM public.retry_gate) THEN RAISE EXCEPTION 'a write failed on purpose'; END IF;
         RETURN NEW; END $$`,
      );
      await h.query(
        'mdw',
        `CREATE TRIGGER gated BEFORE INSERT ON key_blocks FOR EACH ROW WHEN (NEW.height > ${stored}) EXECUTE PROCEDURE public.gated()`,
      );
      for (let i = 0; i < 3; i++) await h.devnode.mineKeyBlock();
      await waitFor('a failed step', async () => (await total(registry, 'mdw_populator_failures_total')) > 0, 30_000);
      // the three new generations the failed step fetched are replaced: the stored chain below them is the node's still
      await h.devnode.fork(3);
      await h.query('mdw', 'DELETE FROM public.retry_gate');
      await waitFor(
        'the node’s top stored',
        async () => (await storedTopHash(h, 'mdw'))?.hash === h.devnode.chain.top.hash,
        30_000,
      );
      // a replaced block stored would have been found a fork and rolled back
      expect(await total(registry, 'mdw_sync_forks_total'), 'forks rolled back').to.equal(0);
    } finally {
      await populator.stop();
    }
    await verifyClean(h, following);
  });
});
