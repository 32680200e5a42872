import { expect } from 'chai';
import {
  Backoff,
  backoffDelay,
  MAX_RETRY_AFTER_MS,
  retry,
  retryAfterMs,
  sleep,
  waitBefore,
} from '../../src/base/retry.ts';

describe('backoffDelay(attempt, options)', () => {
  it('doubles from the initial delay up to the cap when there is no jitter', () => {
    const options = { initialMs: 100, maxMs: 500 };
    expect([1, 2, 3, 4, 10].map((a) => backoffDelay(a, options))).to.deep.equal([100, 200, 400, 500, 500]);
  });

  it('spreads a delay over ±jitter and never past the cap', () => {
    const options = { initialMs: 1000, maxMs: 1100, jitter: 0.2 };
    expect(backoffDelay(1, options, () => 0)).to.equal(800);
    expect(backoffDelay(1, options, () => 0.5)).to.equal(1000);
    expect(backoffDelay(1, options, () => 1)).to.equal(1100);
  });
});

describe('Backoff', () => {
  it('counts failures in a row and starts over after reset', () => {
    const backoff = new Backoff({ initialMs: 10, maxMs: 40 });
    expect([backoff.next(), backoff.next(), backoff.next(), backoff.next()]).to.deep.equal([10, 20, 40, 40]);
    expect(backoff.failures).to.equal(4);
    backoff.reset();
    expect(backoff.next()).to.equal(10);
  });
});

describe('sleep(ms, signal)', () => {
  it('ends at once when the signal aborts', async () => {
    const abort = new AbortController();
    const started = Date.now();
    setTimeout(() => abort.abort(), 10);
    await sleep(60_000, abort.signal);
    expect(Date.now() - started).to.be.below(5_000);
  });
});

describe('retry(fn, options)', () => {
  it('tries again until fn resolves, telling onRetry each failed attempt', async () => {
    const retried: number[] = [];
    const result = await retry(
      async (attempt) => {
        if (attempt < 3) throw new Error(`fail ${attempt}`);
        return attempt;
      },
      { attempts: 5, initialMs: 1, maxMs: 2, onRetry: (attempt) => retried.push(attempt) },
    );
    expect(result).to.equal(3);
    expect(retried).to.deep.equal([1, 2]);
  });

  it('throws the last error once the attempts are spent', async () => {
    let calls = 0;
    const failing = (): Promise<never> => Promise.reject(new Error(`fail ${++calls}`));
    const err = await retry(failing, { attempts: 3, initialMs: 1, maxMs: 1 }).catch((e: unknown) => e);
    expect((err as Error).message).to.equal('fail 3');
  });

  it('does not retry an error that is not retryable', async () => {
    let calls = 0;
    const failing = (): Promise<never> => Promise.reject(new Error(`fail ${++calls}`));
    await retry(failing, { attempts: 5, initialMs: 1, maxMs: 1, retryable: () => false }).catch(() => undefined);
    expect(calls).to.equal(1);
  });

  it('stops waiting and throws when the signal aborts', async () => {
    const abort = new AbortController();
    const started = Date.now();
    setTimeout(() => abort.abort(), 10);
    const failing = (): Promise<never> => Promise.reject(new Error('down'));
    const options = { attempts: 10, initialMs: 60_000, maxMs: 60_000, signal: abort.signal };
    const err = await retry(failing, options).catch((e: unknown) => e);
    expect((err as Error).message).to.equal('down');
    expect(Date.now() - started).to.be.below(5_000);
  });
});

describe('retryAfterMs(value, nowMs, maxMs)', () => {
  const now = Date.parse('Tue, 24 Nov 2026 20:00:00 GMT');
  it('reads delay-seconds and each HTTP-date form as the wait from now', () => {
    expect(retryAfterMs('3', now)).to.equal(3000);
    expect(retryAfterMs(' 30 ', now)).to.equal(30_000);
    expect(retryAfterMs('0', now)).to.equal(0);
    expect(retryAfterMs('Tue, 24 Nov 2026 20:00:07 GMT', now)).to.equal(7000);
    expect(retryAfterMs('Tuesday, 24-Nov-26 20:00:05 GMT', now)).to.equal(5000);
    expect(retryAfterMs('Tue Nov 24 20:00:04 2026', now)).to.equal(4000);
  });

  it('bounds the wait: a date passed is no wait, a long one is cut to the maximum', () => {
    expect(retryAfterMs('Tue, 24 Nov 2026 19:00:00 GMT', now)).to.equal(0);
    expect(retryAfterMs('86400', now)).to.equal(MAX_RETRY_AFTER_MS);
    expect(retryAfterMs('10', now, 5000)).to.equal(5000);
  });

  it('ignores what is neither (the caller’s own backoff applies)', () => {
    for (const value of [
      undefined,
      '',
      'soon',
      '-3',
      '1.5',
      '3s',
      '2026-11-24T20:00:07Z',
      'Tue, 32 Nov 2026 20:00:07 GMT',
    ])
      expect(retryAfterMs(value, now), String(value)).to.equal(undefined);
  });
});

describe('retry(fn, options) with a Retry-After', () => {
  it('waits what the error asks for when that is longer than the backoff, and the backoff otherwise', async () => {
    const delays: number[] = [];
    const asked = [undefined, 30, 1];
    let calls = 0;
    await retry(
      async () => {
        if (calls++ < 3) throw new Error('busy');
        return 'ok';
      },
      {
        attempts: 4,
        initialMs: 5,
        maxMs: 5,
        retryAfter: () => asked[delays.length],
        onRetry: (_attempt, _err, delayMs) => delays.push(delayMs),
      },
    );
    expect(delays).to.deep.equal([5, 30, 5]);
    expect(waitBefore(100, undefined)).to.equal(100);
    expect(waitBefore(100, 3000)).to.equal(3000);
  });
});
