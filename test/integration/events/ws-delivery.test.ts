/** @module Websocket over real sockets and a real database: the seed's rules 1-6, objects, errors, forks. */
import { expect } from 'chai';
import prom from 'prom-client';
import { Encoding, MemoryAccount } from '@aeternity/aepp-sdk';
import { parseJson, stringifyJson } from '../../../src/chain/json.ts';
import { startWebsocketServer } from '../../../src/events/ws-server.ts';
import type { Role } from '../../../src/base/roles.ts';
import {
  BIG_NONCE,
  createPopulator,
  deleteFrom,
  notify,
  randomId,
  spendTx,
  writeHeight,
  type TestPopulator,
  type TxSpec,
  type WrittenHeight,
} from './chain-writer.ts';
import { createEventsFixture, testConfig, type EventsFixture, type TestClient } from './ws-client.ts';

const SCHEMA = 'mdw_ws_delivery';

describe('websocket delivery (real PostgreSQL, real sockets)', () => {
  let fixture: EventsFixture;
  let server: Role & { url: string };
  let populator: TestPopulator;
  const client = (): Promise<TestClient> => fixture.open(server.url);

  before(async () => {
    fixture = await createEventsFixture(SCHEMA);
    const { databaseUrl, pool, log } = fixture;
    populator = createPopulator(pool, SCHEMA, 10);
    await populator.commit();
    server = await startWebsocketServer({
      cfg: testConfig(databaseUrl, SCHEMA),
      log,
      pool,
      registry: new prom.Registry(),
    });
  });

  after(async () => {
    await server?.stop();
    await fixture?.close();
  });

  const commitHeight = (micros: readonly (readonly TxSpec[])[] = []): Promise<WrittenHeight> =>
    populator.commit(micros);

  it('answers subscribe and unsubscribe with the current list (rules 1 and 2)', async () => {
    const c = await client();
    expect(await c.request({ op: 'subscribe', payload: 'key_blocks' })).to.deep.equal(['key_blocks']);
    expect(await c.request({ op: 'subscribe', payload: 'micro_blocks' })).to.deep.equal(['key_blocks', 'micro_blocks']);
    expect(await c.request({ op: 'unsubscribe', payload: 'micro_blocks' })).to.deep.equal(['key_blocks']);
    expect(await c.request({ op: 'unsubscribe', payload: 'key_blocks' })).to.deep.equal([]);
  });

  it('sends a committed key block with the node fields and an exact u64 nonce (rules 4 and 5)', async () => {
    const c = await client();
    await c.request({ op: 'subscribe', payload: 'key_blocks' });
    const written = await commitHeight([]);
    const raw = await c.nextRaw();
    expect(raw).to.contain(`"nonce":${BIG_NONCE}`);
    expect(parseJson(raw)).to.deep.equal({ payload: written.keyBlock, subscription: 'key_blocks' });
  });

  it('delivers key block, micro blocks and transactions in chain order (rule 6)', async () => {
    const c = await client();
    for (const payload of ['key_blocks', 'micro_blocks', 'transactions']) await c.request({ op: 'subscribe', payload });
    const [a, b] = [MemoryAccount.generate().address, MemoryAccount.generate().address];
    const written = await commitHeight([[spendTx(a, b), spendTx(b, a)], [spendTx(a, a)]]);
    const expected = [
      { payload: written.keyBlock, subscription: 'key_blocks' },
      { payload: written.micros[0]!.header, subscription: 'micro_blocks' },
      { payload: written.micros[0]!.txs[0]!.signed, subscription: 'transactions' },
      { payload: written.micros[0]!.txs[1]!.signed, subscription: 'transactions' },
      { payload: written.micros[1]!.header, subscription: 'micro_blocks' },
      { payload: written.micros[1]!.txs[0]!.signed, subscription: 'transactions' },
    ];
    for (const message of expected) expect(await c.next()).to.deep.equal(message);
  });

  it('answers and sends events in the original spelling to a client that uses it', async () => {
    const c = await client();
    expect(await c.request({ op: 'Subscribe', payload: 'KeyBlocks' })).to.deep.equal(['KeyBlocks']);
    expect(await c.request({ op: 'Subscribe', payload: 'Transactions' })).to.deep.equal(['KeyBlocks', 'Transactions']);
    const written = await commitHeight([[spendTx(MemoryAccount.generate().address, MemoryAccount.generate().address)]]);
    expect(await c.next()).to.deep.equal({ payload: written.keyBlock, subscription: 'KeyBlocks' });
    expect(await c.next()).to.deep.equal({ payload: written.micros[0]!.txs[0]!.signed, subscription: 'Transactions' });
  });

  it('delivers to an object subscriber every transaction referencing it, created ids included (rule 3)', async () => {
    const owner = MemoryAccount.generate().address;
    const contract = randomId(Encoding.ContractAddress);
    const other = MemoryAccount.generate().address;
    const watcher = await client();
    expect(await watcher.request({ op: 'subscribe', payload: 'object', target: contract })).to.deep.equal([contract]);
    const bystander = await client();
    await bystander.request({ op: 'subscribe', payload: 'object', target: other });
    await bystander.request({ op: 'subscribe', payload: 'key_blocks' });
    // The create tx does not carry the contract id; account_transactions records it as created.
    const create = {
      tx: { type: 'ContractCreateTx', version: 1, owner_id: owner, nonce: 1, fee: 1, code: 'cb_AAAA' },
      ids: [owner, contract],
    };
    const call = {
      tx: { type: 'ContractCallTx', version: 1, caller_id: owner, contract_id: contract, nonce: 2, fee: 1 },
      ids: [owner, contract],
    };
    const written = await commitHeight([[create, spendTx(owner, owner)], [call]]);
    expect(await watcher.next()).to.deep.equal({ payload: written.micros[0]!.txs[0]!.signed, subscription: 'object' });
    expect(await watcher.next()).to.deep.equal({ payload: written.micros[1]!.txs[0]!.signed, subscription: 'object' });
    await watcher.nothingFor(200);
    expect(await bystander.next()).to.deep.include({ subscription: 'key_blocks' });
    await bystander.nothingFor(200);
  });

  it('sends one object message per transaction however many targets match, in the client spelling', async () => {
    const [a, b] = [MemoryAccount.generate().address, MemoryAccount.generate().address];
    const c = await client();
    await c.request({ op: 'Subscribe', payload: 'Object', target: a });
    expect(await c.request({ op: 'Subscribe', payload: 'Object', target: b })).to.deep.equal([a, b]);
    const written = await commitHeight([[spendTx(a, b)]]);
    expect(await c.next()).to.deep.equal({ payload: written.micros[0]!.txs[0]!.signed, subscription: 'Object' });
    await c.nothingFor(200);
  });

  it('answers bad messages with {error} and keeps the connection open', async () => {
    const c = await client();
    const bad = [
      '{not json',
      JSON.stringify({ op: 'subscribe' }),
      JSON.stringify({ op: 'listen', payload: 'key_blocks' }),
      JSON.stringify({ op: 'subscribe', payload: 'blocks' }),
      JSON.stringify({ op: 'subscribe', payload: 'object' }),
      JSON.stringify({ op: 'subscribe', payload: 'object', target: 'ak_notanid' }),
      '[]',
    ];
    for (const message of bad) {
      const answer = await c.request(message);
      expect(Object.keys(answer as object)).to.deep.equal(['error']);
      expect((answer as { error: string }).error)
        .to.be.a('string')
        .with.length.above(10);
    }
    expect(await c.request({ op: 'subscribe', payload: 'key_blocks' })).to.deep.equal(['key_blocks']);
    const written = await commitHeight([]);
    expect(await c.next()).to.deep.equal({ payload: written.keyBlock, subscription: 'key_blocks' });
  });

  it('sends the new blocks of a fork and nothing twice', async () => {
    const c = await client();
    await c.request({ op: 'subscribe', payload: 'key_blocks' });
    const first = await commitHeight([]);
    expect(await c.next()).to.deep.include({ payload: first.keyBlock });
    // A duplicate notification of the same heights sends nothing again.
    const height = populator.height;
    await notify(fixture.pool, SCHEMA, { from: height, to: height });
    // Nor does a backfill's batch, which derived rows of stored heights and changed no block.
    await notify(fixture.pool, SCHEMA, { from: 0, to: height, derived: true });
    await c.nothingFor(300);
    // The populator replaces the top height by another block.
    await deleteFrom(fixture.pool, height);
    const replaced = await writeHeight(fixture.pool, height, []);
    await notify(fixture.pool, SCHEMA, { from: height, to: height, rollbackFrom: height });
    expect(await c.next()).to.deep.equal({ payload: replaced.keyBlock, subscription: 'key_blocks' });
    expect(stringifyJson(replaced.keyBlock.hash)).not.to.equal(stringifyJson(first.keyBlock.hash));
  });

  it('forgets a closed client and its subscriptions', async () => {
    const c = await client();
    await c.request({ op: 'subscribe', payload: 'key_blocks' });
    c.ws.close();
    await c.closed;
    const watcher = await client();
    await watcher.request({ op: 'subscribe', payload: 'key_blocks' });
    await commitHeight([]);
    expect(await watcher.next()).to.deep.include({ subscription: 'key_blocks' });
  });
});
