import { expect } from 'chai';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { MemoryAccount, Middleware } from '@aeternity/aepp-sdk';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ANY_PORTS, exitCode, printed, startDev, untilUp, type DevRun } from '../support/dev-run.ts';
import { waitFor } from '../support/wait.ts';

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
    for (const run of [startDev(ANY_PORTS), startDev([...ANY_PORTS, '--hard-forks', forks])]) {
      runs.push(run);
      await untilUp(run);
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
    // each populator at its top and what its catch-up deferred built and logged (buildDeferred; the status says
    // synced by the chain's lag, the builds still listed): the Ctrl-C's window then holds the stop's own line, not a
    // build's that came just before it
    for (const u of urls)
      await waitFor(
        'the populator synced, nothing left to build',
        async () => {
          const status = (await (await fetch(`${u.mdw}/v3/status`)).json()) as {
            mdw_synced: boolean;
            mdw_deferred_builds: unknown[];
          };
          return status.mdw_synced && status.mdw_deferred_builds.length === 0;
        },
        60_000,
        200,
      );
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
