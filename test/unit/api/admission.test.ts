import { expect } from 'chai';
import { Admission } from '../../../src/api/admission.ts';
import { AppError } from '../../../src/errors.ts';

/** gate is a promise and the function that resolves it: a request that runs until told to finish. */
function gate(): { done: Promise<void>; finish: () => void } {
  let finish!: () => void;
  const done = new Promise<void>((resolve) => (finish = resolve));
  return { done, finish };
}

const refusal = (p: Promise<unknown>): Promise<string> =>
  p.then(
    () => 'ran',
    (err: unknown) => (err instanceof AppError ? `${err.status} ${err.code}` : String(err)),
  );

describe('Admission', () => {
  it('runs at most `concurrency` at once, the next in order of arrival as each finishes', async () => {
    const admission = new Admission({ concurrency: 2, maxWaiting: 10, maxWaitMs: 10_000 });
    const started: number[] = [];
    const gates = [gate(), gate(), gate(), gate()];
    const runs = gates.map((g, i) => admission.run(async () => (started.push(i), g.done)));
    await new Promise((r) => setImmediate(r));
    expect(started).to.deep.equal([0, 1]);
    gates[1]!.finish();
    await runs[1];
    await new Promise((r) => setImmediate(r));
    expect(started).to.deep.equal([0, 1, 2]);
    for (const g of gates) g.finish();
    await Promise.all(runs);
    expect(started).to.deep.equal([0, 1, 2, 3]);
  });

  it('refuses with 503 MDW_OVERLOADED at once when the line is full, and after maxWaitMs in it', async () => {
    const admission = new Admission({ concurrency: 1, maxWaiting: 1, maxWaitMs: 50 });
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
});
