/** @module The node agent's readiness verdict, judged as a kubelet's prober judges it, and its subnet (no cluster needed). */
import { expect } from 'chai';
import { spawn } from 'node:child_process';
import { nextReadiness, reserveSubnet, type Readiness } from './node-agent.ts';

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

describe("the node agent's pod subnet", () => {
  it('is one no other agent holds, in this process or another, and free again once its agent stops', async () => {
    // another process's agent (another test file's cluster) holds the first free subnet from 200, until killed
    const agentModule = new URL('./node-agent.ts', import.meta.url).href;
    const holder = `const s = await (await import('${agentModule}')).reserveSubnet(200); s.held.ref(); console.log(s.octet);`;
    const other = spawn(process.execPath, ['--input-type=module', '--eval', holder], {
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    try {
      const held = await new Promise<number>((resolve) =>
        other.stdout.once('data', (line) => resolve(Number(String(line)))),
      );
      const mine = await reserveSubnet(held);
      const next = await reserveSubnet(held);
      expect([mine.octet, next.octet]).to.deep.equal([held + 1, held + 2]);
      await new Promise((resolve) => mine.held.close(resolve));
      const again = await reserveSubnet(held);
      expect(again.octet).to.equal(held + 1);
      for (const s of [next, again]) await new Promise((resolve) => s.held.close(resolve));
    } finally {
      other.kill();
    }
  });
});
