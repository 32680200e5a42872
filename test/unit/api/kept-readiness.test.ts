/** @module KeptReadiness (issue 89): a ready judgement answered from memory, a not-ready one judged anew. */
import { expect } from 'chai';
import { KeptReadiness, REFRESH_MS } from '../../../src/api/http/kept-readiness.ts';
import type { Readiness } from '../../../src/api/http/readiness.ts';

describe('KeptReadiness', () => {
  const DOWN: Readiness = { ready: false, reason: 'database unreachable' };
  const pause = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

  it('answers the last ready judgement at once, starting one new judgement at a time when it is old', async () => {
    let judged = 0;
    let answer: Readiness = { ready: true };
    let finish: (() => void) | undefined;
    const kept = new KeptReadiness(async () => {
      judged++;
      if (judged > 1) await new Promise<void>((resolve) => (finish = resolve));
      return answer;
    });
    expect(await kept.current()).to.deep.equal({ ready: true }); // the first probe waits for the first judgement
    await pause(REFRESH_MS + 10);
    answer = DOWN;
    // the second judgement hangs: every probe meanwhile is answered the kept one, and starts no other
    for (let i = 0; i < 3; i++) expect(await kept.current()).to.deep.equal({ ready: true });
    expect(judged).to.equal(2);
    finish!();
    await pause(0);
    // a not-ready judgement is judged anew at each probe
    answer = { ready: true, busy: true };
    const next = kept.current();
    finish!();
    expect(await next).to.deep.equal({ ready: true, busy: true });
    expect(judged).to.equal(3);
  });

  it('tells not ready from the judgement that found it', async () => {
    const kept = new KeptReadiness(async () => DOWN);
    expect(await kept.current()).to.deep.equal(DOWN);
  });
});
