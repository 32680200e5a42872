/**
 * @module The devnode's lifecycle: made, it has its chain and listens on nothing; a start that fails part way stops
 * the listener it had started; stop frees both.
 */
import { createServer, type AddressInfo, type Server } from 'node:net';
import { expect } from 'chai';
import pino from 'pino';
import { Devnode } from '../../src/devnode/devnode.ts';
import { startDevnode } from '../../src/devnode/index.ts';

const log = pino({ level: 'silent' });

async function listening(port = 0): Promise<Server> {
  const server = createServer();
  await new Promise<void>((resolve, reject) => server.once('error', reject).listen(port, '127.0.0.1', resolve));
  return server;
}

const close = (server: Server): Promise<void> => new Promise((resolve) => server.close(() => resolve()));

/** freePort is a port nothing listens on now. */
async function freePort(): Promise<number> {
  const server = await listening();
  const { port } = server.address() as AddressInfo;
  await close(server);
  return port;
}

describe('devnode start and stop', () => {
  it('has its chain and accounts once made, and listens on its ports only once started', async () => {
    const [port, internalPort] = [await freePort(), await freePort()];
    const devnode = new Devnode({ port, internalPort, microBlockIntervalMs: 0 }, log);
    expect(devnode.height()).to.equal(0);
    expect(devnode.accounts).to.have.length(3);
    expect([devnode.externalUrl, devnode.internalUrl]).to.deep.equal(['', '']);
    for (const free of [port, internalPort]) await close(await listening(free));
    await devnode.start();
    try {
      const status = (await (await fetch(`${devnode.externalUrl}/v2/status`)).json()) as { top_key_block_hash: string };
      expect(status.top_key_block_hash).to.equal(devnode.chain.top.hash);
      expect(new URL(devnode.internalUrl).port).to.equal(String(internalPort));
    } finally {
      await devnode.stop();
    }
  });

  it('frees its external port when its internal port is taken, and throws that failure', async () => {
    const taken = await listening();
    const port = await freePort();
    const failure = await startDevnode(
      { port, internalPort: (taken.address() as AddressInfo).port, microBlockIntervalMs: 0 },
      log,
    ).then(
      () => undefined,
      (err: unknown) => err as Error,
    );
    await close(taken);
    expect(failure?.message).to.match(/EADDRINUSE/);
    await close(await listening(port));
  });

  it('frees both ports on stop', async () => {
    const devnode = await startDevnode({ port: 0, internalPort: 0, microBlockIntervalMs: 10 }, log);
    const ports = [devnode.externalUrl, devnode.internalUrl].map((url) => Number(new URL(url).port));
    await devnode.stop();
    for (const port of ports) await close(await listening(port));
  });
});
