/**
 * @module A server's pools hand each query's rows over in a turn of the event loop of its own (src/base/turns.ts), however
 * many results came in together: through pool.query, a held connection (a snapshot) and the replicas' routing pool.
 */
import { expect } from 'chai';
import pino from 'pino';
import { createPool, createRoutingPool, withSnapshot, type Pool } from '../../../src/db/connection/pool.ts';
import { TurnQueue } from '../../../src/base/turns.ts';
import { countTurns } from '../../support/loop-turns.ts';
import { createTestDatabase } from '../../support/postgres.ts';

const silent = pino({ level: 'silent' });
const QUERIES = 4;

/** holdLoop holds the event loop 300 ms: queries sent before (50 ms each) answer meanwhile, read in one poll after. */
function holdLoop(): void {
  const until = performance.now() + 300;
  while (performance.now() < until);
}

/**
 * turnsOfResults sends QUERIES queries at once, holds the event loop once they are sent until all their answers wait
 * in the sockets (so one poll reads them all), and gives the turn in which each caller got its rows.
 */
async function turnsOfResults(query: () => Promise<unknown>): Promise<number[]> {
  const loop = countTurns();
  const seen: number[] = [];
  const all = Promise.all(Array.from({ length: QUERIES }, () => query().then(() => void seen.push(loop.now))));
  await new Promise((resolve) => setTimeout(resolve, 20)); // the pool hands out its idle connections, which send
  holdLoop();
  await all;
  loop.stop();
  return seen;
}

describe('a server pool taking turns (PostgreSQL)', () => {
  let db: { url: string; drop(): Promise<void> };
  let pool: Pool;
  const turns = new TurnQueue();
  before(async function () {
    this.timeout(120_000);
    db = await createTestDatabase();
    pool = createPool({ databaseUrl: db.url, schema: 'public', max: QUERIES, maxWaiting: 100, turns }, silent);
    // every connection open before the measure, so each query is sent at once
    await Promise.all(Array.from({ length: QUERIES }, () => pool.query('SELECT 1')));
  });
  after(async () => {
    await pool.end();
    await db.drop();
  });

  const sleepy = (q: Pick<Pool, 'query'>) => q.query('SELECT pg_sleep(0.05)');

  it('pool.query: one result a turn', async () => {
    expect(new Set(await turnsOfResults(() => sleepy(pool))).size).to.equal(QUERIES);
  });

  it('a held connection (a snapshot): one result a turn', async () => {
    const loop = countTurns();
    const seen: number[] = [];
    let sent = 0;
    let allSent!: () => void;
    const sending = new Promise<void>((resolve) => (allSent = resolve));
    const all = Promise.all(
      Array.from({ length: QUERIES }, () =>
        withSnapshot(pool, async (client) => {
          const rows = sleepy(client);
          if (++sent === QUERIES) allSent();
          await rows;
          seen.push(loop.now);
        }),
      ),
    );
    await sending;
    holdLoop();
    await all;
    loop.stop();
    expect(new Set(seen).size).to.equal(QUERIES);
  });

  it("the replicas' routing pool: one result a turn", async () => {
    const routing = createRoutingPool(
      [pool],
      { pick: () => pool, ready: async () => {}, unreachable: () => {} },
      turns,
    );
    expect(new Set(await turnsOfResults(() => sleepy(routing))).size).to.equal(QUERIES);
  });

  it('without turns, the results read in one poll continue in one turn (what the turns change)', async () => {
    const plain = createPool({ databaseUrl: db.url, schema: 'public', max: QUERIES }, silent);
    try {
      await Promise.all(Array.from({ length: QUERIES }, () => plain.query('SELECT 1')));
      expect(new Set(await turnsOfResults(() => sleepy(plain))).size).to.be.below(QUERIES);
    } finally {
      await plain.end();
    }
  });
});
