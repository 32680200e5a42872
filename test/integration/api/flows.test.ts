import { expect } from 'chai';
import prom from 'prom-client';
import type { MemoryAccount } from '@aeternity/aepp-sdk';
import { startServer } from '../../../src/api/server.ts';
import { encode } from '../../../src/chain/encoding.ts';
import { parseJson, stringifyJson } from '../../../src/chain/json.ts';
import { loadConfig } from '../../../src/config/middleware.ts';
import { startPopulator, type Populator } from '../../../src/indexer/sync/populator.ts';
import { startTestNode, type TestNode } from '../../devnode/harness.ts';
import { createTestDatabase } from '../../support/postgres.ts';
import { silentLog } from './harness.ts';

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- bodies are read field by field
type Reply = { status: number; body: any; text: string };

/** A devnode, a populator and a server (the internal API forwarded), with helpers that talk to the server. */
interface Stack {
  readonly t: TestNode;
  mw(path: string, init?: RequestInit): Promise<Reply>;
  post(path: string, body: unknown): Promise<Reply>;
  /** submit builds through the middleware, signs with the sdk, posts through the middleware */
  submit(builder: string, body: Record<string, unknown>, signer: MemoryAccount): Promise<Reply>;
  /** caughtUp waits until the middleware's top is the node's */
  caughtUp(): Promise<void>;
  stop(): Promise<void>;
}

async function startStack(devnode: Parameters<typeof startTestNode>[0] = {}): Promise<Stack> {
  const t = await startTestNode(devnode);
  const db = await createTestDatabase({ migrated: 'mdw' });
  const cfg = loadConfig({
    DATABASE_URL: db.url,
    DATABASE_SCHEMA: 'mdw',
    NODE_URL: t.node.externalUrl,
    NODE_INTERNAL_URL: t.node.internalUrl,
    PORT: '0',
    WEBSOCKET_ADDRESS: '127.0.0.1:0',
    POLL_INTERVAL_MS: '100',
  });
  const populator: Populator = await startPopulator({ cfg, log: silentLog, registry: new prom.Registry() });
  await populator.synced();
  const server = await startServer({ cfg, log: silentLog, registry: new prom.Registry(), version: 't' });
  const mw = async (path: string, init?: RequestInit): Promise<Reply> => {
    const res = await fetch(server.httpUrl + path, init);
    const text = await res.text();
    return { status: res.status, body: text === '' ? undefined : parseJson(text), text };
  };
  const post = (path: string, body: unknown): Promise<Reply> =>
    mw(path, { method: 'POST', headers: { 'content-type': 'application/json' }, body: stringifyJson(body) });
  return {
    t,
    mw,
    post,
    async submit(builder, body, signer) {
      const built = await post(`/v2/debug/${builder}`, body);
      expect(built.status, built.text).to.equal(200);
      const signed = await signer.signTransaction(built.body.tx as `tx_${string}`, { networkId: 'ae_devnet' });
      const posted = await post('/v2/transactions', { tx: signed });
      expect(posted.status, posted.text).to.equal(200);
      return posted;
    },
    async caughtUp() {
      for (let i = 0; i < 200; i++) {
        if ((await mw('/v2/key-blocks/current/height')).body?.height === t.node.height()) return;
        await new Promise((r) => setTimeout(r, 50));
      }
      throw new Error('populator did not catch up');
    },
    async stop() {
      await server.stop();
      await populator.stop();
      await t.node.stop();
      await db.drop();
    },
  };
}

describe("the seed flows with the middleware as the client's node URL (devnode → populator → server)", function () {
  this.timeout(120_000);
  let s: Stack;
  before(async () => {
    s = await startStack();
  });
  after(async () => {
    await s?.stop();
  });

  it('runs the oracle flow and then lists the query with its response', async () => {
    const [operator, asker] = s.t.accounts as [MemoryAccount, MemoryAccount];
    const oracleId = operator.address.replace('ak_', 'ok_');
    const register = await s.submit(
      'oracles/register',
      {
        account_id: operator.address,
        query_format: 'string',
        response_format: 'string',
        query_fee: 30,
        oracle_ttl: { type: 'delta', value: 50 },
        fee: 2,
      },
      operator,
    );
    await s.t.node.mineKeyBlock();
    expect((await s.mw(`/v2/oracles/${oracleId}`)).body).to.include({ id: oracleId, query_fee: 30 });
    const query = await s.submit(
      'oracles/query',
      {
        sender_id: asker.address,
        oracle_id: oracleId,
        query: 'how high?',
        query_fee: 30,
        query_ttl: { type: 'delta', value: 10 },
        response_ttl: { type: 'delta', value: 10 },
        fee: 2,
      },
      asker,
    );
    await s.t.node.mineKeyBlock();
    const [open] = (await s.mw(`/v2/oracles/${oracleId}/queries`)).body.oracle_queries;
    const respond = await s.submit(
      'oracles/respond',
      { query_id: open.id, response: 'very', response_ttl: { type: 'delta', value: 10 }, fee: 2 },
      operator,
    );
    await s.t.node.mineKeyBlock();
    await s.caughtUp();

    const listed = await s.mw(`/middleware/oracles/${oracleId}`);
    expect(listed.status).to.equal(200);
    expect(listed.body).to.have.length(1);
    expect(listed.body[0].query_id).to.equal(open.id);
    expect(listed.body[0].request).to.include({ hash: query.body.tx_hash, query: 'how high?' });
    expect(listed.body[0].response).to.include({ hash: respond.body.tx_hash, response: 'very' });
    const registered = (await s.mw('/middleware/oracles/list')).body;
    expect(registered.map((o: { transaction_hash: string }) => o.transaction_hash)).to.include(register.body.tx_hash);
    const cached = await s.mw(`/v2/transactions/${register.body.tx_hash}`);
    const direct = await s.t.get(`/v2/transactions/${register.body.tx_hash}`);
    expect({ status: cached.status, body: cached.body }).to.deep.equal({ status: direct.status, body: direct.body });
  });

  it("passes the node's 404 for an unknown object on as the node gave it, error_code and all", async () => {
    const unknown = (prefix: string): string => encode(prefix as Parameters<typeof encode>[0], Buffer.alloc(32, 5));
    // forwarded paths, and a cached one the database cannot answer (a height past the top)
    for (const path of [
      `/v2/contracts/${unknown('ct')}`,
      `/v2/channels/${unknown('ch')}`,
      `/v2/oracles/${unknown('ok')}`,
      `/v3/names/nosuchname.chain`,
      `/v2/transactions/${unknown('th')}/info`,
      '/v2/key-blocks/height/100000',
      `/v3/micro-blocks/hash/${unknown('mh')}/header`,
    ]) {
      const [through, direct] = [await s.mw(path), await s.t.get(path)];
      expect(direct.status, path).to.equal(404);
      expect([through.status, through.text], path).to.deep.equal([direct.status, direct.text]);
    }
    expect((await s.mw(`/v2/channels/${unknown('ch')}`)).body).to.deep.equal({
      reason: 'Channel not found',
      error_code: 'not_found',
    });
  });

  it('runs the naming flow and then finds the name by its pointer', async () => {
    const [owner, friend] = s.t.accounts as [MemoryAccount, MemoryAccount];
    const name = 'middlewareflow.chain';
    expect(await s.mw(`/v2/names/${name}`))
      .to.include({ status: 404 })
      .and.to.have.deep.property('body', { reason: 'Name not found', error_code: 'name_not_found' });
    const salt = 2n ** 120n + 7n;
    const commitment = await s.mw(`/v2/debug/names/commitment-id?name=${name}&salt=${salt}`);
    expect(commitment.status).to.equal(200);
    await s.submit(
      'names/preclaim',
      { account_id: owner.address, commitment_id: commitment.body.commitment_id, fee: 1 },
      owner,
    );
    await s.t.node.mineKeyBlock();
    await s.submit('names/claim', { account_id: owner.address, name, name_salt: salt, fee: 1 }, owner);
    await s.t.node.mineKeyBlock();
    const claimed = await s.mw(`/v2/names/${name}`);
    expect(claimed.status).to.equal(200);
    await s.submit(
      'names/update',
      {
        account_id: owner.address,
        name_id: claimed.body.id,
        name_ttl: 1000,
        client_ttl: 60,
        fee: 1,
        pointers: [{ key: 'account_pubkey', id: friend.address }],
      },
      owner,
    );
    await s.t.node.mineKeyBlock();
    // forwarded to the node, which shows each pointer's key encoded too, under /v2 as under /v3
    expect((await s.mw(`/v2/names/${name}`)).body.pointers).to.deep.equal([
      { encoded_key: encode('ba', Buffer.from('account_pubkey')), id: friend.address, key: 'account_pubkey' },
    ]);
    await s.caughtUp();

    const reverse = await s.mw(`/middleware/names/reverse/${friend.address}`);
    expect(reverse.body.map((n: { name: string }) => n.name)).to.deep.equal([name]);
    const active = (await s.mw(`/middleware/names/active?owner=${owner.address}`)).body;
    expect(active).to.have.length(1);
    expect(active[0]).to.include({ name, owner: owner.address, name_hash: claimed.body.id });
  });
});

describe('the seed mining flow (pool manager) through the middleware', function () {
  this.timeout(120_000);
  let s: Stack;
  before(async () => {
    s = await startStack({ mine: false });
  });
  after(async () => {
    await s?.stop();
  });

  it('fetches a candidate, submits the mined block through the middleware, then serves it with its exact nonce', async () => {
    const candidate = await s.mw('/v2/key-blocks/pending');
    expect(candidate.status).to.equal(200);
    expect(candidate.body).to.not.have.any.keys('nonce', 'pow');
    const pow = Array.from({ length: 42 }, (_, i) => i * 7);
    const accepted = await s.post('/v2/key-blocks', { ...candidate.body, nonce: 2n ** 64n - 1n, pow });
    expect(accepted).to.include({ status: 200 });
    await s.caughtUp();
    const cached = await s.mw(`/v2/key-blocks/height/${candidate.body.height}`);
    expect(cached.text).to.match(/"nonce": ?18446744073709551615[,}]/);
    expect(cached.body).to.deep.equal((await s.t.get(`/v2/key-blocks/height/${candidate.body.height}`)).body);
  });
});
