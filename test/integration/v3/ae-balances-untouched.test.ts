/**
 * @module Issue 88: without GENESIS_ACCOUNTS_FILE, a genesis account that no transaction touched has no balance change
 * stored; it was served 0 at every height. The node knows its balance (the genesis key block's state, unchanged
 * since): /balance, POST /balances and /balance/history answer it, as the genesis file's `accounts_roma` change would,
 * against the devnode's state. Where the node no longer holds the genesis state (garbage-collected), the balance after
 * a block it still holds is the node's there, and one it holds no state of says the balance is unknown.
 */
import { expect } from 'chai';
import { encode } from '../../../src/chain/encoding.ts';
import { parseJson, toBigInt, type Json } from '../../../src/chain/json.ts';
import { keyPairFromSeed } from '../../../src/devnode/keys.ts';
import { GenesisBalances } from '../../../src/api/mdw/resources/genesis-balances.ts';
import { NodeClient } from '../../../src/node/client.ts';
import { silentLog } from '../api/harness.ts';
import { startV3, type V3UnderTest } from './harness.ts';

type Obj = { [key: string]: Json };

const patron = keyPairFromSeed(Buffer.alloc(32, 61));
const touched = keyPairFromSeed(Buffer.alloc(32, 62));
const untouched = keyPairFromSeed(Buffer.alloc(32, 63));
/** an odd amount above 2^53, so that a rounded or made-up balance shows */
const UNTOUCHED_BALANCE = 7n * 10n ** 21n + 3n;
const GENERATIONS = 6;

/** startUntouched runs a chain of spends between the patron and `touched` only, served without a genesis file. */
async function startUntouched(gcHeight?: number): Promise<V3UnderTest> {
  const v3 = await startV3(0, 'ae-balances-untouched', () => ({ GENESIS_ACCOUNTS_FILE: '' }), {
    accounts: [
      { secretKey: patron.secretKey, balance: 10n ** 24n },
      { secretKey: touched.secretKey, balance: 10n ** 22n },
      { secretKey: untouched.secretKey, balance: UNTOUCHED_BALANCE },
    ],
    ...(gcHeight === undefined ? {} : { gcHeight }),
  });
  for (let i = 0; i < GENERATIONS; i++) {
    await v3.spend(touched.address, 1000 + i);
    await v3.devnode.mineKeyBlock();
  }
  await v3.synced();
  return v3;
}

describe('AE balance of a genesis account no transaction touched, without the genesis file (issue 88)', function () {
  this.timeout(300_000);
  let v3: V3UnderTest;
  before(async () => {
    v3 = await startUntouched();
  });
  after(async () => {
    await v3?.close();
  });

  const nodeBalance = async (id: string, at: string): Promise<bigint> =>
    toBigInt(((await v3.nodeGet(`/v3/accounts/${id}/${at}`)) as Obj).balance!);

  it("serves the node's balance at every height, as the genesis change the file would have stored", async () => {
    const top = v3.devnode.height();
    const genesis = (await v3.nodeGet('/v3/key-blocks/height/0')) as Obj;
    for (const height of [0, 1, top]) {
      const res = await v3.get(`/mdw/v3/accounts/${untouched.address}/balance?height=${height}`);
      expect(res.status, res.text).to.equal(200);
      const body = res.body as Obj;
      expect(toBigInt(body.balance!), `height ${height}`).to.equal(
        await nodeBalance(untouched.address, `height/${height}`),
      );
      expect(toBigInt(body.balance!)).to.equal(UNTOUCHED_BALANCE);
      expect(body.last_change).to.deep.equal({
        height: 0,
        micro_index: null,
        tx_index: null,
        time: genesis.time,
        kind: 'accounts_roma',
        tx_hash: null,
        delta: UNTOUCHED_BALANCE,
        balance: UNTOUCHED_BALANCE,
        unexplained: false,
      });
    }
  });

  it('answers it in POST /balances beside a touched account, and 0 for an account the node never held', async () => {
    const never = encode('ak', Buffer.alloc(32, 64));
    const res = await fetch(`${v3.url}/mdw/v3/accounts/balances`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ accounts: [untouched.address, touched.address, never] }),
    });
    expect(res.status).to.equal(200);
    const answers = parseJson(await res.text()) as Obj[];
    const balances = answers.map((a) => toBigInt(a.balance!));
    expect(balances).to.deep.equal([
      UNTOUCHED_BALANCE,
      await nodeBalance(touched.address, `hash/${String(answers[1]!.block_hash)}`),
      0n,
    ]);
    expect(answers[2]!.last_change).to.equal(null);
  });

  it('asks the node once per account, at the genesis key block', async () => {
    const client = new NodeClient({ url: v3.devnode.externalUrl, timeoutMs: 5000 }, silentLog);
    const asked: (string | undefined)[] = [];
    const genesis = new GenesisBalances(v3.pool, {
      accountBalance: (id, hash) => {
        asked.push(hash);
        return client.accountBalance(id, hash);
      },
    });
    const top = String(((await v3.nodeGet('/v3/key-blocks/current')) as Obj).hash);
    for (let i = 0; i < 3; i++)
      expect((await genesis.untouched(untouched.address, top))?.balance).to.equal(UNTOUCHED_BALANCE);
    expect(asked).to.deep.equal([String(((await v3.nodeGet('/v3/key-blocks/height/0')) as Obj).hash)]);
  });

  it('lists the genesis change as its history, within a scope holding height 0 only', async () => {
    for (const direction of ['backward', 'forward']) {
      const items = await v3.walk(`/mdw/v3/accounts/${untouched.address}/balance/history?direction=${direction}`);
      expect(
        items.map((i) => [i.height, i.kind, i.delta]),
        direction,
      ).to.deep.equal([[0, 'accounts_roma', UNTOUCHED_BALANCE]]);
    }
    expect(await v3.walk(`/mdw/v3/accounts/${untouched.address}/balance/history?scope=gen:1-3`)).to.deep.equal([]);
    expect(await v3.walk(`/mdw/v3/accounts/${encode('ak', Buffer.alloc(32, 64))}/balance/history`)).to.deep.equal([]);
  });

  it('lists its genesis balance in the interval of the genesis key block, by day, week and month', async () => {
    const genesisTime = Number(((await v3.nodeGet('/v3/key-blocks/height/0')) as Obj).time);
    const balance = await nodeBalance(untouched.address, 'height/0');
    expect(balance).to.equal(UNTOUCHED_BALANCE);
    for (const by of ['day', 'week', 'month'] as const) {
      // the interval's first day: the genesis day, its week's Monday, its month's first
      const start = new Date(genesisTime);
      if (by === 'week') start.setUTCDate(start.getUTCDate() - ((start.getUTCDay() + 6) % 7));
      if (by === 'month') start.setUTCDate(1);
      const expected = [
        { account: untouched.address, interval_by: by, date: start.toISOString().slice(0, 10), height: 0, balance },
      ];
      for (const direction of ['backward', 'forward']) {
        const items = await v3.walk(
          `/mdw/v3/accounts/${untouched.address}/balance/history?interval_by=${by}&direction=${direction}`,
        );
        expect(items, `${by} ${direction}`).to.deep.equal(expected);
      }
    }
    // an account the node never held has no interval, as no history
    const never = encode('ak', Buffer.alloc(32, 64));
    expect(await v3.walk(`/mdw/v3/accounts/${never}/balance/history?interval_by=day`)).to.deep.equal([]);
  });
});

describe("AE balance of an untouched genesis account where the node's genesis state is collected (issue 88)", function () {
  this.timeout(300_000);
  const GC_HEIGHT = 3;
  let v3: V3UnderTest;
  before(async () => {
    v3 = await startUntouched(GC_HEIGHT);
  });
  after(async () => {
    await v3?.close();
  });

  it("serves the node's balance after a block it holds, and says the balance is unknown before", async () => {
    const top = v3.devnode.height();
    const res = await v3.get(`/mdw/v3/accounts/${untouched.address}/balance?height=${top}`);
    expect(res.status, res.text).to.equal(200);
    const body = res.body as Obj;
    const node = (await v3.nodeGet(`/v3/accounts/${untouched.address}/hash/${String(body.block_hash)}`)) as Obj;
    expect(toBigInt(body.balance!)).to.equal(toBigInt(node.balance!));
    expect(body.last_change).to.equal(null);
    const early = await v3.get(`/mdw/v3/accounts/${untouched.address}/balance?height=1`);
    expect(early.status, early.text).to.equal(400);
    expect((early.body as Obj).error).to.match(/is not known: no transaction touched it/);
  });

  it('lists no genesis change, in its history nor in its intervals: the node no longer tells it', async () => {
    expect(await v3.walk(`/mdw/v3/accounts/${untouched.address}/balance/history`)).to.deep.equal([]);
    expect(await v3.walk(`/mdw/v3/accounts/${untouched.address}/balance/history?interval_by=month`)).to.deep.equal([]);
  });
});
