/**
 * @module KeptReadiness: /readyz answered from the last pings at once while the database is known to answer (issue
 * 89), never waiting for a ping longer than WAIT_MS, a slow database ready and logged once, a failed first ping not
 * ready.
 */
import { expect } from 'chai';
import pino from 'pino';
import { KeptReadiness, REFRESH_MS, WAIT_MS } from '../../../src/api/http/kept-readiness.ts';
import type { PingResult } from '../../../src/api/http/readiness.ts';
import { capturedLog } from '../../support/captured-log.ts';

const silentLog = pino({ level: 'silent' });
const pause = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));
const ANSWERED: PingResult = { outcome: 'answered' };

/** hanging is a ping function whose pings after the first `free` wait for `finish()`; it counts them. */
function hanging(free = 1): {
  ping: () => Promise<PingResult>;
  finish: (result?: PingResult) => void;
  sent: () => number;
} {
  let sent = 0;
  let finishers: ((result: PingResult) => void)[] = [];
  return {
    ping: async () => {
      sent++;
      if (sent <= free) return ANSWERED;
      return new Promise<PingResult>((resolve) => finishers.push(resolve));
    },
    finish: (result = ANSWERED) => {
      for (const finish of finishers) finish(result);
      finishers = [];
    },
    sent: () => sent,
  };
}

describe('KeptReadiness', () => {
  it('answers from memory at once while the database answers, sending one ping at a time when the last is old', async () => {
    const pings = hanging();
    const kept = new KeptReadiness({ ping: pings.ping, log: silentLog });
    expect(await kept.current()).to.deep.equal({ ready: true }); // the first probe waits for the first ping
    await pause(REFRESH_MS + 10);
    for (let i = 0; i < 3; i++) {
      const started = performance.now();
      expect(await kept.current()).to.deep.equal({ ready: true });
      expect(performance.now() - started).to.be.below(50);
    }
    expect(pings.sent()).to.equal(2);
    pings.finish();
  });

  it('names a ping late past a second "database slow", ready, logged once however many probes', async () => {
    const { log, lines } = capturedLog();
    const pings = hanging();
    const kept = new KeptReadiness({ ping: pings.ping, log });
    await kept.current();
    await pause(REFRESH_MS + 10);
    await kept.current(); // sends the ping that hangs
    await pause(1100);
    for (let i = 0; i < 5; i++) expect(await kept.current()).to.deep.equal({ ready: true, reason: 'database slow' });
    pings.finish();
    await pause(0);
    // the ping that ended took over a second: slow until a prompt one
    expect(await kept.current()).to.deep.equal({ ready: true, reason: 'database slow' });
    expect(lines.filter((l) => l.msg.startsWith('database slow')).length).to.equal(1);
  });

  it('names it busy instead while requests wait for their turns (its rows wait behind them)', async () => {
    const pings = hanging();
    const kept = new KeptReadiness({ ping: pings.ping, log: silentLog, loaded: () => true });
    await kept.current();
    await pause(REFRESH_MS + 10);
    await kept.current();
    await pause(1100);
    expect(await kept.current()).to.deep.equal({ ready: true, busy: true });
    pings.finish();
  });

  it('is busy at the probe that finds the pool full, before any ping tells it', async () => {
    let full = false;
    const kept = new KeptReadiness({ ping: async () => ANSWERED, log: silentLog, busy: () => full });
    expect(await kept.current()).to.deep.equal({ ready: true });
    full = true;
    expect(await kept.current()).to.deep.equal({ ready: true, busy: true });
  });

  it('waits at most WAIT_MS for a first ping that hangs, and is not ready when the first ping fails', async () => {
    const pings = hanging(0);
    const kept = new KeptReadiness({ ping: pings.ping, log: silentLog });
    const started = performance.now();
    expect((await kept.current()).ready).to.equal(true);
    expect(performance.now() - started).to.be.within(WAIT_MS - 50, WAIT_MS + 300);
    pings.finish();
    const refused = new KeptReadiness({
      ping: async () => ({ outcome: 'failed', reason: 'connect ECONNREFUSED' }),
      log: silentLog,
    });
    expect(await refused.current()).to.deep.equal({ ready: false, reason: 'database unreachable' });
  });

  it('stays ready for a failure after answers, naming it, and is answered by its own probe once the database is back', async () => {
    let result: PingResult = ANSWERED;
    const kept = new KeptReadiness({ ping: async () => result, log: silentLog });
    await kept.current();
    await pause(REFRESH_MS + 10);
    result = { outcome: 'failed', reason: 'connect ECONNREFUSED' };
    expect(await kept.current()).to.deep.equal({ ready: true }); // answered from memory, the ping sent
    await pause(REFRESH_MS + 10);
    expect(await kept.current()).to.deep.equal({
      ready: true,
      reason: 'database unreachable for 0 s (not ready after 10 s)',
    });
    await pause(REFRESH_MS + 10);
    result = ANSWERED;
    expect(await kept.current()).to.deep.equal({ ready: true });
  });
});
