import { spawnSync } from 'node:child_process';
import { EventEmitter } from 'node:events';
import { expect } from 'chai';
import { createLogger } from '../../../src/base/log.ts';
import type { Role } from '../../../src/base/roles.ts';
import { runUntilSignal, SignalsAtStart } from '../../../src/cli/lifecycle.ts';

/** A process as the lifecycle sees it: its signals' listeners, and the status it was asked to exit with. */
function fakeProcess(): NodeJS.Process & { exited?: number } {
  const proc = new EventEmitter() as NodeJS.Process & { exited?: number };
  proc.exit = ((code?: number) => {
    proc.exited = code;
  }) as NodeJS.Process['exit'];
  return proc;
}

const LIFECYCLE = new URL('../../../src/cli/lifecycle.ts', import.meta.url).href;
const LOG = new URL('../../../src/base/log.ts', import.meta.url).href;

const logger = createLogger({ logLevel: 'silent', logPretty: false, logDir: undefined });

describe('the process lifecycle: a signal while the roles start', () => {
  it('stops the roles started so far and exits, however long the one starting waits', async () => {
    const proc = fakeProcess();
    const stopped: string[] = [];
    const roles: Role[] = [{ name: 'populator', stop: async () => void stopped.push('populator') }];
    let exited = false;
    const atStart = new SignalsAtStart(roles, logger, () => void (exited = true), proc);
    atStart.start();
    // the server is still starting (waiting for a read replica, say) when the signal comes
    proc.emit('SIGTERM', 'SIGTERM');
    await new Promise((r) => setImmediate(r));
    expect(stopped).to.deep.equal(['populator']);
    expect(exited).to.equal(true);
    // nothing to hand over: the process is exiting
    expect(atStart.handOver()).to.equal(undefined);
  });

  it('hands the roles on when no signal came while they started: the running roles answer the signals from then', async () => {
    const proc = fakeProcess();
    const stopped: string[] = [];
    const roles: Role[] = [{ name: 'server', stop: async () => void stopped.push('server') }];
    let exited = false;
    const atStart = new SignalsAtStart(roles, logger, () => void (exited = true), proc);
    atStart.start();
    const running = atStart.handOver();
    expect(running).to.be.instanceOf(Promise);
    // one listener per signal, the running roles': the start's are gone
    expect([proc.listenerCount('SIGTERM'), proc.listenerCount('SIGINT')]).to.deep.equal([1, 1]);
    proc.emit('SIGTERM', 'SIGTERM');
    await running;
    expect(stopped).to.deep.equal(['server']);
    expect(exited).to.equal(false);
  });

  // a real process: a signal Node has received but not dispatched yet goes to the listeners of that moment
  it('stops the roles on a signal that came as they finished starting, after handing them over', () => {
    const script = `
      import { createLogger } from ${JSON.stringify(LOG)};
      import { SignalsAtStart } from ${JSON.stringify(LIFECYCLE)};
      const logger = createLogger({ logLevel: 'silent', logPretty: false, logDir: undefined });
      const roles = [{ name: 'server', stop: async () => console.log('server stopped') }];
      const atStart = new SignalsAtStart(roles, logger, () => process.exit(3));
      const listening = setTimeout(() => console.log('still running'), 2000); // the server's port
      atStart.start();
      process.kill(process.pid, 'SIGTERM'); // received at once, dispatched when the loop next polls
      await atStart.handOver();
      clearTimeout(listening);
    `;
    const run = spawnSync(process.execPath, ['--input-type=module', '-e', script], { encoding: 'utf8' });
    expect(run.stdout).to.equal('server stopped\n');
    expect(run.status, run.stderr).to.equal(0);
  });

  it('exits at once with 130 on a second signal while the first one stops the roles', () => {
    const proc = fakeProcess();
    const roles: Role[] = [{ name: 'populator', stop: () => new Promise<void>(() => {}) }]; // a stop that hangs
    const atStart = new SignalsAtStart(roles, logger, () => {}, proc);
    atStart.start();
    proc.emit('SIGINT', 'SIGINT');
    expect(proc.exited).to.equal(undefined);
    proc.emit('SIGINT', 'SIGINT');
    expect(proc.exited).to.equal(130);
    atStart.stop();
  });
});

describe('the process lifecycle: a signal while the roles run', () => {
  it("exits at once with 130 on a second signal while a server's stop waits out SHUTDOWN_DELAY_MS", async () => {
    const proc = fakeProcess();
    let releaseStop = (): void => {};
    const server: Role = { name: 'server', stop: () => new Promise<void>((resolve) => (releaseStop = resolve)) };
    const running = runUntilSignal([server], logger, proc);
    proc.emit('SIGTERM', 'SIGTERM');
    await new Promise((r) => setImmediate(r));
    expect(proc.exited).to.equal(undefined);
    proc.emit('SIGTERM', 'SIGTERM');
    expect(proc.exited).to.equal(130);
    releaseStop();
    await running;
  });
});
