/**
 * @module The gateway in front of a real node API (the devnode → populator → database → server): aepp-sdk's clients
 * given only the gateway's URL (`new Node(url)`, `AeSdk` on it, `new Middleware(url + '/mdw')`) work, and where we
 * answer in the node's place (cached reads, malformed input, unknown paths) the answer is the devnode's own.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect } from 'chai';
import { AeSdk, MemoryAccount, Middleware, Node } from '@aeternity/aepp-sdk';
import prom from 'prom-client';
import { createApp } from '../../../src/api/app.ts';
import { parseJson } from '../../../src/chain/json.ts';
import { loadConfig } from '../../../src/config.ts';
import { createPool, type Pool } from '../../../src/db/pool.ts';
import { startDevnode, type Devnode } from '../../../src/devnode/index.ts';
import { startPopulator, type Populator } from '../../../src/indexer/populator.ts';
import { createTestDatabase } from '../../support/postgres.ts';
import { silentLog } from './harness.ts';

describe('the gateway in front of the devnode, through the SDK given only its URL', function () {
  this.timeout(120_000);
  let devnode: Devnode;
  let populator: Populator;
  let pool: Pool;
  let server: Server;
  let drop: () => Promise<void>;
  let url: string;
  const warn = console.warn;
  /** answer is a request's status and exact body (parsed losslessly when it is JSON) from `base`. */
  const answer = async (base: string, path: string): Promise<{ status: number; body: unknown }> => {
    const res = await fetch(`${base}${path}`);
    const text = await res.text();
    return { status: res.status, body: text === '' ? '' : parseJson(text) };
  };
  /** synced waits until the populator stored the devnode's top. */
  const synced = async (): Promise<void> => {
    for (let i = 0; i < 300; i++) {
      const { rows } = await pool.query<{ top: number }>('SELECT max(height) AS top FROM key_blocks');
      if (rows[0]?.top === devnode.height()) return;
      await new Promise((r) => setTimeout(r, 100));
    }
    throw new Error('the populator did not catch up');
  };

  before(async () => {
    // the SDK warns of every key block nonce beyond 2^53 (all of them): nothing about the gateway
    console.warn = (...args: unknown[]) => {
      if (!String(args[0]).startsWith('AeSdk internal error: BigInt value')) warn(...args);
    };
    devnode = await startDevnode(
      { port: 0, internalPort: 0, microBlockIntervalMs: 0, generate: { generations: 20, seed: 'gateway' } },
      silentLog,
    );
    const db = await createTestDatabase();
    drop = db.drop;
    const cfg = loadConfig({
      DATABASE_URL: db.url,
      NODE_URL: devnode.externalUrl,
      POLL_INTERVAL_MS: '100',
      DATABASE_SCHEMA: 'mdw_gw',
    });
    populator = await startPopulator({ cfg, log: silentLog, registry: new prom.Registry() });
    await populator.synced();
    pool = createPool({ databaseUrl: db.url, schema: 'mdw_gw', max: 4 }, silentLog);
    server = createServer(
      createApp({ cfg, log: silentLog, pool, registry: new prom.Registry(), version: 't' }).callback(),
    );
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  after(async () => {
    console.warn = warn;
    await new Promise((resolve) => server?.close(resolve));
    await populator?.stop();
    await pool?.end();
    await devnode?.stop();
    await drop?.();
  });

  it("sends a spend through AeSdk on new Node(gatewayUrl), and reads it back from the node's /v3 and our cache", async () => {
    const node = new Node(url, { retryCount: 0 });
    const status = await node.getStatus();
    expect(status.nodeVersion).to.match(/^7\./);
    expect(await node.getCurrentKeyBlockHeight()).to.deep.equal({ height: devnode.height() });
    const alice = new MemoryAccount(devnode.accounts[0]!.secretKey as `sk_${string}`);
    const recipient = MemoryAccount.generate().address;
    const sdk = new AeSdk({ nodes: [{ name: 'gateway', instance: node }], accounts: [alice] });
    const { hash } = await sdk.spend(4321, recipient, { waitMined: false });
    await devnode.mineKeyBlock();
    const mined = await node.getTransactionByHash(hash);
    expect(mined.blockHeight).to.equal(devnode.height() - 1);
    expect((await node.getAccountByPubkey(recipient)).balance).to.equal(4321n);
    await synced();
    // now from the database: the node's /v3 answer, digit for digit
    const cached = await answer(url, `/v3/transactions/${hash}`);
    expect(cached).to.deep.equal(await answer(devnode.externalUrl, `/v3/transactions/${hash}`));
    expect((await node.getTransactionByHash(hash)).blockHash).to.equal(mined.blockHash);
  });

  it("gives new Middleware(gatewayUrl + '/mdw') ae_mdw's API", async () => {
    const status = await new Middleware(`${url}/mdw`).getStatus();
    expect(status.mdwHeight).to.be.at.least(1);
    expect(status.nodeHeight).to.equal(devnode.height());
  });

  it("answers malformed /v3 requests, reads it does not hold and unknown paths as the node's own /v3 does", async () => {
    const top = devnode.height();
    const kh = String(((await answer(devnode.externalUrl, '/v3/key-blocks/height/1')).body as { hash: string }).hash);
    const paths = [
      '/v3/key-blocks/height/abc',
      '/v3/generations/height/x1',
      '/v3/transactions/th_bad',
      `/v3/key-blocks/hash/${kh.replace(/^kh_/, 'mh_')}`,
      `/v3/micro-blocks/hash/${kh}/header`,
      `/v3/key-blocks/height/${top + 50}`,
      `/v3/generations/height/${top + 50}`,
      '/v3/no-such-path',
      '/v3/key-blocks/height/1/nothing',
      '/v2/no-such-path',
    ];
    for (const path of paths) {
      expect(await answer(url, path), path).to.deep.equal(await answer(devnode.externalUrl, path));
    }
  });
});
