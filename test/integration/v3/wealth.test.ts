import { expect } from 'chai';
import { idBytes } from '../../../src/chain/id-cache.ts';
import { reprefix } from '../../../src/chain/encoding.ts';
import { toBigInt, type Json } from '../../../src/chain/json.ts';
import { keyPairFromSeed } from '../../../src/devnode/index.ts';
import { startV3, type V3UnderTest } from './harness.ts';

type Obj = { [key: string]: Json };

/** the devnode's accounts holding AE (contracts' accounts aside), ranked as ae_mdw ranks them */
function rankingOf(v3: V3UnderTest): { account: string; balance: bigint }[] {
  const state = v3.devnode.chain.state;
  const contracts = new Set([...state.contracts.entries()].map(([id]) => reprefix(id, 'ak')));
  return [...state.accounts.entries()]
    .filter(([id, a]) => !contracts.has(id) && a.balance > 0n)
    .map(([account, a]) => ({ account, balance: a.balance }))
    .sort((a, b) =>
      a.balance === b.balance
        ? Buffer.compare(Buffer.from(idBytes(b.account)), Buffer.from(idBytes(a.account)))
        : a.balance > b.balance
          ? -1
          : 1,
    )
    .slice(0, 200);
}

/** checkWealth compares /wealth and holders_count with the devnode's state and every listed balance with its API. */
async function checkWealth(v3: V3UnderTest): Promise<void> {
  const res = await v3.get('/mdw/v3/wealth');
  expect(res.status, res.text).to.equal(200);
  const listed = (res.body as Obj[]).map((x) => ({ account: String(x.account), balance: toBigInt(x.balance!) }));
  for (const x of listed) {
    const node = (await v3.nodeGet(`/v3/accounts/${x.account}`)) as Obj;
    expect(x.balance, x.account).to.equal(toBigInt(node.balance!));
  }
  const withAe = listed.filter((x) => x.balance > 0n);
  const expected = rankingOf(v3);
  expect(expected.length, 'the generated chain has accounts with AE').to.be.above(3);
  expect(withAe).to.deep.equal(expected);
  // the explorer's rank is the place in the list: nothing richer comes after a poorer account
  expect(listed.map((x) => x.balance)).to.deep.equal(
    [...listed.map((x) => x.balance)].sort((a, b) => (a > b ? -1 : a < b ? 1 : 0)),
  );
  const stats = (await v3.get('/mdw/v3/stats')).body as Obj;
  const holders = [...v3.devnode.chain.state.accounts.entries()].filter(
    ([id, a]) => a.balance > 0n && !v3.devnode.chain.state.contracts.get(reprefix(id, 'ct')),
  ).length;
  expect(stats.holders_count).to.equal(holders);
}

/**
 * /wealth and /stats' holders_count as the explorer reads them (aescan's top accounts: `GET /wealth`, a plain array
 * of `{account, balance}`), checked against the devnode's own state: its accounts (contracts aside) with AE, richest
 * first, and each balance as the node's /v3/accounts answers it, after a load, new micro blocks and a fork (issue 28).
 */
describe('/mdw/v3/wealth and holders_count, checked against the devnode state', function () {
  this.timeout(240_000);
  let v3: V3UnderTest;

  before(async () => {
    v3 = await startV3(60, 'v3-wealth', () => ({ BATCH_SIZE: '1' }));
  });
  after(async () => {
    await v3?.close();
  });

  const nodeRanking = (): { account: string; balance: bigint }[] => rankingOf(v3);
  const checkAgainstNode = (): Promise<void> => checkWealth(v3);

  it('lists the richest accounts with their balances as the node has them, and counts the holders', async () => {
    await checkAgainstNode();
    // exact beyond 2^53: the generated accounts' balances are
    const text = (await v3.get('/mdw/v3/wealth')).text;
    const big = nodeRanking().find((x) => x.balance > 2n ** 53n)!;
    expect(text).to.contain(`"balance":${big.balance}`);
  });

  it('follows new micro blocks of the top generation and new key blocks', async () => {
    const fresh = keyPairFromSeed(Buffer.alloc(32, 7)).address;
    await v3.spend(fresh, 123456789);
    await v3.devnode.mineMicroBlock();
    await v3.synced();
    await checkAgainstNode();
    const listed = (await v3.get('/mdw/v3/wealth')).body as Obj[];
    expect(listed.find((x) => x.account === fresh)?.balance).to.equal(123456789);
    await v3.devnode.mineKeyBlock();
    await v3.synced();
    await checkAgainstNode();
  });

  it('stays exact through a fork that replaces the top generations', async () => {
    await v3.devnode.fork(5);
    await v3.synced();
    await checkAgainstNode();
  });

  it('keeps each account at its latest balance when heights are deleted, as a rollback does', async () => {
    const top = v3.devnode.height();
    const client = await v3.pool.connect();
    try {
      // in a transaction rolled back after: the populator goes on beside it
      await client.query('BEGIN');
      await client.query('DELETE FROM key_blocks WHERE height >= $1', [top - 10]);
      const { rows: latest } = await client.query<{ account_id: string; balance: string }>(
        `SELECT DISTINCT ON (account_id) account_id, balance::text FROM account_balances
          ORDER BY account_id, height DESC`,
      );
      const { rows: wealth } = await client.query(
        'SELECT account_id, balance::text FROM account_wealth ORDER BY account_id',
      );
      expect(latest.length).to.be.above(3);
      expect(wealth).to.deep.equal(latest);
      const { rows: holders } = await client.query<{ holders: string; counted: string }>(
        `SELECT holders::text, (SELECT count(*) FROM account_wealth WHERE balance > 0)::text AS counted
           FROM account_holders`,
      );
      expect(holders[0]!.holders).to.equal(holders[0]!.counted);
      const left = await client.query('SELECT 1 FROM account_balances WHERE height >= $1', [top - 10]);
      expect(left.rowCount).to.equal(0);
    } finally {
      await client.query('ROLLBACK');
      client.release();
    }
  });
});

describe('/mdw/v3/wealth from a node that garbage-collected its older states', function () {
  this.timeout(240_000);
  let v3: V3UnderTest;

  before(async () => {
    v3 = await startV3(60, 'v3-wealth-gc', () => ({ BATCH_SIZE: '10' }), { gcHeight: 45 });
  });
  after(async () => {
    await v3?.close();
  });

  it("ranks the accounts by the node's balances all the same (states below the GC height read at the top)", () =>
    checkWealth(v3));
});
