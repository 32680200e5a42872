/**
 * @module GraphQL behind the admission of ae_mdw's REST requests (issue 41, item 3): an operation takes as many of the
 * same turns as its cost (a turn per COST_PER_TURN), waits in the same line, and gives up at its deadline with the
 * same 503 and Retry-After; a request held past its deadline (GraphQL's or REST's) is answered then, its statement
 * cancelled in PostgreSQL. The admission's decisions are asserted, never a clock.
 */
import { expect } from 'chai';
import { Admission } from '../../../src/api/http/admission.ts';
import type { PoolClient } from '../../../src/db/connection/pool.ts';
import { startApi, type ApiUnderTest } from '../api/harness.ts';

/** two pages of 100 transactions with their blocks: cost 2 × 201, more than four turns' */
const HEAVY =
  '{ a: transactions(limit: 100) { data { hash block { hash } } } b: transactions(limit: 100) { data { hash } } }';
/** one key block: cost 1, a turn */
const LIGHT = '{ keyBlocks(limit: 1) { data { hash } } }';

/** gate is a promise and the function that resolves it: work that holds its turns until told to finish. */
function gate(): { done: Promise<void>; finish: () => void } {
  let finish!: () => void;
  const done = new Promise<void>((resolve) => (finish = resolve));
  return { done, finish };
}

/** until lets the event loop turn until `condition` holds (the requests sent have reached the admission). */
async function until(condition: () => boolean): Promise<void> {
  for (let i = 0; i < 10_000 && !condition(); i++) await new Promise((r) => setTimeout(r, 1));
  expect(condition(), 'never came to pass').to.equal(true);
}

describe('GraphQL in the admission of ae_mdw’s requests', function () {
  this.timeout(60_000);

  describe('its turns', () => {
    const admission = new Admission({ concurrency: 4, maxWaiting: 100, maxWaitMs: 30_000, deadlineMs: 60_000 });
    let api: ApiUnderTest;
    before(async () => {
      api = await startApi({ admission });
    });
    after(async () => {
      await api?.close();
    });

    const graphql = (query: string) =>
      api.request.post('/mdw/graphql').set('content-type', 'application/json').send({ query });

    it('takes as many turns as its cost: a heavy operation waits for all four, a REST request behind it waits too', async () => {
      // a request of the test's holds one of the four turns
      const held = gate();
      const holding = admission.run(() => held.done);
      const light = graphql(LIGHT).then((res) => res);
      await light;
      expect((await light).status, 'a light operation takes one of the three turns left').to.equal(200);
      const heavy = graphql(HEAVY).then((res) => res);
      await until(() => admission.counts.waiting === 1);
      const rest = api.request.get('/mdw/v3/key-blocks?limit=1').then((res) => res);
      await until(() => admission.counts.waiting === 2);
      // three turns are free: the heavy operation needs four, and the line is first come, first served
      expect(admission.counts).to.deep.include({ running: 1, waiting: 2 });
      held.finish();
      await holding;
      const [heavyAnswer, restAnswer] = await Promise.all([heavy, rest]);
      expect(heavyAnswer.status).to.equal(200);
      expect(heavyAnswer.body.errors).to.equal(undefined);
      expect(heavyAnswer.body.data.a.data).to.have.length.above(0);
      expect(restAnswer.status).to.equal(200);
      expect(admission.counts).to.deep.include({ running: 0, waiting: 0 });
    });

    it('is refused with 503 and Retry-After, in the API’s shape, when the line is full', async () => {
      const full = new Admission({ concurrency: 1, maxWaiting: 0, maxWaitMs: 30_000, deadlineMs: 60_000 });
      const busy = await startApi({ admission: full, empty: true });
      try {
        const held = gate();
        const holding = full.run(() => held.done);
        const res = await busy.request
          .post('/mdw/graphql')
          .set('content-type', 'application/json')
          .send({ query: LIGHT });
        held.finish();
        await holding;
        expect(res.status).to.equal(503);
        expect(res.headers['retry-after']).to.equal('1');
        expect(res.body).to.deep.equal({ error: 'server busy: retry later' });
      } finally {
        await busy.close();
      }
    });
  });

  describe('its deadline', () => {
    let api: ApiUnderTest;
    before(async () => {
      // a deadline that has always passed: every read an operation would start is given up
      api = await startApi({
        admission: new Admission({ concurrency: 4, maxWaiting: 100, maxWaitMs: 30_000, deadlineMs: 0 }),
      });
    });
    after(async () => {
      await api?.close();
    });

    it('gives an operation up at its deadline with 503 and Retry-After, starting nothing once it has passed', async () => {
      for (const query of [
        LIGHT,
        HEAVY,
        '{ account(id: "ak_2a1j2Mk9YSmC1gioUq4PWRm3bsv887MbuRVwyv4KaUGoR1eiKi") { balance } }',
        // even one that reads nothing: its turn came after its deadline
        '{ __typename }',
      ]) {
        const res = await api.request.post('/mdw/graphql').set('content-type', 'application/json').send({ query });
        expect(res.status, query).to.equal(503);
        expect(res.headers['retry-after'], query).to.equal('1');
        expect(res.body, query).to.deep.equal({ error: 'server busy: retry later' });
      }
    });
  });

  describe('its deadline, with its read held by a lock', () => {
    const admission = new Admission({ concurrency: 4, maxWaiting: 100, maxWaitMs: 30_000, deadlineMs: 2000 });
    let api: ApiUnderTest;
    let locker: PoolClient | undefined;
    before(async () => {
      api = await startApi({ admission });
      // the stored top every answer is stamped with is read once, before the lock
      expect((await api.request.get('/mdw/v3/status')).status).to.equal(200);
    });
    afterEach(async () => {
      await locker?.query('ROLLBACK');
      locker?.release();
      locker = undefined;
    });
    after(async () => {
      await api?.close();
    });

    /** statementsWaiting are the API's statements waiting for a lock now */
    const statementsWaiting = async (): Promise<string[]> => {
      const { rows } = await api.pool.query<{ query: string }>(
        `SELECT query FROM pg_stat_activity WHERE application_name = 'mdw-test-api' AND wait_event_type = 'Lock'`,
      );
      return rows.map((r) => r.query);
    };

    for (const [kind, ask] of [
      [
        'a GraphQL operation',
        () =>
          api.request
            .post('/mdw/graphql')
            .set('content-type', 'application/json')
            .send({ query: '{ transactions(limit: 1) { data { hash } } }' }),
      ],
      ['a REST request', () => api.request.get('/mdw/v3/transactions?limit=1')],
    ] as const) {
      it(`answers ${kind} held past its deadline with 503 and Retry-After, its statement cancelled`, async () => {
        // another session's lock holds every read of the transactions past the deadline
        locker = await api.pool.connect();
        await locker.query('BEGIN');
        await locker.query('LOCK TABLE transactions IN ACCESS EXCLUSIVE MODE');
        const answer = ask().then((res) => res);
        await until(() => admission.counts.running === 1);
        // answered while the lock is still held: at the deadline, not when the read could go on
        const res = await answer;
        expect(res.status).to.equal(503);
        expect(res.headers['retry-after']).to.equal('1');
        expect(res.body).to.deep.equal({ error: 'server busy: retry later' });
        // the statement no longer waits in PostgreSQL, and the request's turn is free once its work has stopped
        let waiting = await statementsWaiting();
        for (let i = 0; i < 1000 && waiting.length > 0; i++) waiting = await statementsWaiting();
        expect(waiting).to.deep.equal([]);
        await until(() => admission.counts.running === 0);
        const after = await locker.query<{ n: string }>('SELECT count(*) AS n FROM transactions');
        expect(Number(after.rows[0]!.n), 'the lock was held throughout').to.be.above(0);
      });
    }
  });
});
