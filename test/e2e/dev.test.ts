import { expect } from 'chai';
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { MemoryAccount, Middleware } from '@aeternity/aepp-sdk';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { waitFor } from '../support/wait.ts';

const MDW = new URL('../../bin/mdw.js', import.meta.url).pathname;

/** A `mdw dev` started as a terminal would: leading a process group that Ctrl-C signals as a whole. */
interface DevRun {
  readonly child: ChildProcess;
  readonly output: () => string;
  readonly dir: string;
}

function startDev(extra: readonly string[] = []): DevRun {
  const dir = mkdtempSync(join(tmpdir(), 'mdw-dev-'));
  const args = [
    'dev',
    ...extra,
    '--data-dir',
    dir,
    '--no-traffic',
    '--key-block-interval',
    '1000',
    '--micro-block-interval',
    '300',
  ];
  // every port chosen by the kernel: two of these run side by side, as two checkouts would
  args.push(
    '--port',
    '0',
    '--websocket',
    '127.0.0.1:0',
    '--node-port',
    '0',
    '--node-internal-port',
    '0',
    '--pg-port',
    '0',
  );
  const child = spawn(process.execPath, [MDW, ...args], {
    env: { PATH: process.env.PATH ?? '', LOG_LEVEL: 'info' },
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  let out = '';
  child.stdout!.on('data', (d: Buffer) => (out += d.toString()));
  child.stderr!.on('data', (d: Buffer) => (out += d.toString()));
  return { child, dir, output: () => out };
}

function printed(run: DevRun, label: string): string {
  const match = new RegExp(`^  ${label.replace(/[()]/g, '\\$&')}\\s+(\\S+)`, 'm').exec(run.output());
  if (!match) throw new Error(`mdw dev printed no ${label}:\n${run.output()}`);
  return match[1]!;
}

function exitCode(child: ChildProcess): Promise<number | null> {
  return new Promise((resolve) =>
    child.exitCode !== null ? resolve(child.exitCode) : child.once('exit', (code) => resolve(code)),
  );
}

describe('mdw dev (the binary)', function () {
  this.timeout(120_000);
  const runs: DevRun[] = [];

  after(async () => {
    for (const run of runs) {
      // the stop the test did not get to: SIGINT reaches the process group of its own too (forwarded)
      if (run.child.exitCode === null) {
        process.kill(run.child.pid!, 'SIGINT');
        await exitCode(run.child);
      }
      rmSync(run.dir, { recursive: true, force: true });
    }
  });

  it('runs twice side by side on ports it prints, loopback only, and Ctrl-C stops each with one line and status 0', async () => {
    // the second with a hard fork at height 2 that creates an account, as Minerva's file did on mainnet
    const newcomer = MemoryAccount.generate().address;
    const forks = join(mkdtempSync(join(tmpdir(), 'mdw-dev-forks-')), 'forks.json');
    writeFileSync(forks, JSON.stringify({ 1: 0, 2: { height: 2, accounts: { [newcomer]: 5 } } }));
    // one after the other: a first start may create the postgres user, which two at once would race for
    for (const run of [startDev(), startDev(['--hard-forks', forks])]) {
      runs.push(run);
      await waitFor('mdw dev to print its URLs', () => /environment is up/.test(run.output()), 60_000, 100).catch(
        (err: Error) => {
          throw new Error(`${err.message}:\n${run.output()}`);
        },
      );
    }
    const urls = runs.map((run) => ({
      api: printed(run, 'API'),
      node: printed(run, 'new Node(url)'),
      mdw: printed(run, 'new Middleware(url)'),
      subscriber: printed(run, 'MiddlewareSubscriber'),
      websocket: printed(run, 'websocket'),
      devnode: printed(run, 'devnode'),
      postgres: printed(run, 'PostgreSQL'),
    }));
    for (const u of urls) {
      for (const url of Object.values(u)) expect(new URL(url).hostname, url).to.equal('127.0.0.1');
      expect(u.api).not.to.match(/:8080\//);
      expect(u.websocket).not.to.match(/:3020$/);
      expect(u.devnode).not.to.match(/:3013$/);
    }
    // the node's API, ae_mdw's and its websocket share the API's port: a gateway
    expect(new Set(urls.flatMap((u) => Object.values(u).map((url) => new URL(url).port))).size).to.equal(8);
    for (const u of urls) {
      expect([u.node, u.mdw, u.subscriber]).to.deep.equal([
        u.api.replace('/middleware/status', ''),
        u.api.replace('/middleware/status', '/mdw'),
        u.api.replace('/middleware/status', '/mdw/v3/websocket').replace(/^http/, 'ws'),
      ]);
    }
    for (const u of urls) {
      await waitFor(
        'the populator to load a mined block and the server to say so',
        async () => {
          const res = await fetch(u.api).catch(() => undefined);
          const body = res ? ((await res.json()) as { height?: number }) : {};
          return (body.height ?? 0) >= 1;
        },
        60_000,
        200,
      );
      const v3 = await new Middleware(u.mdw).getStatus();
      expect(v3.mdwHeight, JSON.stringify(v3)).to.be.at.least(1);
      expect(v3.mdwVersion).to.be.a('string');
    }
    // the forked devnode's middleware was given the fork's file: its transfer at the fork's key block
    const minerva = `${urls[1]!.mdw}/v3/transfers?kind=accounts_minerva`;
    let transfers: { data?: { account_id: string; amount: unknown; height: number }[] } = {};
    await waitFor(
      'the hard fork transfer',
      async () => {
        transfers = (await (await fetch(minerva).catch(() => undefined))?.json().catch(() => ({}))) ?? {};
        return (transfers.data?.length ?? 0) > 0;
      },
      60_000,
      200,
    );
    expect(transfers.data!.map((t) => [t.account_id, String(t.amount), t.height])).to.deep.equal([[newcomer, '5', 2]]);
    for (const run of runs) {
      const before = run.output().length;
      // as a terminal's Ctrl-C: the signal goes to every process of the foreground group
      process.kill(-run.child.pid!, 'SIGINT');
      expect(await exitCode(run.child), run.output().slice(-3000)).to.equal(0);
      const after = run.output().slice(before).trim().split('\n');
      expect(after, after.join('\n')).to.have.length(1);
      expect(JSON.parse(after[0]!)).to.include({ msg: 'stopped', signal: 'SIGINT' });
    }
  });
});
