/**
 * @module ae_mdw's 400s around hyperchains (issue 45 item 2), through the SDK's Middleware as the caller: every
 * `/mdw/v3/hyperchain/*` route on a chain that is not a hyperchain, `/mdw/v3/stats/miners*` on one, and
 * `/mdw/v3/hyperchain/config` on one as its node states it (the devnode's own answers are the oracle).
 */
import { Middleware, Node } from '@aeternity/aepp-sdk';
import { expect } from 'chai';
import prom from 'prom-client';
import supertest from 'supertest';
import { createApp } from '../../../src/api/app.ts';
import { loadConfig } from '../../../src/config/middleware.ts';
import { startDevnode, type Devnode } from '../../../src/devnode/index.ts';
import { V3_OPERATIONS } from '../../../src/api/mdw/rest/operations.ts';
import { createMigratedDatabase } from '../../support/postgres.ts';
import { silentLog } from '../api/harness.ts';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

const ONLY = 'This endpoint is only available on a hyperchain node';
const NOT = 'This endpoint is not available on a hyperchain node';
const VALIDATOR = 'ak_2bMCPWriTf7HcJ2Py7SWuqG9CM3Z3Mux5AnuM4PQqaZ457FfWW';

/** A server (over an empty schema: these answers need no stored chain) in front of a devnode. */
interface Served {
  readonly devnode: Devnode;
  readonly request: ReturnType<typeof supertest>;
  readonly mdw: Middleware;
  close(): Promise<void>;
}

async function serve(hyperchain: boolean): Promise<Served> {
  const devnode = await startDevnode(
    { port: 0, internalPort: 0, ...(hyperchain ? { hyperchain: { epochLength: 10 } } : {}) },
    silentLog,
  );
  const db = await createMigratedDatabase('public', 2);
  const cfg = loadConfig({ DATABASE_URL: db.url, NODE_URL: devnode.externalUrl });
  const app = createApp({ cfg, log: silentLog, pool: db.pool, registry: new prom.Registry(), version: 'test' });
  const server: Server = createServer(app.callback());
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    devnode,
    request: supertest(server),
    mdw: new Middleware(`${url}/mdw`, { retryCount: 0 }),
    async close() {
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
      await db.drop();
      await devnode.stop();
    },
  };
}

/** The SDK's error text for ae_mdw's `{error}`: the message ends with it. */
async function sdkRefusal(call: Promise<unknown>): Promise<string> {
  try {
    await call;
  } catch (err) {
    return (err as Error).message;
  }
  throw new Error('the call was answered');
}

describe('/mdw/v3 on and off a hyperchain: ae_mdw 400s', function () {
  this.timeout(120_000);

  describe('a chain that is not a hyperchain', () => {
    let s: Served;
    before(async () => {
      s = await serve(false);
    });
    after(async () => {
      await s?.close();
    });

    it('answers every /hyperchain route of the route table 400', async () => {
      const hyperchainOps = V3_OPERATIONS.filter((op) => op.path.startsWith('/hyperchain/'));
      expect(hyperchainOps).to.have.length(10);
      for (const op of hyperchainOps) {
        const path = `/mdw/v3${op.path.replace('{validator}', VALIDATOR).replace('{height}', '3')}`;
        const res = await s.request.get(path);
        expect(res.status, path).to.equal(400);
        expect(res.body, path).to.deep.equal({ error: ONLY });
      }
    });

    it("answers the SDK's hyperchain operations with ae_mdw's 400", async () => {
      const calls = [
        s.mdw.getEpochs(),
        s.mdw.getEpochTop(),
        s.mdw.getSchedules(),
        s.mdw.getSchedule(3),
        s.mdw.getValidators(),
        s.mdw.getValidator(VALIDATOR),
        s.mdw.getValidatorDelegates(VALIDATOR),
        s.mdw.getTopValidatorDelegates(VALIDATOR),
      ];
      for (const call of calls) expect(await sdkRefusal(call)).to.contain(ONLY);
    });

    it("answers the hyperchain GraphQL fields with that 400's message as the field's error", async () => {
      const res = await s.request.post('/mdw/graphql').send({ query: '{ epochTop { epoch } }' });
      expect(res.body.errors.map((e: { message: string }) => e.message)).to.deep.equal([ONLY]);
    });

    it('answers the miners statistics as always', async () => {
      expect((await s.mdw.getMinerStats()).data).to.be.an('array');
      expect((await s.request.get('/mdw/v3/stats/miners/top')).status).to.equal(200);
      expect((await s.request.get('/mdw/v3/stats/miners/top-24h')).status).to.equal(200);
    });
  });

  describe('a hyperchain', () => {
    let s: Served;
    before(async () => {
      s = await serve(true);
    });
    after(async () => {
      await s?.close();
    });

    it("answers /stats/miners, /stats/miners/top and /stats/miners/top-24h 400, ae_mdw's error", async () => {
      for (const path of ['/stats/miners', '/stats/miners/top', '/stats/miners/top-24h']) {
        const res = await s.request.get(`/mdw/v3${path}`);
        expect(res.status, path).to.equal(400);
        expect(res.body, path).to.deep.equal({ error: NOT });
      }
      expect(await sdkRefusal(s.mdw.getMinerStats())).to.contain(NOT);
    });

    it('answers /hyperchain/config with the consensus contracts, hard forks and network id its node states', async () => {
      const node = new Node(s.devnode.externalUrl, { retryCount: 0 });
      const contracts = await node.getHyperchainContractPubkeys();
      const status = await node.getStatus();
      const res = await s.request.get('/mdw/v3/hyperchain/config');
      expect(res.status, res.text).to.equal(200);
      const consensus = res.body.consensus as Record<string, unknown>[];
      expect(consensus).to.have.length(1);
      expect(consensus[0]).to.include({
        consensus_key: '0',
        type: 'hyperchain',
        staking_contract: contracts.staking,
        election_contract: contracts.election,
        rewards_contract: contracts.rewards,
      });
      expect(res.body.hard_forks).to.deep.equal(
        Object.fromEntries(status.protocols.map((p) => [String(p.version), p.effectiveAtHeight])),
      );
      expect(res.body.fork_management).to.deep.equal({ network_id: 'hc_devnet' });
      // no setting of the node's own shows: only what its API states
      expect(res.text).not.to.match(/priv|pinners|stakers/);
    });
  });
});
