import { expect } from 'chai';
import { untilDatabaseAnswers } from '../../../src/db/connection/wait.ts';
import { capturedLog } from '../../support/captured-log.ts';

const refused = (): Error => Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' });
const fast = { backoff: { initialMs: 1, maxMs: 2 } };

describe('untilDatabaseAnswers', () => {
  it('retries while the database is away, logging the wait once and the return once', async () => {
    const { log, lines } = capturedLog('debug');
    let tries = 0;
    const value = await untilDatabaseAnswers(
      'migrations',
      async () => {
        if (++tries < 6) throw refused();
        return 'migrated';
      },
      log,
      fast,
    );
    expect(value).to.equal('migrated');
    expect(tries).to.equal(6);
    expect(lines.map((l) => l.msg)).to.deep.equal([
      'database unavailable: waiting for it before starting',
      'database available again',
    ]);
  });

  it('logs nothing when the database answers at once, and throws any other error at once', async () => {
    const { log, lines } = capturedLog('debug');
    expect(await untilDatabaseAnswers('check', async () => 1, log, fast)).to.equal(1);
    let tries = 0;
    const bug = untilDatabaseAnswers(
      'check',
      async () => {
        tries++;
        throw Object.assign(new Error('syntax error'), { code: '42601' });
      },
      log,
      fast,
    );
    expect(await bug.catch((e: Error) => e.message)).to.equal('syntax error');
    expect(tries).to.equal(1);
    expect(lines.map((l) => l.msg)).to.deep.equal([]);
  });

  it('gives up when its signal aborts (the process is stopping)', async () => {
    const { log } = capturedLog('debug');
    const stop = new AbortController();
    setTimeout(() => stop.abort(), 20);
    const wait = untilDatabaseAnswers('check', () => Promise.reject(refused()), log, { ...fast, signal: stop.signal });
    expect(
      await wait.then(
        () => 'resolved',
        (e: Error) => e.message,
      ),
    ).to.contain('ECONNREFUSED');
  });
});
