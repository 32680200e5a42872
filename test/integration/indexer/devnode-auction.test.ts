/**
 * @module A name auction with outbids on the devnode, followed by the middleware: the node answers
 * 404 "Name not found" while the auction runs, refunds each outbid fee, pushes the end on a late
 * bid and gives the name to the last bidder after its end; the middleware agrees at every step.
 */
import { expect } from 'chai';
import pg from 'pg';
import prom from 'prom-client';
import supertest from 'supertest';
import { createApp } from '../../../src/api/app.ts';
import {
  CERES_BID_EXTENSION,
  auctionTimeout,
  claimMaxExpiration,
  minimumNameFee,
  Protocol,
} from '../../../src/chain/aens.ts';
import { loadConfig, type Config } from '../../../src/config/middleware.ts';
import { createPool, type Pool } from '../../../src/db/connection/pool.ts';
import { startPopulator, type Populator } from '../../../src/indexer/sync/populator.ts';
import { createTestDatabase } from '../../support/postgres.ts';
import { waitFor } from '../../support/wait.ts';
import { FUNDS, startTestNode, type TestNode } from '../../devnode/harness.ts';
import { silent } from './support/harness.ts';
import { compareNames } from './support/names.ts';

const NAME = 'auctioned10.chain';

describe('a name auction with outbids, node and middleware (devnode + populator + PostgreSQL)', function () {
  this.timeout(300_000);
  let t: TestNode;
  let db: { url: string; drop(): Promise<void> };
  let cfg: Config;
  let populator: Populator;
  let pool: Pool;
  let client: pg.Client;
  let request: ReturnType<typeof supertest>;

  before(async () => {
    t = await startTestNode();
    db = await createTestDatabase({ migrated: 'mdw' });
    cfg = loadConfig({
      NODE_URL: t.node.externalUrl,
      DATABASE_URL: db.url,
      DATABASE_SCHEMA: 'mdw',
      POLL_INTERVAL_MS: '50',
      FORK_WINDOW: '5',
    });
    populator = await startPopulator({ cfg, log: silent, registry: new prom.Registry() });
    pool = createPool({ databaseUrl: db.url, schema: 'mdw', max: 4 }, silent);
    client = new pg.Client({ connectionString: db.url });
    await client.connect();
    request = supertest(createApp({ cfg, log: silent, pool, registry: new prom.Registry(), version: 't' }).callback());
  });
  after(async () => {
    await populator?.stop();
    await pool?.end();
    await client?.end();
    await t?.node.stop();
    await db?.drop();
  });

  /** mineTo adds key blocks up to `height`, waits for the middleware to store it, then compares every name. */
  async function mineTo(height: number): Promise<void> {
    while (t.node.height() < height) t.node.chain.mineKeyBlock();
    const top = t.node.chain.top.hash;
    await waitFor('the populator to store the top', async () => {
      const { rows } = await client.query<{ hash: string }>(
        'SELECT hash FROM mdw.key_blocks ORDER BY height DESC LIMIT 1',
      );
      return rows[0]?.hash === top;
    });
    await compareNames(t.node.externalUrl, request);
  }

  async function balance(i: number): Promise<bigint> {
    return BigInt((await t.get(`/v2/accounts/${t.accounts[i]!.address}`)).body.balance);
  }

  async function claim(i: number, nameFee: bigint): Promise<{ status: number; text: string }> {
    const body = { account_id: t.accounts[i]!.address, name: NAME, name_salt: 0, name_fee: nameFee, fee: 20000 };
    const res = await t.submit('names/claim', body, t.accounts[i]!);
    t.node.chain.mineMicroBlock();
    return res;
  }

  it('runs the auction as Ceres does and the middleware follows every step', async () => {
    const timeout = auctionTimeout(NAME, Protocol.CERES);
    expect(timeout).to.equal(480);
    await mineTo(1);

    // a claim without preclaim (Ceres) starts the auction
    const start = t.node.height();
    const first = minimumNameFee(NAME);
    expect((await claim(0, first)).status).to.equal(200);
    await mineTo(start + 1);
    expect(await t.get(`/v2/names/${NAME}`)).to.deep.include({
      status: 404,
      body: { reason: 'Name not found', error_code: 'name_not_found' },
    });
    expect(await balance(0)).to.equal(FUNDS - 20000n - first);

    // a bid below 5 % more is refused; a proper one refunds the first bidder
    const tooLow = (first * 104n) / 100n;
    expect((await claim(1, tooLow)).text).to.match(/name_fee_increment_too_low/);
    const second = (first * 105n) / 100n;
    expect((await claim(1, second)).status).to.equal(200);
    await mineTo(start + 2);
    expect(await balance(0)).to.equal(FUNDS - 20000n);
    expect(await balance(1)).to.equal(FUNDS - 20000n - second);

    // a late bid (within the extension of the end) pushes the end to its height + 240
    const lateAt = start + timeout - 100;
    await mineTo(lateAt);
    const third = (second * 110n) / 100n;
    expect((await claim(2, third)).status).to.equal(200);
    const end = lateAt + CERES_BID_EXTENSION;
    await mineTo(start + timeout + 1);
    expect((await t.get(`/v2/names/${NAME}`)).status, 'the original end passed, the auction runs on').to.equal(404);
    expect(await balance(1)).to.equal(FUNDS - 20000n);

    // the auction ends after height `end`: at `end` the name is still in auction, at end + 1 it is the winner's
    await mineTo(end);
    expect((await t.get(`/v2/names/${NAME}`)).status).to.equal(404);
    await mineTo(end + 1);
    const won = await t.get(`/v2/names/${NAME}`);
    expect(won.body).to.include({ owner: t.accounts[2]!.address, ttl: end + claimMaxExpiration(Protocol.CERES) });
    expect(await compareNames(t.node.externalUrl, request)).to.equal(1);
    expect(await balance(2)).to.equal(FUNDS - 20000n - third);
  });
});
