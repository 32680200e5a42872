import { expect } from 'chai';
import { mkdtempSync, readdirSync, readFileSync, writeFileSync, existsSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { spawnSync } from 'node:child_process';
import pino from 'pino';
import { daemonize } from '../../src/cli/daemonize.ts';
import { startDevnode } from '../../src/devnode/index.ts';
import { createTestDatabase, freePort } from '../support/postgres.ts';
import { waitFor } from '../support/wait.ts';

const MDW = new URL('../../bin/mdw.js', import.meta.url).pathname;

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

describe('mdw -d (the binary)', function () {
  this.timeout(60_000);

  it('removes PID_FILE after a clean stop of the daemon', async () => {
    const db = await createTestDatabase();
    const devnode = await startDevnode(
      { port: 0, internalPort: 0, generate: { generations: 5, seed: 'e2e-daemon' } },
      pino({ level: 'silent' }),
    );
    const dir = mkdtempSync(join(tmpdir(), 'mdw-daemon-'));
    const pidFile = join(dir, 'run', 'mdw.pid');
    try {
      const env = {
        PATH: process.env.PATH ?? '',
        NODE_URL: devnode.externalUrl,
        DATABASE_URL: db.url,
        PORT: String(await freePort()),
        PID_FILE: pidFile,
        LOG_DIR: join(dir, 'logs'),
        POLL_INTERVAL_MS: '200',
      };
      const started = spawnSync(process.execPath, [MDW, '-d', '-p'], { env, encoding: 'utf8' });
      expect(started.status, started.stderr).to.equal(0);
      const pid = Number(readFileSync(pidFile, 'utf8').trim());
      // a daemon's start is a few seconds (migrations included); on two loaded cores it once took more than 20
      await waitFor(
        'the daemon to answer /healthz',
        async () => {
          const res = await fetch(`http://127.0.0.1:${env.PORT}/healthz`).catch(() => undefined);
          return res?.ok === true;
        },
        45_000,
      ).catch((err: unknown) => {
        // what the daemon said, or that it never wrote a line
        const logs = (existsSync(env.LOG_DIR) ? readdirSync(env.LOG_DIR) : []).map(
          (f) => `${f}:\n${readFileSync(join(env.LOG_DIR, f), 'utf8').slice(-3000)}`,
        );
        throw new Error(`${String(err)}; its logs: ${logs.join('\n') || 'none'}`);
      });
      process.kill(pid, 'SIGTERM');
      await waitFor('the daemon to exit', () => !isRunning(pid), 20_000);
      expect(existsSync(pidFile), 'PID_FILE after a clean stop').to.equal(false);
    } finally {
      rmSync(dir, { recursive: true, force: true });
      await devnode.stop();
      await db.drop();
    }
  });
});

function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}
