/** @module The node agent's readiness verdict, judged as a kubelet's prober judges it (no cluster needed). */
import { expect } from 'chai';
import { nextReadiness, type Readiness } from './node-agent.ts';

describe("the node agent's readiness probes", () => {
  const judge = (results: boolean[], threshold?: number): boolean[] => {
    let state: Readiness = { ready: false, failures: 0 };
    return results.map((passed) => (state = nextReadiness(state, passed, threshold)).ready);
  };

  it('keeps a ready pod ready through fewer failed probes in a row than failureThreshold (3 by default)', () => {
    expect(judge([true, false, false, true, false, false])).to.deep.equal([true, true, true, true, true, true]);
  });

  it('marks it not ready at the failureThreshold-th failure in a row, and ready again at the next pass', () => {
    expect(judge([true, false, false, false, false, true])).to.deep.equal([true, true, true, false, false, true]);
    expect(judge([true, false], 1)).to.deep.equal([true, false]);
  });

  it('leaves a pod that never passed not ready', () => {
    expect(judge([false, false, false, false])).to.deep.equal([false, false, false, false]);
  });
});
