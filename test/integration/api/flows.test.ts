import { expect } from 'chai';
import prom from 'prom-client';
import type { MemoryAccount } from '@aeternity/aepp-sdk';
import { startServer } from '../../../src/api/server.ts';
import { parseJson, stringifyJson } from '../../../src/chain/json.ts';
import { loadConfig } from '../../../src/config.ts';
import { startPopulator, type Populator } from '../../../src/indexer/populator.ts';
import { startTestNode, type TestNode } from '../../devnode/harness.ts';
import { createTestDatabase } from '../../support/postgres.ts';
import { silentLog } from './harness.ts';

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- bodies are read field by field
type Reply = { status: number; body: any };

describe('the seed flows with the middleware as the client\'s node URL (devnode → populator → server)', function () {
  this.timeout(120_000);
  let t: TestNode;
  let populator: Populator;
  let server: Awaited<ReturnType<typeof startServer>>;
  let drop: () => Promise<void>;

  const mw = async (path: string, init?: RequestInit): Promise<Reply> => {
    const res = await fetch(server.httpUrl + path, init);
    const text = await res.text();
    return { status: res.status, body: text === '' ? undefined : parseJson(text) };
  };
  const post = (path: string, body: unknown): Promise<Reply> =>
    mw(path, { method: 'POST', headers: { 'content-type': 'application/json' }, body: stringifyJson(body) });
  /** submit builds through the middleware (internal API forwarded), signs with the sdk, posts through the middleware. */
  const submit = async (builder: string, body: Record<string, unknown>, signer: MemoryAccount): Promise<Reply> => {
    const built = await post(`/v2/debug/${builder}`, body);
    expect(built.status, JSON.stringify(built.body)).to.equal(200);
    const signed = await signer.signTransaction(built.body.tx as `tx_${string}`, { networkId: 'ae_devnet' });
    const posted = await post('/v2/transactions', { tx: signed });
    expect(posted.status, JSON.stringify(posted.body)).to.equal(200);
    return posted;
  };
  const caughtUp = async (): Promise<void> => {
    for (let i = 0; i < 200; i++) {
      if ((await mw('/v2/key-blocks/current/height')).body?.height === t.node.height()) return;
      await new Promise((r) => setTimeout(r, 50));
    }
    throw new Error('populator did not catch up');
  };

  before(async () => {
    t = await startTestNode();
    const db = await createTestDatabase();
    drop = db.drop;
    const cfg = loadConfig({
      DATABASE_URL: db.url, DATABASE_SCHEMA: 'mdw_flow', NODE_URL: t.node.externalUrl, NODE_INTERNAL_URL: t.node.internalUrl,
      PORT: '0', WEBSOCKET_ADDRESS: '127.0.0.1:0', POLL_INTERVAL_MS: '100',
    });
    populator = await startPopulator({ cfg, log: silentLog, registry: new prom.Registry() });
    await populator.synced();
    server = await startServer({ cfg, log: silentLog, registry: new prom.Registry(), version: 't' });
  });
  after(async () => {
    await server?.stop();
    await populator?.stop();
    await t?.node.stop();
    await drop?.();
  });

  it('runs the oracle flow and then lists the query with its response', async () => {
    const [operator, asker] = t.accounts as [MemoryAccount, MemoryAccount];
    const oracleId = operator.address.replace('ak_', 'ok_');
    const register = await submit('oracles/register', {
      account_id: operator.address, query_format: 'string', response_format: 'string', query_fee: 30, oracle_ttl: { type: 'delta', value: 50 }, fee: 2,
    }, operator);
    await t.node.mineKeyBlock();
    expect((await mw(`/v2/oracles/${oracleId}`)).body).to.include({ id: oracleId, query_fee: 30 });
    const query = await submit('oracles/query', {
      sender_id: asker.address, oracle_id: oracleId, query: 'how high?', query_fee: 30,
      query_ttl: { type: 'delta', value: 10 }, response_ttl: { type: 'delta', value: 10 }, fee: 2,
    }, asker);
    await t.node.mineKeyBlock();
    const [open] = (await mw(`/v2/oracles/${oracleId}/queries`)).body.oracle_queries;
    const respond = await submit('oracles/respond', { query_id: open.id, response: 'very', response_ttl: { type: 'delta', value: 10 }, fee: 2 }, operator);
    await t.node.mineKeyBlock();
    await caughtUp();

    const listed = await mw(`/middleware/oracles/${oracleId}`);
    expect(listed.status).to.equal(200);
    expect(listed.body).to.have.length(1);
    expect(listed.body[0].query_id).to.equal(open.id);
    expect(listed.body[0].request).to.include({ hash: query.body.tx_hash, query: 'how high?' });
    expect(listed.body[0].response).to.include({ hash: respond.body.tx_hash, response: 'very' });
    const registered = (await mw('/middleware/oracles/list')).body;
    expect(registered.map((o: { transaction_hash: string }) => o.transaction_hash)).to.include(register.body.tx_hash);
    const cached = await mw(`/v2/transactions/${register.body.tx_hash}`);
    expect(cached).to.deep.equal(await t.get(`/v2/transactions/${register.body.tx_hash}`).then((r) => ({ status: r.status, body: r.body })));
  });

  it('runs the naming flow and then finds the name by its pointer', async () => {
    const [owner, friend] = t.accounts as [MemoryAccount, MemoryAccount];
    const name = 'middlewareflow.chain';
    expect(await mw(`/v2/names/${name}`)).to.deep.equal({ status: 404, body: { reason: 'Name not found' } });
    const salt = 2n ** 120n + 7n;
    const commitment = await mw(`/v2/debug/names/commitment-id?name=${name}&salt=${salt}`);
    expect(commitment.status).to.equal(200);
    await submit('names/preclaim', { account_id: owner.address, commitment_id: commitment.body.commitment_id, fee: 1 }, owner);
    await t.node.mineKeyBlock();
    await submit('names/claim', { account_id: owner.address, name, name_salt: salt, fee: 1 }, owner);
    await t.node.mineKeyBlock();
    const claimed = await mw(`/v2/names/${name}`);
    expect(claimed.status).to.equal(200);
    await submit('names/update', {
      account_id: owner.address, name_id: claimed.body.id, name_ttl: 1000, client_ttl: 60, fee: 1, pointers: [{ key: 'account_pubkey', id: friend.address }],
    }, owner);
    await t.node.mineKeyBlock();
    expect((await mw(`/v2/names/${name}`)).body.pointers).to.deep.equal([{ key: 'account_pubkey', id: friend.address }]);
    await caughtUp();

    const reverse = await mw(`/middleware/names/reverse/${friend.address}`);
    expect(reverse.body.map((n: { name: string }) => n.name)).to.deep.equal([name]);
    const active = (await mw(`/middleware/names/active?owner=${owner.address}`)).body;
    expect(active).to.have.length(1);
    expect(active[0]).to.include({ name, owner: owner.address, name_hash: claimed.body.id });
  });
});
