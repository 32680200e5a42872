import { expect } from 'chai';
import { spawn, type ChildProcess } from 'node:child_process';
import pino from 'pino';
import pg from 'pg';
import { startDevnode, type Devnode } from '../../src/devnode/index.ts';
import { createTestDatabase, freePort } from '../support/postgres.ts';
import { waitSynced } from '../support/mdw-process.ts';
import { waitFor } from '../support/wait.ts';

const MDW = new URL('../../bin/mdw.js', import.meta.url).pathname;

describe('mdw roles as processes (-p -s, -v, -H, SIGTERM)', function () {
  this.timeout(120_000);
  let devnode: Devnode;
  let db: { url: string; drop(): Promise<void> };
  let env: Record<string, string>;
  let port: number;

  before(async () => {
    // a chain past height 7, the generation compared with the node's
    devnode = await startDevnode(
      { port: 0, internalPort: 0, generate: { generations: 12, seed: 'e2e-roles' } },
      pino({ level: 'silent' }),
    );
    db = await createTestDatabase();
    port = await freePort();
    env = {
      PATH: process.env.PATH ?? '',
      NODE_URL: devnode.externalUrl,
      DATABASE_URL: db.url,
      DATABASE_SCHEMA: 'mdw_e2e',
      PORT: String(port),
      WEBSOCKET_ADDRESS: `127.0.0.1:${await freePort()}`,
      POLL_INTERVAL_MS: '200',
      LOG_LEVEL: 'warn',
      STATUS_MAX_BLOCK_AGE: String(10 ** 9),
    };
  });

  after(async () => {
    await devnode.stop();
    await db.drop();
  });

  it('populates and serves in one process, answers like the node, and stops cleanly on SIGTERM', async () => {
    const child = spawn(process.execPath, [MDW, '-p', '-s'], { env, stdio: ['ignore', 'pipe', 'pipe'] });
    try {
      await waitSynced(`http://127.0.0.1:${port}`, () => devnode.height());
      const [ours, theirs] = await Promise.all([
        fetch(`http://127.0.0.1:${port}/v2/generations/height/7`).then((r) => r.json()),
        fetch(`${devnode.externalUrl}/v2/generations/height/7`).then((r) => r.json()),
      ]);
      expect(ours).to.deep.equal(theirs);
    } finally {
      child.kill('SIGTERM');
    }
    expect(await exitCode(child)).to.equal(0);
  });

  // the clean -v is the last one's, after the repair (a start of the binary costs 1.4 s of CPU): a difference the load
  // had made would fail it too, the corrupted row's is named by its height
  it('-v finds no difference, reports a corrupted row with exit 1, and -H repairs it', async () => {
    const client = new pg.Client({ connectionString: db.url });
    await client.connect();
    // lose one transaction row of the lowest height that has any
    const { rows } = await client.query<{ height: number }>(
      'DELETE FROM mdw_e2e.transactions WHERE hash = (SELECT hash FROM mdw_e2e.transactions ORDER BY height, micro_index, tx_index LIMIT 1) RETURNING height',
    );
    await client.end();
    const { height } = rows[0]!;
    const broken = await mdw(['-v']);
    expect(broken.status).to.equal(1);
    expect(broken.out).to.contain(`${height}: micro block`);
    expect((await mdw(['-H', String(height)])).status).to.equal(0);
    expect((await mdw(['-v'])).status).to.equal(0);
  });

  /** mdw runs the binary without blocking this process, which hosts the devnode it talks to. */
  async function mdw(args: string[]): Promise<{ status: number | null; out: string }> {
    const child = spawn(process.execPath, [MDW, ...args], { env, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    child.stdout!.on('data', (d: Buffer) => {
      out += d.toString();
    });
    child.stderr!.on('data', (d: Buffer) => {
      out += d.toString();
    });
    return { status: await exitCode(child), out };
  }

  it('a populator alone serves its metrics on HTTP_HOST only, as the server does (issue 27.6)', async () => {
    const opsPort = await freePort();
    const child = spawn(process.execPath, [MDW, '-p'], {
      env: { ...env, DATABASE_SCHEMA: 'mdw_e2e_host', HTTP_HOST: '127.0.0.2', PORT: String(opsPort) },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    try {
      await waitFor('the metrics to answer on 127.0.0.2', async () => {
        const res = await fetch(`http://127.0.0.2:${opsPort}/healthz`).catch(() => undefined);
        return res?.status === 200;
      });
      const elsewhere = await fetch(`http://127.0.0.1:${opsPort}/healthz`).then(
        (r) => `answered ${r.status}`,
        (err: Error) => (err.cause as { code?: string } | undefined)?.code,
      );
      expect(elsewhere).to.equal('ECONNREFUSED');
    } finally {
      child.kill('SIGTERM');
    }
    expect(await exitCode(child)).to.equal(0);
  });
});

function exitCode(child: ChildProcess): Promise<number | null> {
  return new Promise((resolve) =>
    child.exitCode !== null ? resolve(child.exitCode) : child.once('exit', (code) => resolve(code)),
  );
}
