/**
 * @module Issue 59: a standby that lags behind a commit the server heard of is no database outage. The server's own
 * reading of the top there (the status, X-Ae-Height) saw a position the standby had replayed, and waited behind the
 * heard commit's wait for the standby until it gave up (2 s): a 503 counted as the database away, so
 * `mdw_dependency_up` flipped to 0 and /readyz answered `database unreachable` until the outage's probe came back.
 */
import { expect } from 'chai';
import pg from 'pg';
import { parseJson, type Json } from '../../../src/chain/json.ts';
import { startReplicaFixture, type ReplicaFixture } from './replica-fixture.ts';

describe('a standby paused behind a commit the server heard of', function () {
  this.timeout(240_000);
  let fixture: ReplicaFixture;
  let replica: pg.Client;

  before(async () => {
    fixture = await startReplicaFixture({ replicas: 'shared', heights: 40, subscriptions: ['key_blocks'] });
    replica = new pg.Client({ connectionString: fixture.pg.replicaUrls[0] });
    await replica.connect();
  });
  after(async () => {
    await replica?.end();
    await fixture?.close();
  });

  const get = async (path: string): Promise<{ status: number; body: Record<string, Json> }> => {
    const res = await fetch(`${fixture.server.httpUrl}${path}`);
    return { status: res.status, body: parseJson(await res.text()) as Record<string, Json> };
  };
  const databaseUp = async (): Promise<number> => {
    const metrics = await (await fetch(`${fixture.server.httpUrl}/metrics`)).text();
    return Number(/^mdw_dependency_up\{dependency="database"\} (\S+)$/m.exec(metrics)?.[1]);
  };

  it('answers the status from what the standby has, stays ready and reports no outage, then catches up', async () => {
    // the standby replays a height the server has not heard of: what it has is beyond the server's floor
    await fixture.write(41);
    await fixture.pg.caughtUp();
    await replica.query('SELECT pg_wal_replay_pause()');
    try {
      // the server hears of a commit the standby has not replayed: its events wait for the standby
      await fixture.write(42);
      await fixture.announce(41, 42);
      // a new reading of the status (each is at most a second old), past the 2 s it used to wait
      await new Promise((resolve) => setTimeout(resolve, 1100));
      const status = await get('/mdw/v3/status');
      expect(status.status).to.equal(200);
      expect(status.body.mdw_height).to.equal(41);
      expect(await get('/readyz')).to.deep.include({ status: 200 });
      expect(await databaseUp()).to.equal(1);
      expect(fixture.logged('database unavailable: refusing what needs it until it is back')).to.deep.equal([]);
    } finally {
      await replica.query('SELECT pg_wal_replay_resume()');
    }
    for (;;) {
      const { payload } = (await fixture.client.next(20_000)) as { payload: Record<string, Json> };
      if (payload.height === 42) break;
    }
    // the status is read again once its reading is a second old: it shows 42 within a few
    let height: unknown;
    for (let tries = 0; tries < 50 && height !== 42; tries++) {
      height = (await get('/mdw/v3/status')).body.mdw_height;
      if (height !== 42) await new Promise((resolve) => setTimeout(resolve, 100));
    }
    expect(height).to.equal(42);
  });
});
