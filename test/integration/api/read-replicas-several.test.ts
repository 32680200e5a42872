/**
 * @module A server reading two standbys, one of them late: no read answers from the late one what is older than an
 * event already sent, reads go to both, and when one stops the other serves on (the loss and the return one line each,
 * events still delivered, no 500), as when it comes back.
 */
import { expect } from 'chai';
import type { Json } from '../../../src/chain/json.ts';
import { queryOnce } from '../../support/postgres.ts';
import { waitFor } from '../../support/wait.ts';
import { startReplicaFixture, type ReplicaFixture } from './replica-fixture.ts';

// one pair of standbys for every case (the first case needs the second late)
describe('a server reading two standbys, a prompt one and one 1.5 s late', function () {
  this.timeout(180_000);
  let fixture: ReplicaFixture;
  let server: ReplicaFixture['server'];
  let top = 5;
  const logged = (msg: string): ReplicaFixture['lines'] => fixture.logged(msg);
  /** commit writes the next height, announces it and returns its hash once its event has come. */
  const commit = async (): Promise<string> => {
    const hash = String((await fixture.write(++top)).keyBlock.hash);
    await fixture.announce(top, top);
    const event = (await fixture.client.next(20_000)) as { payload: Record<string, Json> };
    expect(event.payload.hash).to.equal(hash);
    return hash;
  };
  const serverConnections = serverConnectionsOn;

  before(async () => {
    fixture = await startReplicaFixture({
      replicas: { replicas: 2, applyDelayMs: [0, 1500] },
      heights: top,
      subscriptions: ['key_blocks'],
    });
    server = fixture.server;
  });
  after(async () => {
    await fixture?.close();
  });

  it('never answers from the late one what is older than an event it already sent', async () => {
    for (let i = 0; i < 3; i++) {
      const hash = await commit();
      // the late standby has not applied it yet: every read goes to the prompt one meanwhile
      for (let j = 0; j < 20; j++) {
        const res = await fetch(`${server.httpUrl}/mdw/v3/key-blocks/${top}`);
        expect(res.status, `read ${j} of height ${top}`).to.equal(200);
        expect(((await res.json()) as { hash: string }).hash).to.equal(hash);
      }
    }
    // once the late one has caught up, it takes its turns again
    await fixture.pg.caughtUp();
    await waitFor('reads on the late one', async () => {
      await fetch(`${server.httpUrl}/mdw/v3/key-blocks/2`);
      return (await serverConnections(fixture.pg.replicaUrls[1]!)) > 0;
    });
  });

  it('takes turns between them', async () => {
    for (let i = 0; i < 20; i++) expect((await fetch(`${server.httpUrl}/mdw/v3/key-blocks/2`)).status).to.equal(200);
    for (const url of fixture.pg.replicaUrls) expect(await serverConnections(url)).to.be.greaterThan(0);
  });

  // the late one stopped: the prompt one serves on (a late one left alone may hold a read past its 2 s wait)
  it('serves on from the other while one is stopped, and takes it back', async () => {
    await fixture.pg.stopReplica(1);
    // an in-flight read on the stopped one may be refused; then the other serves every read
    await waitFor('a read served by the other', async () => {
      return (await fetch(`${server.httpUrl}/mdw/v3/key-blocks/2`)).status === 200;
    });
    for (let i = 0; i < 3; i++) {
      const hash = await commit();
      for (let j = 0; j < 10; j++) {
        const res = await fetch(`${server.httpUrl}/v2/key-blocks/height/${top}`);
        expect(res.status).to.equal(200);
        expect(((await res.json()) as { hash: string }).hash).to.equal(hash);
      }
    }
    expect((await fetch(`${server.httpUrl}/readyz`)).status).to.equal(200);
    await waitFor('the loss logged', () => logged('read replica lost or promoted: no reads go there').length > 0);
    await fixture.pg.startReplica(1);
    await waitFor(
      'the return logged',
      () => logged('read replica back: reads go there once it has caught up').length > 0,
    );
    await commit();
    await waitFor('reads on the stopped one again', async () => {
      await fetch(`${server.httpUrl}/mdw/v3/key-blocks/2`);
      return (await serverConnections(fixture.pg.replicaUrls[1]!)) > 0;
    });
    expect(logged('read replica lost or promoted: no reads go there')).to.have.length(1);
    expect(logged('read replica back: reads go there once it has caught up')).to.have.length(1);
    expect(logged('database unavailable: refusing what needs it until it is back')).to.have.length(0);
    expect(fixture.lines.filter((l) => l.level >= 50).map((l) => l.msg)).to.deep.equal([]);
  });
});

async function serverConnectionsOn(url: string): Promise<number> {
  const { rows } = await queryOnce<{ n: number }>(
    url,
    "SELECT count(*)::int AS n FROM pg_stat_activity WHERE application_name = 'mdw-server'",
  );
  return rows[0]!.n;
}
