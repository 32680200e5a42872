/**
 * @module The node agent's readiness verdict, judged as a kubelet's prober judges it, its subnet, and how it stops a
 * pod's process (no cluster needed).
 */
import { expect } from 'chai';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { stopProcess } from './control-plane.ts';
import { gracePeriodMs, nextReadiness, probePeriodMs, reserveSubnet, type Readiness } from './node-agent.ts';

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

  it('probes a ready container at its periodSeconds (10 s unset), one not ready every 2 s at most', () => {
    expect(probePeriodMs({ periodSeconds: 5 }, true)).to.equal(5000);
    expect(probePeriodMs(undefined, true)).to.equal(10_000);
    expect(probePeriodMs({ periodSeconds: 5 }, false)).to.equal(2000);
    expect(probePeriodMs({ periodSeconds: 1 }, false)).to.equal(1000);
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

describe("the node agent's stop of a pod's process", () => {
  /** a process that, told SIGTERM, exits after `exitAfterMs` (never, when undefined), as a server's shutdown delay */
  const started = async (exitAfterMs: number | undefined) => {
    const onTerm = exitAfterMs === undefined ? '() => {}' : `() => setTimeout(() => process.exit(0), ${exitAfterMs})`;
    const child = spawn(
      process.execPath,
      ['--eval', `process.on('SIGTERM', ${onTerm}); setInterval(() => {}, 1000); console.log('up');`],
      { stdio: ['ignore', 'pipe', 'inherit'] },
    );
    await once(child.stdout, 'data');
    return child;
  };

  it("gives the pod's grace period: a deletion's, else the spec's terminationGracePeriodSeconds, else 30 s", () => {
    expect(gracePeriodMs({ spec: { containers: [], terminationGracePeriodSeconds: 45 } })).to.equal(45_000);
    expect(gracePeriodMs({ spec: { containers: [] } })).to.equal(30_000);
    expect(
      gracePeriodMs({
        metadata: { deletionGracePeriodSeconds: 5 },
        spec: { containers: [], terminationGracePeriodSeconds: 45 },
      }),
    ).to.equal(5_000);
  });

  it('kills a process that ignores SIGTERM once the grace period is over, not after a fixed 10 s', async () => {
    const child = await started(undefined);
    const t0 = Date.now();
    await stopProcess(child, gracePeriodMs({ spec: { containers: [], terminationGracePeriodSeconds: 1 } }));
    expect(child.signalCode).to.equal('SIGKILL');
    expect(Date.now() - t0).to.be.within(1000, 5000);
  });

  it('lets a process that takes its time within the grace period exit on its own', async () => {
    const child = await started(1500);
    await stopProcess(child, gracePeriodMs({ spec: { containers: [], terminationGracePeriodSeconds: 3 } }));
    expect([child.exitCode, child.signalCode]).to.deep.equal([0, null]);
  });
});
