/**
 * @module The standby a server reads stopped and started again under read load: 503 with Retry-After meanwhile,
 * never a 500, the process running, one log line each way, and reads and events resuming (a notification heard while
 * the standby was away is handed on once it is back).
 */
import { expect } from 'chai';
import type { Json } from '../../../src/chain/json.ts';
import { waitFor } from '../../support/wait.ts';
import { UNREACHABLE_AFTER_MS } from '../../../src/api/http/readiness.ts';
import { startReplicaFixture, type ReplicaFixture } from './replica-fixture.ts';

const PATHS = ['/mdw/v3/transactions', '/mdw/v3/key-blocks/1', '/v2/key-blocks/height/2', '/middleware/count/current'];

describe('the standby a server reads, stopped and started again under read load', function () {
  this.timeout(180_000);
  const rejections: unknown[] = [];
  const onRejection = (reason: unknown): void => void rejections.push(reason);
  let fixture: ReplicaFixture;
  let server: ReplicaFixture['server'];
  const logged = (msg: string): ReplicaFixture['lines'] => fixture.logged(msg);
  const notReady = async (): Promise<boolean> => (await fetch(`${server.httpUrl}/readyz`)).status === 503;
  const errors = (): string[] => fixture.lines.filter((l) => l.level >= 50).map((l) => l.msg);

  before(async () => {
    fixture = await startReplicaFixture({ heights: 5, subscriptions: ['key_blocks'] });
    server = fixture.server;
    process.prependListener('unhandledRejection', onRejection);
  });
  after(async () => {
    process.off('unhandledRejection', onRejection);
    await fixture?.close();
  });

  it('answers 503 (never 500) while it is away, logs it once each way, and resumes reads and events', async () => {
    const statuses = new Map<number, number>();
    const odd: string[] = [];
    let loading = true;
    const worker = async (): Promise<void> => {
      for (let i = 0; loading; i++) {
        const path = PATHS[i % PATHS.length]!;
        const res = await fetch(`${server.httpUrl}${path}`);
        await res.arrayBuffer();
        statuses.set(res.status, (statuses.get(res.status) ?? 0) + 1);
        if (res.status !== 200 && res.status !== 503) odd.push(`${path}: ${res.status}`);
        if (res.status === 503) expect(res.headers.get('retry-after'), path).to.equal('5');
      }
    };
    const load = Promise.all(Array.from({ length: 4 }, () => worker()));
    try {
      await new Promise((resolve) => setTimeout(resolve, 500));
      await fixture.pg.stopReplica();
      // committed while the standby is away: its event waits for it
      const hash = String((await fixture.write(6)).keyBlock.hash);
      await fixture.announce(6, 6);
      await waitFor('reads refused', () => (statuses.get(503) ?? 0) > 20);
      // not ready once reads have been refused for UNREACHABLE_AFTER_MS
      await waitFor('the server to be not ready', notReady, UNREACHABLE_AFTER_MS + 10_000, 500);
      await fixture.pg.startReplica();
      const event = (await fixture.client.next(30_000)) as { payload: Record<string, Json> };
      expect(event.payload.hash).to.equal(hash);
      const res = await fetch(`${server.httpUrl}/v2/key-blocks/height/6`);
      expect(res.status).to.equal(200);
      expect(((await res.json()) as { hash: string }).hash).to.equal(hash);
      await waitFor('the return to be logged', () => logged('database available again').length > 0, 30_000);
      const okBefore = statuses.get(200) ?? 0;
      await waitFor('reads to succeed again', () => (statuses.get(200) ?? 0) > okBefore + 20);
    } finally {
      loading = false;
      await load;
    }
    expect(odd.slice(0, 5)).to.deep.equal([]);
    expect([...statuses.keys()].sort()).to.deep.equal([200, 503]);
    expect((await fetch(`${server.httpUrl}/readyz`)).status).to.equal(200);
    expect(logged('database unavailable: refusing what needs it until it is back')).to.have.length(1);
    expect(logged('database available again')).to.have.length(1);
    expect(errors()).to.deep.equal([]);
    expect(rejections.map(String)).to.deep.equal([]);
  });

  it('reads nothing from a standby that was promoted: 503 (never 500), not ready, the outage logged once more', async () => {
    const unavailable = logged('database unavailable: refusing what needs it until it is back').length;
    await fixture.pg.promoteReplica();
    await waitFor('reads refused', async () => (await fetch(`${server.httpUrl}/mdw/v3/transactions`)).status === 503);
    for (const path of PATHS) expect((await fetch(`${server.httpUrl}${path}`)).status, path).to.equal(503);
    await waitFor('the server to be not ready', notReady, UNREACHABLE_AFTER_MS + 10_000, 500);
    expect(logged('database unavailable: refusing what needs it until it is back')).to.have.length(unavailable + 1);
    expect(errors()).to.deep.equal([]);
    expect(rejections.map(String)).to.deep.equal([]);
  });
});
