import { expect } from 'chai';
import { mkdtempSync, readFileSync, writeFileSync, existsSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { daemonize } from '../../src/cli/daemonize.ts';
import { waitFor } from '../support/wait.ts';

describe('daemonize(opts)', () => {
  it('starts a detached process in its own session and writes its pid to PID_FILE', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'mdw-daemon-'));
    const script = join(dir, 'child.mjs');
    writeFileSync(
      script,
      "console.log('child says hi', process.argv.slice(2).join(' ')); setTimeout(() => {}, 30000);\n",
    );
    const pidFile = join(dir, 'run', 'mdw.pid');
    const logDir = join(dir, 'logs');
    const pid = daemonize({ entry: script, args: ['-p', '-s'], pidFile, logDir });
    try {
      expect(readFileSync(pidFile, 'utf8').trim()).to.equal(String(pid));
      expect(() => process.kill(pid, 0)).not.to.throw();
      // field 6 of /proc/<pid>/stat is the session id: a detached child leads its own session
      const stat = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
      expect(Number(stat[3])).to.equal(pid);
      await waitFor(
        "the daemon's first log line",
        () =>
          existsSync(join(logDir, 'daemon.out')) &&
          readFileSync(join(logDir, 'daemon.out'), 'utf8').includes('child says hi -p -s'),
        5000,
      );
    } finally {
      process.kill(pid, 'SIGTERM');
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
