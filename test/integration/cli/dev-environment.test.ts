/**
 * @module `mdw dev`'s parts as one lifecycle (issue 42, item 5): a part that fails to start stops those started before
 * it, and stop() frees every port the environment listened on and removes the temporary directory it made.
 */
import { expect } from 'chai';
import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { createServer, type AddressInfo, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { Errors } from '@oclif/core';
import pino from 'pino';
import { DevEnvironment, type DevEnvironmentOptions } from '../../../src/cli/dev/environment.ts';
import { chooseListeners } from '../../../src/cli/dev/listeners.ts';
import { freePort } from '../../../src/cli/free-port.ts';
import { DEV_DEFAULTS, loadConfig } from '../../../src/config/middleware.ts';
import { deadEnd } from '../../support/dead-end.ts';
import { createTestDatabase } from '../../support/postgres.ts';

const log = pino({ level: 'silent' });

/** listening holds `port` on loopback as another program would (0: any free port). */
async function listening(port = 0): Promise<Server> {
  const server = createServer();
  await new Promise<void>((resolve, reject) => server.once('error', reject).listen(port, '127.0.0.1', resolve));
  return server;
}

const close = (server: Server): Promise<void> => new Promise((resolve) => server.close(() => resolve()));

/** expectFree fails when something still listens on `port` (a part left running). */
async function expectFree(port: number): Promise<void> {
  await close(await listening(port));
}

/**
 * environment is `mdw dev` with `options` as its flags and `env` as its environment, quick and without traffic, its
 * HTTP API and websocket on any free port (chosen as the command chooses them).
 */
async function environment(
  options: Partial<DevEnvironmentOptions>,
  env: Record<string, string> = {},
): Promise<DevEnvironment> {
  const listeners = { PORT: '0', WEBSOCKET_ADDRESS: '127.0.0.1:0' };
  const base = loadConfig({ ...env, ...listeners }, DEV_DEFAULTS);
  return new DevEnvironment({
    options: {
      host: '127.0.0.1',
      dataDir: '.data',
      nodePort: 0,
      nodeInternalPort: 0,
      keyBlockIntervalMs: 60_000,
      microBlockIntervalMs: 100,
      accounts: [],
      traffic: false,
      ...options,
    },
    base,
    listeners: await chooseListeners({ host: '127.0.0.1' }, base),
    configure: (overrides, defaults) => loadConfig({ ...env, ...listeners, ...overrides }, defaults),
    log,
  });
}

/** failure is what a start throws (undefined when it starts). */
function failure(start: Promise<unknown>): Promise<Error | undefined> {
  return start.then(
    () => undefined,
    (err: unknown) => err as Error,
  );
}

describe('DevEnvironment (mdw dev)', function () {
  this.timeout(120_000);

  it('stops the embedded PostgreSQL it started when a port given for the devnode is taken, exiting 2 naming the flag', async () => {
    const taken = await listening();
    const pgPort = await freePort();
    const dataDir = mkdtempSync(join(tmpdir(), 'mdw-dev-env-'));
    const dev = await environment({ dataDir, pgPort, nodeInternalPort: (taken.address() as AddressInfo).port });
    const err = await failure(dev.start());
    await close(taken);
    expect(err).to.be.instanceOf(Errors.CLIError);
    expect((err as Errors.CLIError).oclif.exit).to.equal(2);
    expect(err?.message).to.match(/\(--node-internal-port\) is in use by another process/);
    // PostgreSQL had started (its data directory made) and was stopped: its port is free, its pid file gone
    expect(existsSync(join(dataDir, 'pg', 'PG_VERSION'))).to.equal(true);
    expect(existsSync(join(dataDir, 'pg', 'postmaster.pid'))).to.equal(false);
    await expectFree(pgPort);
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('stops the devnode it started when the database refuses, and throws what refused, leaving no directory', async () => {
    const [nodePort, nodeInternalPort, database] = [await freePort(), await freePort(), await deadEnd()];
    const dev = await environment(
      { nodePort, nodeInternalPort },
      { DATABASE_URL: `postgres://postgres:postgres@127.0.0.1:${database.port}/middleware` },
    );
    // a temporary directory of this start's alone (os.tmpdir() reads TMPDIR), where the devnode's node files go
    const tmp = mkdtempSync(join(tmpdir(), 'mdw-dev-env-tmp-'));
    const before = process.env.TMPDIR;
    process.env.TMPDIR = tmp;
    let err: Error | undefined;
    try {
      err = await failure(dev.start());
    } finally {
      process.env.TMPDIR = before;
    }
    await database.close();
    expect(err?.message).to.match(/ECONNRESET/);
    for (const port of [nodePort, nodeInternalPort]) await expectFree(port);
    expect(readdirSync(tmp), 'left in the temporary directory').to.deep.equal([]);
    rmSync(tmp, { recursive: true });
  });

  it('serves the devnode chain on the ports it reports, and stop() frees every one', async () => {
    const db = await createTestDatabase();
    try {
      const dev = await environment({}, { DATABASE_URL: db.url });
      const facts = await dev.start();
      const status = (await (await fetch(`${facts.http}/v2/status`)).json()) as { node_version?: string };
      expect(facts.accounts).to.have.length(3);
      expect(facts.schema).to.match(/^devnode_[0-9a-f]{16}$/);
      expect(status.node_version).to.match(/devnode/);
      // the devnode's node files, given to the populator, in a directory of this environment's own
      const nodeFiles = dirname(facts.settings.GENESIS_ACCOUNTS_FILE!);
      expect(dirname(nodeFiles)).to.equal(tmpdir());
      expect(readdirSync(nodeFiles)).to.include('genesis-accounts.json');
      await dev.stop();
      expect(existsSync(nodeFiles), 'the node files left behind').to.equal(false);
      const ports = [facts.http, facts.websocket, facts.node.external, facts.node.internal!].map((url) =>
        Number(new URL(url).port),
      );
      for (const port of ports) await expectFree(port);
    } finally {
      await db.drop();
    }
  });
});
