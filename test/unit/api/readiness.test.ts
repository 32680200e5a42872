import { expect } from 'chai';
import {
  databaseState,
  readiness,
  replicaBehind,
  SLOW_MS,
  stateReadiness,
  UNREACHABLE_AFTER_MS,
} from '../../../src/api/http/readiness.ts';

describe('readiness: /readyz of a server that is starting, or stopping (SHUTDOWN_DELAY_MS)', () => {
  it('is not ready, "stopping", without asking the database, however well it answers or a replica lags', async () => {
    let pinged = 0;
    const answers = () => (pinged++, Promise.resolve({ ready: true as const }));
    const behind = { seconds: 120, maxSeconds: 30 };
    expect(await readiness('stopping', undefined, undefined, answers)).to.deep.equal({
      ready: false,
      reason: 'stopping',
    });
    expect(await readiness('stopping', undefined, behind, answers)).to.deep.equal({ ready: false, reason: 'stopping' });
    expect(pinged).to.equal(0);
    // the same server before its stop: the database's answer, then the replica's lag
    expect(await readiness('serving', undefined, undefined, answers)).to.deep.equal({ ready: true });
    expect(pinged).to.equal(1);
    expect((await readiness('serving', undefined, behind, answers)).ready).to.equal(false);
  });

  it('is not ready while the websocket is not listening yet, naming a replica it waits for', async () => {
    let pinged = 0;
    const answers = () => (pinged++, Promise.resolve({ ready: true as const }));
    expect(await readiness('starting', undefined, undefined, answers)).to.deep.equal({
      ready: false,
      reason: 'starting: websocket not listening yet',
    });
    expect(pinged).to.equal(0);
    // a server reading standbys starts its websocket once one has replayed the primary's position: that is the reason
    expect(await readiness('starting', undefined, { seconds: null, maxSeconds: 30 }, answers)).to.deep.equal({
      ready: false,
      reason: 'no read replica serving',
    });
  });
});

describe('replicaBehind: /readyz of a server reading standbys', () => {
  it('says nothing for a server reading the primary', () => {
    expect(replicaBehind(undefined)).to.equal(undefined);
  });

  it('is ready up to the bound, not beyond it, and not while no standby serves', () => {
    expect(replicaBehind({ seconds: 0, maxSeconds: 30 })).to.equal(undefined);
    expect(replicaBehind({ seconds: 30, maxSeconds: 30 })).to.equal(undefined);
    expect(replicaBehind({ seconds: 30.4, maxSeconds: 30 })).to.deep.equal({
      ready: false,
      reason: 'read replica 30 s behind (maximum 30 s)',
    });
    expect(replicaBehind({ seconds: null, maxSeconds: 30 })).to.deep.equal({
      ready: false,
      reason: 'no read replica serving',
    });
  });
});

describe('databaseState and stateReadiness: what the readiness pings found, named for /readyz', () => {
  const now = 1_000_000;

  it('is ready while the database answers, however slowly, and busy while this process is', () => {
    expect(databaseState({ answeredAtMs: now, lastMs: 5 }, now)).to.equal('answers');
    expect(databaseState({ answeredAtMs: now, lastMs: 3000 }, now)).to.equal('slow');
    expect(databaseState({ answeredAtMs: now, lastMs: 5, pendingMs: SLOW_MS + 1 }, now)).to.equal('slow');
    expect(databaseState({ answeredAtMs: now, lastMs: 5, pendingMs: SLOW_MS }, now)).to.equal('answers');
    expect(databaseState({ answeredAtMs: now, busy: true }, now)).to.equal('busy');
    const pings = { answeredAtMs: now, lastMs: 3000 };
    expect(stateReadiness('slow', pings, now, false)).to.deep.equal({ ready: true, reason: 'database slow' });
    expect(stateReadiness('slow', pings, now, true)).to.deep.equal({ ready: true, busy: true });
    expect(stateReadiness('busy', pings, now, false)).to.deep.equal({ ready: true, busy: true });
    expect(stateReadiness('answers', pings, now, false)).to.deep.equal({ ready: true });
  });

  it('is not ready once connections have failed for UNREACHABLE_AFTER_MS, or at once if they never worked', () => {
    const failing = { answeredAtMs: now - 20_000, failingSinceMs: now - UNREACHABLE_AFTER_MS + 1 };
    expect(databaseState(failing, now)).to.equal('failing');
    expect(stateReadiness('failing', failing, now, false)).to.deep.equal({
      ready: true,
      reason: `database unreachable for 9 s (not ready after ${UNREACHABLE_AFTER_MS / 1000} s)`,
    });
    expect(databaseState(failing, now + 1)).to.equal('unreachable');
    expect(stateReadiness('unreachable', failing, now + 1, false)).to.deep.equal({
      ready: false,
      reason: 'database unreachable',
    });
    expect(databaseState({ failingSinceMs: now }, now)).to.equal('unreachable');
    // a ping in flight past a second while failing is no answer: still failing
    expect(databaseState({ ...failing, pendingMs: 5000 }, now)).to.equal('failing');
  });
});
