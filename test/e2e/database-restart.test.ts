import { expect } from 'chai';
import pino from 'pino';
import { loadConfig } from '../../src/config/middleware.ts';
import { startDevnode, type Devnode } from '../../src/devnode/index.ts';
import { verifyChain } from '../../src/indexer/maintenance/verify.ts';
import { freePort } from '../support/postgres.ts';
import { startRestartablePostgres, type RestartablePostgres } from '../support/restartable-postgres.ts';
import { waitFor } from '../support/wait.ts';
import { exitCode } from '../support/dev-run.ts';
import { logged, startMdw as run, type MdwProcess as Proc } from '../support/mdw-process.ts';

describe('PostgreSQL goes away under a running populator and a loaded server', function () {
  this.timeout(240_000);
  let devnode: Devnode;
  let db: RestartablePostgres;
  let env: Record<string, string>;
  let port: number;
  let populator: Proc;
  let server: Proc;

  before(async () => {
    // side by side: the PostgreSQL of its own is made (initdb) in its processes while this one generates the chain
    [devnode, db] = await Promise.all([
      startDevnode(
        // a chain past height 10, the highest the load asks for; its transactions few (what is tested is the outage,
        // not their kinds): the populator loads and `-v --full` checks each of them
        {
          port: 0,
          internalPort: 0,
          generate: { generations: 12, microBlocksPerGeneration: 1, txsPerMicroBlock: 2, seed: 'e2e-db-restart' },
        },
        pino({ level: 'silent' }),
      ),
      startRestartablePostgres(),
    ]);
    port = await freePort();
    env = {
      PATH: process.env.PATH ?? '',
      NODE_URL: devnode.externalUrl,
      DATABASE_URL: db.url,
      DATABASE_SCHEMA: 'mdw_restart',
      PORT: String(port),
      WEBSOCKET_ADDRESS: `127.0.0.1:${await freePort()}`,
      POLL_INTERVAL_MS: '200',
      LOG_LEVEL: 'info',
      STATUS_MAX_BLOCK_AGE: String(10 ** 9),
    };
    populator = run(['-p'], { ...env, PORT: String(await freePort()) });
    await waitForTop('the populator to load the chain');
    server = run(['-s'], env);
    await waitFor('the server to answer', async () => (await get('/middleware/status')).status === 200, 30_000, 100);
  });

  after(async () => {
    for (const p of [server, populator]) if (p && p.child.exitCode === null) p.child.kill('SIGKILL');
    await devnode?.stop();
    await db?.destroy();
  });

  it('keeps the populator running through pg_terminate_backend of its connections, and it resumes', async () => {
    const { rowCount } = await db.query(
      "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = 'mdw-populator'",
    );
    expect(rowCount).to.be.greaterThan(0);
    await devnode.mineKeyBlock();
    await devnode.mineKeyBlock();
    await waitForTop('the populator to load the heights mined after its connections were ended');
    expect(populator.child.exitCode, populator.output()).to.equal(null);
    // the line may reach this process after the heights reach the database (a loaded machine: its pipe is read later)
    await waitFor('the populator to log the lock lost', () => logged(populator, /writer lock lost/).length > 0, 15_000);
    expect(logged(populator, /writer lock lost/)).to.have.length(1);
  });

  it('survives a PostgreSQL restart under load: the populator resumes, every answer meanwhile is 200 or 503 with a reason, the server logs the outage once', async () => {
    const statuses = new Map<number, number>();
    const bad: string[] = [];
    let loading = true;
    const paths = ['/middleware/status', '/v2/generations/height/7', '/middleware/reward/height/10', '/readyz'];
    const load = Promise.all(
      [0, 1, 2, 3].map(async (i) => {
        for (let n = 0; loading; n++) {
          const { status, body } = await get(paths[(i + n) % paths.length]!);
          statuses.set(status, (statuses.get(status) ?? 0) + 1);
          if (status !== 200 && !(status === 503 && /reason/.test(body))) bad.push(`${status} ${body.slice(0, 200)}`);
          // a client's steady load, not a busy loop: unpaced, the four kept the server and this process a core busy
          await new Promise((r) => setTimeout(r, 50));
        }
      }),
    );
    await waitFor('answers before the restart', () => (statuses.get(200) ?? 0) >= paths.length, 10_000, 20);
    await db.stop();
    await devnode.mineKeyBlock();
    // the outage as long as it takes each client to be refused twice: a fixed 3 s kept the load running for nothing
    const refused = (statuses.get(503) ?? 0) + 8;
    await waitFor('answers refused while the database is down', () => (statuses.get(503) ?? 0) >= refused, 20_000);
    await db.start();
    await devnode.mineKeyBlock();
    await waitForTop('the populator to load the heights mined while the database was down');
    await waitFor('the server to answer from the database again', async () => (await get('/readyz')).status === 200);
    await waitFor('the server to log the return', () => logged(server, /database available again/).length > 0, 15_000);
    loading = false;
    await load;
    expect(bad, bad.slice(0, 5).join('\n')).to.deep.equal([]);
    expect(statuses.get(503) ?? 0, 'answers refused while the database was down').to.be.greaterThan(0);
    expect(populator.child.exitCode, populator.output()).to.equal(null);
    expect(server.child.exitCode, server.output()).to.equal(null);
    // one line at the loss and one at the return, which counts the refused requests
    expect(logged(server, /database unavailable/)).to.have.length(1);
    const back = logged(server, /database available again/);
    expect(back).to.have.length(1);
    expect(back[0]!.refused).to.be.a('number').greaterThan(0);
    expect(server.lines().filter((l) => (l.level as number) >= 50)).to.deep.equal([]);
    const metrics = await get('/metrics');
    expect(metrics.body).to.match(/mdw_dependency_outages_total\{dependency="database"\} [1-9]/);
  });

  // in this process (`mdw -v --full`'s verifyChain): the binary's -v is the next case's, a start of it 1.4 s of CPU
  it('verifies clean after both faults', async () => {
    const lines: string[] = [];
    const report = await verifyChain(
      { cfg: loadConfig(env), log: pino({ level: 'silent' }), out: (line) => lines.push(line) },
      { full: true },
    );
    expect(report.differences, lines.join('\n')).to.equal(0);
    expect(report.checked).to.equal(devnode.height() + 1);
  });

  // issue 59: a one-shot command waited for ever for a node to check the schema's chain against
  it('fails -v at once, exit 1, when its node is not there, naming it', async () => {
    const verify = run(['-v'], { ...env, NODE_URL: `http://127.0.0.1:${await freePort()}` });
    expect(await exitCode(verify.child), verify.output()).to.equal(1);
    expect(verify.output()).to.match(/^Error: .*\(MDW_NODE_UNREACHABLE\)$/m);
  });

  it('mdw -H with the populator running fails at once, naming what holds the writer lock', async () => {
    const reload = run(['-H', '3-5'], env);
    expect(await exitCode(reload.child), reload.output()).to.equal(1);
    const { rows } = await db.query<{ pid: number }>(
      "SELECT pid FROM pg_stat_activity WHERE application_name = 'mdw-populator' AND query LIKE '%pg_advisory_lock%'",
    );
    // oclif wraps the message to the terminal's width behind '›'
    const message = reload.output().replace(/\s*›\s*/g, ' ');
    expect(message).to.contain('MDW_CLI_WRITER_BUSY');
    expect(message).to.contain(`is being written by mdw-populator (backend pid ${rows[0]!.pid}`);
    expect(populator.child.exitCode).to.equal(null);
  });

  it('stops both roles cleanly afterwards', async () => {
    server.child.kill('SIGTERM');
    populator.child.kill('SIGTERM');
    expect(await exitCode(server.child), server.output()).to.equal(0);
    expect(await exitCode(populator.child), populator.output()).to.equal(0);
  });

  it('starts a populator and a server while PostgreSQL is down: both wait, log it once, and start when it is back', async () => {
    await db.stop();
    populator = run(['-p'], { ...env, PORT: String(await freePort()) });
    server = run(['-s'], env);
    for (const p of [populator, server]) {
      await waitFor('the role to notice the database is away', () => logged(p, /waiting for it/).length > 0, 30_000);
    }
    await new Promise((r) => setTimeout(r, 3000)); // several more tries, none logged
    await devnode.mineKeyBlock();
    await db.start();
    await waitForTop('the populator to start and load the height mined while it waited');
    await waitFor('the server to answer', async () => (await get('/middleware/status')).status === 200, 30_000, 100);
    for (const p of [populator, server]) {
      expect(p.child.exitCode, p.output()).to.equal(null);
      expect(logged(p, /database unavailable/), p.output()).to.have.length(1);
      expect(logged(p, /database available again/), p.output()).to.have.length(1);
    }
  });

  it('stops the late-started roles cleanly', async () => {
    server.child.kill('SIGTERM');
    populator.child.kill('SIGTERM');
    expect(await exitCode(server.child), server.output()).to.equal(0);
    expect(await exitCode(populator.child), populator.output()).to.equal(0);
  });

  async function waitForTop(what: string): Promise<void> {
    await waitFor(
      what,
      async () => {
        const top = await db
          .query<{ h: number | null }>('SELECT max(height) AS h FROM mdw_restart.key_blocks')
          .catch(() => undefined);
        return top?.rows[0]?.h === devnode.height();
      },
      90_000,
      200,
    );
  }

  async function get(path: string): Promise<{ status: number; body: string }> {
    try {
      const res = await fetch(`http://127.0.0.1:${port}${path}`);
      return { status: res.status, body: await res.text() };
    } catch (err) {
      return { status: 0, body: (err as Error).message };
    }
  }
});
