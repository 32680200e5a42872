/** @module The keyed work queue: dedupe, one worker per key, backoff growth and cap, requeueAfter, rate limit, shutdown. */
import { expect } from 'chai';
import { WorkQueue, type ProcessResult, type WorkQueueOptions } from '../../../src/operator/runtime/queue.ts';

const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

/** started makes a queue and starts it, as the operator does. */
function started(opts: WorkQueueOptions): WorkQueue {
  const queue = new WorkQueue(opts);
  queue.start();
  return queue;
}

describe('WorkQueue', () => {
  let queue: WorkQueue | undefined;
  afterEach(async () => {
    await queue?.stop();
    queue = undefined;
  });

  it('merges duplicate keys added before a worker takes them', async () => {
    const calls: string[] = [];
    let release!: () => void;
    const gate = new Promise<void>((r) => {
      release = r;
    });
    queue = started({
      concurrency: 1,
      process: async (k) => {
        calls.push(k);
        await gate;
      },
    });
    queue.add('busy'); // occupies the only worker
    for (let i = 0; i < 5; i++) queue.add('a');
    queue.add('b');
    queue.add('a');
    expect(queue.depth).to.equal(2);
    release();
    await queue.idle();
    expect(calls).to.deep.equal(['busy', 'a', 'b']);
  });

  it('never runs the same key twice at once; an add during processing runs it once more afterwards', async () => {
    let active = 0;
    let maxActive = 0;
    let runs = 0;
    queue = started({
      concurrency: 4,
      process: async () => {
        active++;
        maxActive = Math.max(maxActive, active);
        runs++;
        await sleep(10);
        active--;
      },
    });
    queue.add('k');
    await sleep(2);
    queue.add('k');
    queue.add('k');
    await queue.idle();
    expect(maxActive).to.equal(1);
    expect(runs).to.equal(2);
  });

  it('runs different keys in parallel up to the concurrency', async () => {
    let active = 0;
    let maxActive = 0;
    queue = started({
      concurrency: 3,
      process: async () => {
        active++;
        maxActive = Math.max(maxActive, active);
        await sleep(10);
        active--;
      },
    });
    for (const k of ['a', 'b', 'c', 'd', 'e']) queue.add(k);
    await queue.idle();
    expect(maxActive).to.equal(3);
  });

  it('backs off exponentially per key after errors, caps the delay, and forgets after a success', async () => {
    const delays: number[] = [];
    let attempts = 0;
    queue = started({
      baseDelayMs: 1,
      maxDelayMs: 8,
      process: async () => {
        attempts++;
        if (attempts <= 6) throw new Error('transient');
      },
      onError: (_k, _e, _n, delayMs) => delays.push(delayMs),
    });
    queue.add('k');
    await queue.idle(100);
    expect(delays).to.deep.equal([1, 2, 4, 8, 8, 8]);
    expect(attempts).to.equal(7);
    expect(queue.failures('k')).to.equal(0);
  });

  it('a backoff of one key does not delay other keys', async () => {
    const done: string[] = [];
    queue = started({
      baseDelayMs: 60_000,
      process: async (k) => {
        if (k === 'bad') throw new Error('always');
        done.push(k);
      },
    });
    queue.add('bad');
    queue.add('good');
    await queue.idle();
    expect(done).to.deep.equal(['good']);
    expect(queue.failures('bad')).to.equal(1);
  });

  it('requeueAfterMs brings the key back later without counting a failure', async () => {
    let runs = 0;
    queue = started({
      process: async (): Promise<ProcessResult> => {
        runs++;
        return runs < 3 ? { requeueAfterMs: 5 } : undefined;
      },
    });
    queue.add('poll');
    await queue.idle(50);
    expect(runs).to.equal(3);
    expect(queue.failures('poll')).to.equal(0);
  });

  it('addAfter keeps the earliest schedule for a key', async () => {
    const at: number[] = [];
    const start = Date.now();
    queue = started({
      process: async () => {
        at.push(Date.now() - start);
      },
    });
    queue.addAfter('k', 10_000);
    queue.addAfter('k', 20);
    queue.addAfter('k', 5_000);
    await queue.idle(100);
    expect(at).to.have.length(1);
    expect(at[0]).to.be.lessThan(1000);
  });

  it('the global token bucket limits starts to burst + qps over time', async () => {
    const starts: number[] = [];
    const t0 = Date.now();
    queue = started({
      qps: 50,
      burst: 2,
      concurrency: 10,
      process: async () => {
        starts.push(Date.now() - t0);
      },
    });
    for (let i = 0; i < 6; i++) queue.add(`k${i}`);
    await queue.idle();
    expect(starts).to.have.length(6);
    // two at once from the burst, then one every 20 ms: the sixth cannot start before ~80 ms
    expect(starts[1]).to.be.lessThan(15);
    expect(starts[5]).to.be.at.least(75);
  });

  it('stop waits for running work, drops waiting keys and ignores later adds', async () => {
    const calls: string[] = [];
    let finished = false;
    queue = started({
      concurrency: 1,
      process: async (k) => {
        calls.push(k);
        await sleep(20);
        finished = true;
      },
    });
    queue.add('a');
    queue.add('b');
    queue.addAfter('c', 5);
    await sleep(2);
    await queue.stop();
    expect(finished).to.equal(true);
    queue.add('d');
    await sleep(30);
    expect(calls).to.deep.equal(['a']);
  });

  it('reports depth, adds and retries to observers', async () => {
    const depths: number[] = [];
    let adds = 0;
    let retries = 0;
    let fail = true;
    queue = started({
      baseDelayMs: 1,
      onDepth: (d) => depths.push(d),
      onAdd: () => adds++,
      onRetry: () => retries++,
      process: async () => {
        if (fail) {
          fail = false;
          throw new Error('once');
        }
      },
    });
    queue.add('x');
    await queue.idle(20);
    expect(adds).to.equal(2);
    expect(retries).to.equal(1);
    expect(depths.at(-1)).to.equal(0);
    expect(Math.max(...depths)).to.equal(1);
  });

  it('processes nothing before start(), then the keys added meanwhile', async () => {
    const calls: string[] = [];
    queue = new WorkQueue({ process: async (k) => void calls.push(k) });
    queue.add('a');
    queue.add('b');
    await sleep(10);
    expect(calls).to.deep.equal([]);
    queue.start();
    await queue.idle();
    expect(calls).to.deep.equal(['a', 'b']);
  });

  it('stop aborts the signal of the work in flight (a deposed leader stops writing)', async () => {
    let seen: AbortSignal | undefined;
    queue = started({
      process: async (_k, signal) => {
        seen = signal;
        await new Promise((resolve) => signal.addEventListener('abort', resolve, { once: true }));
      },
    });
    queue.add('k');
    await sleep(2);
    expect(seen?.aborted).to.equal(false);
    await queue.stop();
    expect(seen?.aborted).to.equal(true);
  });

  it('reports how long a key waited and how long its work took', async () => {
    const latencies: number[] = [];
    const durations: number[] = [];
    queue = started({
      concurrency: 1,
      onLatency: (s) => latencies.push(s),
      onWorkDuration: (s) => durations.push(s),
      process: () => sleep(20),
    });
    queue.add('a');
    queue.add('b');
    await queue.idle();
    expect(latencies).to.have.length(2);
    expect(latencies[1]).to.be.at.least(0.015); // b waited for a
    expect(durations).to.have.length(2);
    expect(Math.min(...durations)).to.be.at.least(0.015);
  });
});
