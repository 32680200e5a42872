/**
 * @module `mdw -s` stopping on SIGTERM, as Kubernetes stops a pod: with SHUTDOWN_DELAY_MS it leaves its Service first
 * (/readyz 503) and serves the clients still sent to it, each answer closing its connection, then stops; without, it
 * stops at once as before.
 */
import { expect } from 'chai';
import { Agent, get, type IncomingHttpHeaders } from 'node:http';
import { createTestDatabase, freePort } from '../../support/postgres.ts';
import { exitCode } from '../../support/dev-run.ts';
import { logged, startMdw, type MdwProcess } from '../../support/mdw-process.ts';
import { waitFor } from '../../support/wait.ts';
import { startFakeNode, type FakeNode } from './harness.ts';

const DELAY_MS = 1000;

interface Answer {
  readonly status: number;
  readonly headers: IncomingHttpHeaders;
  readonly body: string;
  /** the request went on a connection an earlier request had opened */
  readonly reused: boolean;
}

/** request GETs `url` through `agent` (a keep-alive one, or none: a new connection), with the raw headers. */
function request(url: string, agent: Agent | false = false): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = get(url, { agent }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (d: string) => (body += d));
      res.on('end', () =>
        resolve({ status: res.statusCode ?? 0, headers: res.headers, body, reused: req.reusedSocket }),
      );
    });
    req.on('error', reject);
  });
}

describe('mdw -s on SIGTERM (SHUTDOWN_DELAY_MS)', function () {
  this.timeout(60_000);
  let node: FakeNode;
  let db: { url: string; drop(): Promise<void> };
  const running: MdwProcess[] = [];

  before(async () => {
    node = await startFakeNode();
    db = await createTestDatabase({ migrated: 'public' });
  });

  after(async () => {
    for (const p of running) if (p.child.exitCode === null) p.child.kill('SIGKILL');
    await node.close();
    await db.drop();
  });

  /**
   * server starts `mdw -s` with `env` beside its own, and waits until it has started: ready, and its websocket (the
   * last part it starts) listening, so a signal stops a server that runs rather than one still starting.
   */
  async function server(env: Record<string, string>): Promise<{ proc: MdwProcess; url: string }> {
    const port = await freePort();
    const proc = startMdw(['-s'], {
      PATH: process.env.PATH ?? '',
      DATABASE_URL: db.url,
      NODE_URL: node.url,
      HTTP_HOST: '127.0.0.1',
      PORT: String(port),
      WEBSOCKET_ADDRESS: `127.0.0.1:${await freePort()}`,
      LOG_LEVEL: 'info',
      ...env,
    });
    running.push(proc);
    const url = `http://127.0.0.1:${port}`;
    await waitFor(
      'the server to be ready',
      async () => (await request(`${url}/readyz`).catch(() => undefined))?.status === 200,
      30_000,
      100,
    );
    await waitFor('the websocket to listen', () => logged(proc, /^websocket server listening$/).length > 0, 10_000);
    return { proc, url };
  }

  /** stoppedMs is how long the process took to stop its roles after the signal, as it logged it. */
  function stoppedMs(proc: MdwProcess): number {
    const [line] = logged(proc, /^stopped$/);
    expect(line, proc.output()).to.not.equal(undefined);
    return line!.ms as number;
  }

  it('with a delay: not ready at once, still answering (Connection: close) through the delay, then exits', async () => {
    const { proc, url } = await server({ SHUTDOWN_DELAY_MS: String(DELAY_MS) });
    // a keep-alive client with a connection open before the signal
    const agent = new Agent({ keepAlive: true, maxSockets: 1 });
    const before = await request(`${url}/healthz`, agent);
    expect(before.headers.connection).to.equal('keep-alive');
    const killedAt = Date.now();
    proc.child.kill('SIGTERM');
    await waitFor('the server to say it is stopping', () => logged(proc, /^stopping/).length > 0, 5000, 10);
    const readyz = await request(`${url}/readyz`);
    expect(readyz.status).to.equal(503);
    expect(JSON.parse(readyz.body)).to.deep.equal({ ready: false, reason: 'stopping' });
    // the kept connection's next request is answered, and the client told to open its next one elsewhere
    const kept = await request(`${url}/healthz`, agent);
    expect(kept).to.include({ status: 200, reused: true });
    expect(kept.headers.connection).to.equal('close');
    // a new client sent to it meanwhile (its endpoint not yet removed everywhere) gets its answer, a forwarded one too
    const fresh = await request(`${url}/v2/status`);
    expect(fresh.status).to.equal(200);
    expect(fresh.headers.connection).to.equal('close');
    expect(JSON.parse(fresh.body)).to.have.property('echo');
    const answeredMs = Date.now() - killedAt;
    expect(answeredMs, 'the answers came within the delay').to.be.below(DELAY_MS);
    expect(proc.child.exitCode).to.equal(null);
    agent.destroy();
    expect(await exitCode(proc.child), proc.output()).to.equal(0);
    expect(stoppedMs(proc)).to.be.at.least(DELAY_MS);
    expect(await request(`${url}/healthz`).catch((err: NodeJS.ErrnoException) => err.code)).to.equal('ECONNREFUSED');
  });

  it('without one (the default): stops at once as before, never saying it is stopping', async () => {
    const { proc, url } = await server({});
    const before = await request(`${url}/readyz`);
    expect(before.status).to.equal(200);
    proc.child.kill('SIGTERM');
    expect(await exitCode(proc.child), proc.output()).to.equal(0);
    expect(stoppedMs(proc)).to.be.below(DELAY_MS);
    expect(logged(proc, /^stopping/)).to.deep.equal([]);
    expect(await request(`${url}/healthz`).catch((err: NodeJS.ErrnoException) => err.code)).to.equal('ECONNREFUSED');
  });
});
