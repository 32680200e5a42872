import { expect } from 'chai';
import { Admission, Deadline } from '../../../src/api/http/admission.ts';
import { AppError } from '../../../src/base/errors.ts';
import { TurnQueue } from '../../../src/base/turns.ts';
import { HeldTurns } from '../../support/held-turns.ts';
import { countTurns } from '../../support/loop-turns.ts';

/** gate is a promise and the function that resolves it: a request that runs until told to finish. */
function gate(): { done: Promise<void>; finish: () => void } {
  let finish!: () => void;
  const done = new Promise<void>((resolve) => (finish = resolve));
  return { done, finish };
}

/** turns lets the event loop turn a few times: each request starts on a turn of its own. */
async function turns(): Promise<void> {
  for (let i = 0; i < 5; i++) await new Promise((r) => setImmediate(r));
}

const refusal = (p: Promise<unknown>): Promise<string> =>
  p.then(
    () => 'ran',
    (err: unknown) => (err instanceof AppError ? `${err.status} ${err.code}` : String(err)),
  );

describe('Admission', () => {
  it('runs at most `concurrency` at once, the next in order of arrival as each finishes', async () => {
    const admission = new Admission({ concurrency: 2, maxWaiting: 10, maxWaitMs: 10_000, deadlineMs: 10_000 });
    const started: number[] = [];
    const gates = [gate(), gate(), gate(), gate()];
    const runs = gates.map((g, i) => admission.run(async () => (started.push(i), g.done)));
    await turns();
    expect(started).to.deep.equal([0, 1]);
    gates[1]!.finish();
    await runs[1];
    await turns();
    expect(started).to.deep.equal([0, 1, 2]);
    for (const g of gates) g.finish();
    await Promise.all(runs);
    expect(started).to.deep.equal([0, 1, 2, 3]);
  });

  it('refuses with 503 MDW_OVERLOADED at once when the line is full, and after maxWaitMs in it', async () => {
    const admission = new Admission({ concurrency: 1, maxWaiting: 1, maxWaitMs: 50, deadlineMs: 10_000 });
    const running = gate();
    const first = admission.run(() => running.done);
    const waiting = refusal(admission.run(async () => {}));
    expect(await refusal(admission.run(async () => {}))).to.equal('503 MDW_OVERLOADED');
    expect(await waiting).to.equal('503 MDW_OVERLOADED');
    running.finish();
    await first;
    // a refused request took no turn: the next one runs at once
    expect(await refusal(admission.run(async () => {}))).to.equal('ran');
  });

  it('counts as pressure each request that found every turn taken, parked or refused, none let in at once', async () => {
    const admission = new Admission({ concurrency: 1, maxWaiting: 1, maxWaitMs: 10_000, deadlineMs: 10_000 });
    const running = gate();
    const first = admission.run(() => running.done);
    expect(admission.counts.pressure).to.equal(0);
    const parked = admission.run(async () => {});
    expect(await refusal(admission.run(async () => {}))).to.equal('503 MDW_OVERLOADED');
    expect(admission.counts).to.deep.equal({ running: 1, waiting: 1, pressure: 2 });
    running.finish();
    await Promise.all([first, parked]);
    await admission.run(async () => {});
    expect(admission.counts).to.deep.equal({ running: 0, waiting: 0, pressure: 2 });
  });

  it('starts each request in a turn of the event loop of its own, those let in at once and from the line', async () => {
    const admission = new Admission({ concurrency: 2, maxWaiting: 10, maxWaitMs: 10_000, deadlineMs: 10_000 });
    const loop = countTurns();
    const startedOn: number[] = [];
    // answered without I/O, as from memory: two let in at once (as two sockets of one poll), four from the line
    await Promise.all(Array.from({ length: 6 }, () => admission.run(async () => void startedOn.push(loop.now))));
    loop.stop();
    expect(new Set(startedOn).size).to.equal(6);
  });

  it('starts its requests in the turns it shares with the pool, after those asked for before', async () => {
    const shared = new TurnQueue();
    const admission = new Admission({ concurrency: 2, maxWaiting: 10, maxWaitMs: 10_000, deadlineMs: 10_000 }, shared);
    const order: string[] = [];
    // a query's rows waiting for a turn before the request comes in
    const rows = shared.next().then(() => void order.push('rows'));
    await Promise.all([rows, admission.run(async () => void order.push('request'))]);
    expect(order).to.deep.equal(['rows', 'request']);
  });

  // issue 59: a request let in near its deadline waited for a turn of a starved loop and was refused when it came
  it('refuses a request at its deadline while it waits for its turn of the event loop, and starts nothing after', async () => {
    const held = new HeldTurns();
    const admission = new Admission({ concurrency: 1, maxWaiting: 10, maxWaitMs: 10_000, deadlineMs: 50 }, held);
    let started = false;
    // refused while its turn is still held: before, it waited for the turn, for ever here
    expect(
      await refusal(
        admission.run(async () => {
          started = true;
        }),
      ),
    ).to.equal('503 MDW_OVERLOADED');
    expect(held.asked).to.equal(1);
    // its turn of the pool is held until its turn of the loop has come: nothing given up runs beside the next ones
    expect(admission.counts.running).to.equal(1);
    held.release();
    await turns();
    expect(started).to.equal(false);
    expect(admission.counts.running).to.equal(0);
  });

  it('spreads the refusals of requests parked together over the last quarter of maxWaitMs', async () => {
    // a window of 500 ms: a loaded machine's loop that stalls past a window fires every refusal in one late turn
    const maxWaitMs = 2000;
    const admission = new Admission({ concurrency: 1, maxWaiting: 100, maxWaitMs, deadlineMs: 10_000 });
    const running = gate();
    const first = admission.run(() => running.done);
    const parked = performance.now();
    const refusedAt = await Promise.all(
      Array.from({ length: 20 }, () => admission.run(async () => {}).catch(() => performance.now() - parked)),
    );
    running.finish();
    await first;
    // none before three quarters of the wait; not all in one turn of the event loop (a wave of refusals)
    expect(Math.min(...(refusedAt as number[]))).to.be.at.least(maxWaitMs * 0.75 - 1);
    expect(Math.max(...(refusedAt as number[])) - Math.min(...(refusedAt as number[]))).to.be.above(20);
  });

  it('runs a request of weight w once w turns are free, in order of arrival: lighter ones behind it wait too', async () => {
    const admission = new Admission({ concurrency: 4, maxWaiting: 10, maxWaitMs: 10_000, deadlineMs: 10_000 });
    const started: string[] = [];
    const gates = new Map<string, ReturnType<typeof gate>>();
    const start = (name: string, weight: number): Promise<void> => {
      const g = gate();
      gates.set(name, g);
      return admission.run(async () => (started.push(name), g.done), weight);
    };
    const runs = [start('light 1', 1), start('light 2', 1), start('heavy', 3), start('light 3', 1)];
    await turns();
    // two turns are free, the heavy one needs three: it waits, and the light one after it waits behind it
    expect(started).to.deep.equal(['light 1', 'light 2']);
    expect(admission.counts).to.deep.include({ running: 2, waiting: 2 });
    gates.get('light 1')!.finish();
    await turns();
    expect(started).to.deep.equal(['light 1', 'light 2', 'heavy']);
    // 1 + 3 turns held: the last light one still waits
    expect(admission.counts).to.deep.include({ running: 2, waiting: 1 });
    gates.get('light 2')!.finish();
    await turns();
    expect(started).to.deep.equal(['light 1', 'light 2', 'heavy', 'light 3']);
    for (const g of gates.values()) g.finish();
    await Promise.all(runs);
    expect(admission.counts).to.deep.include({ running: 0, waiting: 0 });
  });

  it('runs a request heavier than the whole server alone, and never a fraction of a turn', async () => {
    const admission = new Admission({ concurrency: 2, maxWaiting: 10, maxWaitMs: 10_000, deadlineMs: 10_000 });
    const started: string[] = [];
    const heavy = gate();
    const runs = [
      admission.run(async () => (started.push('heavy'), heavy.done), 1000),
      admission.run(async () => void started.push('light')),
    ];
    await turns();
    expect(started).to.deep.equal(['heavy']);
    heavy.finish();
    await Promise.all(runs);
    expect(started).to.deep.equal(['heavy', 'light']);
    // 0.3 of a turn is a turn: two of them do not share one
    const both = [gate(), gate()];
    const light = both.map((g) => admission.run(() => g.done, 0.3));
    await turns();
    expect(admission.counts.running).to.equal(2);
    for (const g of both) g.finish();
    await Promise.all(light);
  });

  it('lets the lighter requests behind a heavy one in when the heavy one gives up waiting', async () => {
    const admission = new Admission({ concurrency: 2, maxWaiting: 10, maxWaitMs: 10_000, deadlineMs: 10_000 });
    const running = gate();
    const first = admission.run(() => running.done);
    // the heavy one came long ago (it did work before it asked): its wait is over at once
    const heavy = refusal(admission.run(async () => {}, 2, performance.now() - 20_000));
    // parked behind the heavy one, though a turn is free; let in when the heavy one leaves the line
    const light = refusal(admission.run(async () => {}));
    expect(await heavy).to.equal('503 MDW_OVERLOADED');
    expect(await light).to.equal('ran');
    running.finish();
    await first;
    expect(admission.counts).to.deep.include({ running: 0, waiting: 0 });
  });

  it('hands the work its deadline: past it, check() refuses the request with 503 MDW_OVERLOADED', async () => {
    const past = new Admission({ concurrency: 1, maxWaiting: 1, maxWaitMs: 10_000, deadlineMs: 0 });
    expect(await refusal(past.run(async (deadline) => deadline.check()))).to.equal('503 MDW_OVERLOADED');
    const ahead = new Admission({ concurrency: 1, maxWaiting: 1, maxWaitMs: 10_000, deadlineMs: 60_000 });
    expect(await refusal(ahead.run(async (deadline) => deadline.check()))).to.equal('ran');
    // counted from the request's arrival, when it did work before it asked
    const arrivedLongAgo = performance.now() - 120_000;
    expect(await refusal(ahead.run(async (deadline) => deadline.check(), 1, arrivedLongAgo))).to.equal(
      '503 MDW_OVERLOADED',
    );
    expect(() => new Deadline(Infinity).check()).to.not.throw();
    expect(() => new Deadline(performance.now() - 1).check()).to.throw(AppError, 'server busy');
  });

  it('refuses a request at its deadline whether its work has ended or not, and holds its turn until it has', async () => {
    const admission = new Admission({ concurrency: 1, maxWaiting: 10, maxWaitMs: 10_000, deadlineMs: 50 });
    const stuck = gate();
    const started: string[] = [];
    const first = refusal(admission.run(async () => (started.push('stuck'), stuck.done)));
    // one in line behind it, whose deadline is far (counted from an arrival ahead of now)
    const next = refusal(admission.run(async () => void started.push('next'), 1, performance.now() + 60_000));
    expect(await first).to.equal('503 MDW_OVERLOADED');
    // the work given up still runs: its turn is not handed on until it has stopped
    await turns();
    expect(started).to.deep.equal(['stuck']);
    expect(admission.counts).to.deep.include({ running: 1, waiting: 1 });
    stuck.finish();
    expect(await next).to.equal('ran');
    expect(started).to.deep.equal(['stuck', 'next']);
    expect(admission.counts).to.deep.include({ running: 0, waiting: 0 });
  });

  it('starts nothing whose turn came after its deadline', async () => {
    const admission = new Admission({ concurrency: 1, maxWaiting: 10, maxWaitMs: 10_000, deadlineMs: 60_000 });
    let ran = false;
    const late = admission.run(async () => void (ran = true), 1, performance.now() - 60_000);
    expect(await refusal(late)).to.equal('503 MDW_OVERLOADED');
    expect(ran).to.equal(false);
  });
});
