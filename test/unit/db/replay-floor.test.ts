import { expect } from 'chai';
import { ReplayFloor } from '../../../src/db/connection/replay-floor.ts';
import { noReplicaReason } from '../../../src/db/connection/replica-routing.ts';
import type { Replica } from '../../../src/db/connection/replica-watch.ts';
import type { Pool } from '../../../src/db/connection/pool.ts';

describe('db/replay-floor: the floor rises as a replica replays what notifications wait for, in order', () => {
  it('releases a position already replayed at once, raising the floor to it', () => {
    const f = new ReplayFloor();
    expect(f.release(undefined, 10n), 'no replica known').to.equal(false);
    expect(f.release(100n, 50n)).to.equal(true);
    expect(f.floor).to.equal(50n);
    // a position below the floor leaves it where it is
    expect(f.release(100n, 20n)).to.equal(true);
    expect(f.floor).to.equal(50n);
  });

  it('requires a position at once: no replica behind it serves until one has replayed it (a server start)', async () => {
    const f = new ReplayFloor();
    f.release(100n, 100n);
    f.require(400n);
    expect(f.floor, 'raised before any replica is there').to.equal(400n);
    f.require(300n);
    expect(f.floor, 'never lowered').to.equal(400n);
    const replayed = f.wait(400n);
    f.release(399n);
    expect(f.waiting).to.equal(true);
    f.release(400n);
    await replayed;
    expect([f.floor, f.waiting]).to.deep.equal([400n, false]);
  });

  it('keeps waiters until a replica has replayed theirs, and releases them in order', async () => {
    const f = new ReplayFloor();
    const released: bigint[] = [];
    const wait = (lsn: bigint): Promise<void> => f.wait(lsn).then(() => void released.push(lsn));
    const all = Promise.all([wait(200n), wait(300n)]);
    expect(f.waiting).to.equal(true);
    f.release(250n);
    await Promise.resolve();
    expect(released).to.deep.equal([200n]);
    expect(f.floor).to.equal(200n);
    f.release(300n);
    await all;
    expect(released).to.deep.equal([200n, 300n]);
    expect([f.floor, f.waiting]).to.deep.equal([300n, false]);
  });

  // issue 59: the status's reading of the top on a standby behind a heard commit waited for it, then answered 503
  it('releases a position a replica has replayed at once, whatever waits for one it has not', async () => {
    const f = new ReplayFloor();
    const notification = f.wait(300n);
    expect(f.release(250n, 100n), 'replayed already').to.equal(true);
    expect(f.floor).to.equal(100n);
    // one the last look has not seen replayed yet waits for the next look, not for the notification before it
    const reading = f.wait(260n);
    f.release(270n);
    await reading;
    expect([f.floor, f.waiting]).to.deep.equal([260n, true]);
    f.release(300n);
    await notification;
    expect([f.floor, f.waiting]).to.deep.equal([300n, false]);
  });

  it('forgets a waiter whose wait is aborted, leaving the floor and the others as they were', async () => {
    const f = new ReplayFloor();
    const abort = new AbortController();
    const given = f.wait(300n, abort.signal);
    const next = f.wait(200n);
    abort.abort(new Error('stopped'));
    await given.then(
      () => expect.fail('released'),
      (err: Error) => expect(err.message).to.equal('stopped'),
    );
    // the one behind it is no longer held by it
    f.release(250n);
    await next;
    expect([f.floor, f.waiting]).to.deep.equal([200n, false]);
    await f.wait(1n, abort.signal).then(
      () => expect.fail('waited'),
      (err: Error) => expect(err.message, 'aborted before').to.equal('stopped'),
    );
    expect(f.waiting).to.equal(false);
  });

  it('drops the waiters when the replicas stop', async () => {
    const f = new ReplayFloor();
    const waiting = f.wait(5n);
    f.drop(new Error('read replicas stopped'));
    await waiting.then(
      () => expect.fail('released'),
      (err: Error) => expect(err.message).to.equal('read replicas stopped'),
    );
    expect(f.waiting).to.equal(false);
  });
});

describe('db/replica-routing: why no read can go to a replica', () => {
  const replica = (state: Partial<Replica>): Replica => ({
    url: 'postgres://standby',
    pool: {} as Pool,
    reachable: true,
    standby: true,
    replayed: 0n,
    shown: false,
    ...state,
  });

  it('names the first missing condition: reachable, a standby, replayed the floor', () => {
    expect(noReplicaReason([replica({ reachable: false })], 1n)).to.equal('no read replica reachable');
    expect(noReplicaReason([replica({ standby: false })], 1n)).to.equal('no read replica is a standby (promoted?)');
    expect(noReplicaReason([replica({ replayed: 1n })], 0x1_00000010n)).to.equal(
      'no read replica has replayed 1/10 yet',
    );
  });
});
