import { expect } from 'chai';
import { Backoff, backoffDelay, retry, sleep } from '../../src/retry.ts';

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
