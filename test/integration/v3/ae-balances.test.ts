/**
 * @module Every AE balance change with its cause (issue 76) over a generated devnode chain with wrapped AE withdrawn
 * (`Chain.spend` pays accounts no transaction names) and AE swapped through the DEX router (`Call.amount`): every
 * account's balance at 20 random heights, derived from the chain's rules, equals the devnode's state there, the
 * contracts' accounts included (issue 87: a wrapped-AE contract funded at its creation, paid by calls, paying out with
 * Chain.spend, and paid by the router's remote calls); so after a fork while the populator follows, and after a -H
 * reload of heights whose rows were spoiled. The routes answer it, for a contract under its ct_ id too.
 */
import { expect } from 'chai';
import { encode, Encoding } from '@aeternity/aepp-sdk';
import { LOCKED_COINS_ACCOUNT } from '../../../src/chain/derived-ids.ts';
import { parseJson, toBigInt, type Json } from '../../../src/chain/json.ts';
import { loadConfig } from '../../../src/config/middleware.ts';
import { reloadHeights } from '../../../src/indexer/maintenance/reload.ts';
import { silentLog } from '../api/harness.ts';
import {
  aeBalancesApart,
  devnodeBalances as devnodeBalancesOf,
  devnodeContractAccounts,
} from '../../support/ae-balances-truth.ts';
import { startV3, type V3UnderTest } from './harness.ts';
import { contractId } from '../../../src/chain/derived-ids.ts';
import { reprefix } from '../../../src/chain/encoding.ts';
import { signBuilt } from '../../../src/devnode/index.ts';
import { parseSecretKey } from '../../../src/devnode/keys.ts';
import { BYTECODE } from '../../../src/devnode/contracts/standards.ts';
import { callData, callTx, CONTRACT_GAS, contractCreateTx } from '../../../src/devnode/contracts/txs.ts';
import type { BuiltTx } from '../../../src/devnode/tx-codec.ts';

type Obj = { [key: string]: Json };

describe('AE balance changes: every account at random heights against the devnode state', function () {
  this.timeout(600_000);
  let v3: V3UnderTest;

  /** settled waits until the populator has the node's top and no balances or internal calls are left to derive. */
  async function settled(): Promise<void> {
    await v3.synced();
    for (let i = 0; i < 600; i++) {
      const { rows } = await v3.pool.query("SELECT 1 FROM derive_backfill WHERE area IN ('balances', 'int_calls')");
      if (rows.length === 0) return;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    throw new Error('the balances area did not finish');
  }

  /** The devnode's accounts (the locked coins' aside) and their balances after generation `height`. */
  const devnodeBalances = (height: number): Map<string, bigint> => devnodeBalancesOf(v3.devnode.chain, height);

  /** compareAt checks every account the devnode knows at the top, at each height, against the stored changes. */
  async function compareAt(heights: readonly number[]): Promise<number> {
    expect(await aeBalancesApart(v3.pool, v3.devnode.chain, heights)).to.deep.equal([]);
    return devnodeBalances(v3.devnode.chain.height).size * heights.length;
  }

  /** randomHeights: `n` heights of the chain drawn with a fixed seed (the same ones on every run). */
  function randomHeights(n: number, seed: number): number[] {
    const top = v3.devnode.chain.height;
    let x = seed;
    return Array.from({ length: n }, () => {
      x = (x * 1103515245 + 12345) % 2 ** 31;
      return x % (top + 1);
    });
  }

  /**
   * fundedContract deploys a wrapped-AE contract with 5000 aettos, deposits 3000 into it (a payable call's amount) and
   * withdraws 1000 (its Chain.spend to the caller), in one generation: its ct_ id.
   */
  async function fundedContract(): Promise<string> {
    const chain = v3.devnode.chain;
    const owner = parseSecretKey(v3.devnode.accounts[0]!.secretKey);
    const nonce = chain.pending.accounts.get(owner.address)!.nonce;
    const submit = (built: BuiltTx): void => void chain.submit(signBuilt(chain.options.networkId, built));
    const terms = { amount: 5000, gas: CONTRACT_GAS, gasPrice: 1e9, fee: 300_000, callData: callData('init', []) };
    submit(contractCreateTx(owner, nonce + 1, BYTECODE.wae, terms));
    const id = contractId(owner.address, nonce + 1);
    submit(callTx(owner, nonce + 2, id, 'deposit', [], 3000n));
    submit(callTx(owner, nonce + 3, id, 'withdraw', [1000n]));
    await v3.devnode.mineKeyBlock();
    return id;
  }
  let funded: string;

  before(async () => {
    v3 = await startV3(60, 'internal-calls', () => ({}), { tokenShare: 0.5, registrar: true, populatedOnce: true });
    funded = await fundedContract();
    await settled();
  });
  after(async () => {
    await v3?.close();
  });

  it("derives every account's balance at 20 random heights as the devnode has it, Chain.spend's payees included", async () => {
    const compared = await compareAt([...randomHeights(20, 76), v3.devnode.chain.height]);
    expect(compared).to.be.above(200);
    // accounts an internal call paid, which no transaction of theirs names, are followed
    const { rows } = await v3.pool.query<{ n: string }>(
      "SELECT count(*)::text AS n FROM account_balance_changes WHERE kind = 'Chain.spend' AND delta > 0",
    );
    expect(Number(rows[0]!.n), 'Chain.spend payouts').to.be.above(0);
    // the contracts' accounts are among those compared, some of them holding AE (the DEX's wrapped AE, the router's)
    const contracts = devnodeContractAccounts(v3.devnode.chain);
    const held = [...devnodeBalances(v3.devnode.chain.height)].filter(([id, b]) => contracts.has(id) && b > 0n);
    expect(held.length, 'contracts holding AE').to.be.at.least(2);
    const remote = await v3.pool.query<{ n: string }>(
      "SELECT count(*)::text AS n FROM account_balance_changes WHERE kind = 'Call.amount' AND account_id = ANY($1)",
      [[...contracts]],
    );
    expect(Number(remote.rows[0]!.n), "remote calls' value into and out of contracts").to.be.above(0);
    // nothing differs from the node's balances at the batches' ends, the locked-coins account's included (the devnode
    // locks name fees there as the node does)
    const unexplained = await v3.pool.query<{ account_id: string }>(
      "SELECT DISTINCT account_id FROM account_balance_changes WHERE kind = 'unexplained'",
    );
    expect(unexplained.rows.map((r) => r.account_id)).to.deep.equal([]);
    const locked = devnodeBalances(v3.devnode.chain.height).get(LOCKED_COINS_ACCOUNT) ?? 0n;
    expect(locked > 0n, 'name fees locked').to.equal(true);
  });

  it("answers hash= (a key or micro block) as the node's /v3/accounts/{id}/hash/{hash}, and names the block height= is after", async () => {
    // a generation with a spend in a micro block, so its key block's state and its micro blocks' differ for the sender
    type Gen = { key_block: Obj; micro_blocks: string[] };
    let gen: Gen | undefined;
    let account = '';
    for (let h = Math.floor(v3.devnode.chain.height / 2); h < v3.devnode.chain.height && !gen; h++) {
      const g = (await v3.nodeGet(`/v2/generations/height/${h}`)) as Gen;
      for (const mh of g.micro_blocks) {
        const { transactions } = (await v3.nodeGet(`/v2/micro-blocks/hash/${mh}/transactions`)) as {
          transactions: Obj[];
        };
        const spend = transactions.map((t) => t.tx as Obj).find((t) => t.type === 'SpendTx');
        if (spend && !gen) [gen, account] = [g, String(spend.sender_id)];
      }
    }
    expect(gen, 'a generation with a spend').to.not.equal(undefined);
    const height = gen!.key_block.height as number;
    const keyHash = String(gen!.key_block.hash);
    const lastMicro = gen!.micro_blocks.at(-1)!;
    const nodeAt = async (path: string): Promise<bigint> =>
      toBigInt(((await v3.nodeGet(`/v3/accounts/${account}/${path}`)) as Obj).balance!);
    const ours = async (query: string): Promise<Obj> => {
      const res = await v3.get(`/mdw/v3/accounts/${account}/balance?${query}`);
      expect(res.status, res.text).to.equal(200);
      return res.body as Obj;
    };
    for (const hash of [keyHash, ...gen!.micro_blocks]) {
      const at = await ours(`hash=${hash}`);
      expect(toBigInt(at.balance!), hash).to.equal(await nodeAt(`hash/${hash}`));
      expect(at.block_hash).to.equal(hash);
      expect(at.height).to.equal(height);
    }
    // the node's height/H is key block H's state; ours is after generation H, its last micro block, and says so
    expect(await nodeAt(`height/${height}`)).to.equal(toBigInt((await ours(`hash=${keyHash}`)).balance!));
    const after = await ours(`height=${height}`);
    expect(after.block_hash).to.equal(lastMicro);
    expect(toBigInt(after.balance!)).to.equal(await nodeAt(`hash/${lastMicro}`));
    expect(toBigInt(after.balance!), 'the spender paid in the generation').to.not.equal(
      await nodeAt(`height/${height}`),
    );
    // GraphQL's field beside it, from the same resource
    const gql = await fetch(`${v3.url}/mdw/graphql`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        query: `{ accountAeBalance(id: "${account}", hash: "${keyHash}") { balance blockHash } }`,
      }),
    });
    const gqlText = await gql.text();
    const viaGql = (parseJson(gqlText) as { data?: { accountAeBalance: Obj } }).data?.accountAeBalance;
    expect(viaGql, gqlText).to.not.equal(undefined);
    expect(viaGql!.blockHash).to.equal(keyHash);
    expect(toBigInt(viaGql!.balance!)).to.equal(await nodeAt(`hash/${keyHash}`));
    // a malformed hash is a 400, a well-formed one no block has a 404, with another parameter a 400
    const unknown = encode(new Uint8Array(32).fill(7), Encoding.KeyBlockHash);
    for (const [query, status] of [
      ['hash=kh_x', 400],
      [`hash=${reprefix(keyHash, 'th')}`, 400],
      [`hash=${keyHash}&height=1`, 400],
      [`hash=${unknown}`, 404],
    ] as const)
      expect((await v3.get(`/mdw/v3/accounts/${account}/balance?${query}`)).status, query).to.equal(status);
  });

  it('serves the balance at a height or time and the history that explains it', async () => {
    const { rows } = await v3.pool.query<{ account_id: string; n: string }>(
      `SELECT account_id, count(*)::text AS n FROM account_balance_changes WHERE account_id LIKE 'ak\\_%'
        GROUP BY account_id ORDER BY count(*) DESC, account_id LIMIT 1`,
    );
    const account = rows[0]!.account_id;
    const height = Math.floor(v3.devnode.chain.height / 2);
    const at = await v3.get(`/mdw/v3/accounts/${account}/balance?height=${height}`);
    expect(at.status, at.text).to.equal(200);
    const body = at.body as Obj;
    expect(toBigInt(body.balance!)).to.equal(devnodeBalances(height).get(account) ?? 0n);
    const last = body.last_change as Obj;
    expect(last.height as number).to.be.at.most(height);
    expect(toBigInt(last.balance!)).to.equal(toBigInt(body.balance!));
    // by time: the balance after the last block at or before it
    const keyTime = Number((v3.devnode.chain.keyBlocks[height + 1]!.header as { time: number }).time);
    const byTime = (await v3.get(`/mdw/v3/accounts/${account}/balance?time=${Math.floor(keyTime / 1000) - 1}`))
      .body as Obj;
    expect(byTime.account).to.equal(account);
    // the history: every change, newest first, each balance the one before it plus its delta
    const history = await v3.walk(`/mdw/v3/accounts/${account}/balance/history?limit=7`);
    expect(history.length).to.equal(Number(rows[0]!.n));
    for (let i = 0; i + 1 < history.length; i++)
      expect(toBigInt(history[i]!.balance!)).to.equal(
        toBigInt(history[i + 1]!.balance!) + toBigInt(history[i]!.delta!),
      );
    // a transaction's change names it, a key block's reward none
    expect(history.filter((c) => String(c.kind).endsWith('Tx') && !String(c.tx_hash).startsWith('th_'))).to.deep.equal(
      [],
    );
    expect(history.filter((c) => c.kind === 'reward_block' && c.tx_hash !== null)).to.deep.equal([]);
    const forward = await v3.walk(`/mdw/v3/accounts/${account}/balance/history?direction=forward&limit=9`);
    expect(forward).to.deep.equal([...history].reverse());
    const scoped = await v3.walk(`/mdw/v3/accounts/${account}/balance/history?scope=gen:${height}-0&limit=5`);
    expect(scoped).to.deep.equal(history.filter((c) => (c.height as number) <= height));
    // the balance at the end of each day (week, month) it changed: each the day's last change's
    const lastOfDay = new Map<string, Obj>();
    for (const c of history) {
      const day = new Date(c.time as number).toISOString().slice(0, 10);
      if (!lastOfDay.has(day)) lastOfDay.set(day, c);
    }
    for (const direction of ['backward', 'forward']) {
      const days = await v3.walk(
        `/mdw/v3/accounts/${account}/balance/history?interval_by=day&limit=1&direction=${direction}`,
      );
      const expected = [...lastOfDay].map(([date, c]) => ({
        account,
        interval_by: 'day',
        date,
        height: c.height,
        balance: c.balance,
      }));
      expect(days).to.deep.equal(direction === 'forward' ? expected.reverse() : expected);
    }
    const months = await v3.walk(`/mdw/v3/accounts/${account}/balance/history?interval_by=month`);
    // the balance at the end of each month it changed (the generated chain's, and the generation mined now)
    const lastOfMonth = new Map<string, Obj>();
    for (const c of history) {
      const month = new Date(c.time as number).toISOString().slice(0, 7);
      if (!lastOfMonth.has(month)) lastOfMonth.set(month, c);
    }
    expect(months.map((m) => String(m.balance))).to.deep.equal([...lastOfMonth.values()].map((c) => String(c.balance)));
    expect((await v3.get(`/mdw/v3/accounts/${account}/balance/history?interval_by=year`)).status).to.equal(400);
    // GraphQL's fields beside them, from the same resources
    const gql = await fetch(`${v3.url}/mdw/graphql`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        query: `{ accountAeBalance(id: "${account}", height: ${height}) { balance lastChange }
                  accountAeBalanceHistory(id: "${account}", limit: 3) { data { kind delta balance } } }`,
      }),
    });
    const gqlText = await gql.text();
    const answered = parseJson(gqlText) as { data: Obj };
    expect(answered.data, gqlText).to.not.equal(undefined);
    expect(String((answered.data.accountAeBalance as Obj).balance)).to.equal(String(body.balance));
    expect(((answered.data.accountAeBalanceHistory as Obj).data as Obj[]).map((c) => String(c.balance))).to.deep.equal(
      history.slice(0, 3).map((c) => String(c.balance)),
    );
    // many accounts at once, at a height
    const post = async (body: unknown, query = ''): Promise<{ status: number; body: Json }> => {
      const res = await fetch(`${v3.url}/mdw/v3/accounts/balances${query}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
      return { status: res.status, body: parseJson(await res.text()) };
    };
    const accounts = [...devnodeBalances(height).keys()].slice(0, 5);
    const many = await post({ accounts, height });
    expect(many.status).to.equal(200);
    expect((many.body as Obj[]).map((b) => [b.account, toBigInt(b.balance!)])).to.deep.equal(
      accounts.map((id) => [id, devnodeBalances(height).get(id)]),
    );
    // int-as-string, as every /mdw/v3 answer takes it
    const asStrings = await post({ accounts, height }, '?int-as-string=true');
    expect((asStrings.body as Obj[]).map((b) => b.balance)).to.deep.equal(
      accounts.map((id) => String(devnodeBalances(height).get(id))),
    );
    for (const bad of [{}, { accounts: [] }, { accounts: ['ak_x'] }, { accounts, height: -1 }, { accounts, at: 1 }])
      expect((await post(bad)).status, JSON.stringify(bad)).to.equal(400);
    expect((await post({ accounts: Array.from({ length: 101 }, () => account) })).status).to.equal(400);
    // bad input is a 400, never a 500
    for (const bad of [
      `/mdw/v3/accounts/ak_x/balance`,
      `/mdw/v3/accounts/${account}/balance?height=x`,
      `/mdw/v3/accounts/${account}/balance?height=999999999`,
      `/mdw/v3/accounts/${account}/balance?height=1&time=1`,
      `/mdw/v3/accounts/${account}/balance/history?cursor=1-2`,
    ])
      expect((await v3.get(bad)).status, bad).to.equal(400);
  });

  it("serves a contract's balance under its ct_ and its ak_ id: its creation's amount, a call's, its Chain.spend", async () => {
    const account = reprefix(funded, 'ak');
    const top = v3.devnode.chain.height;
    expect(devnodeBalances(top).get(account)).to.equal(7000n);
    for (const id of [funded, account]) {
      const at = await v3.get(`/mdw/v3/accounts/${id}/balance`);
      expect(at.status, at.text).to.equal(200);
      expect([(at.body as Obj).account, toBigInt((at.body as Obj).balance!)]).to.deep.equal([account, 7000n]);
      // before its creation it held nothing
      const before = (await v3.get(`/mdw/v3/accounts/${id}/balance?height=${top - 2}`)).body as Obj;
      expect([toBigInt(before.balance!), before.last_change]).to.deep.equal([0n, null]);
    }
    const history = await v3.walk(`/mdw/v3/accounts/${funded}/balance/history?direction=forward`);
    expect(history.map((c) => [c.kind, String(c.delta), String(c.balance)])).to.deep.equal([
      ['ContractCreateTx', '5000', '5000'],
      ['ContractCallTx', '3000', '8000'],
      ['Chain.spend', '-1000', '7000'],
    ]);
    const many = await fetch(`${v3.url}/mdw/v3/accounts/balances`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ accounts: [funded] }),
    });
    expect(((parseJson(await many.text()) as Obj[])[0]!.balance as number | bigint).toString()).to.equal('7000');
    // as ae_mdw, the ranking is of accounts: no contract in it
    const wealth = (await v3.get('/mdw/v3/wealth')).body as Obj[];
    const contracts = devnodeContractAccounts(v3.devnode.chain);
    expect(wealth.filter((w) => contracts.has(String(w.account)))).to.deep.equal([]);
    // an id of another kind, or a malformed one, is a 400
    for (const bad of [`ok_${funded.slice(3)}`, `ct_${funded.slice(4)}`])
      expect((await v3.get(`/mdw/v3/accounts/${bad}/balance`)).status, bad).to.equal(400);
  });

  it('refuses, never makes up, a balance at heights the balances area has not derived yet', async () => {
    const top = v3.devnode.chain.height;
    await v3.pool.query("INSERT INTO derive_backfill (area, next_height, to_height) VALUES ('balances', $1, $2)", [
      top - 3,
      top,
    ]);
    try {
      const refused = await v3.get(`/mdw/v3/accounts/${funded}/balance`);
      expect(refused.status).to.equal(400);
      expect(String((refused.body as Obj).error)).to.match(
        new RegExp(`not derived yet: the balances area is deriving heights ${top - 3}\\.\\.${top}`),
      );
      expect((await v3.get(`/mdw/v3/accounts/${funded}/balance?height=${top - 4}`)).status).to.equal(200);
    } finally {
      await v3.pool.query("DELETE FROM derive_backfill WHERE area = 'balances'");
    }
  });

  it('undoes and derives again the changes of the heights a fork replaced', async () => {
    await v3.devnode.fork(6);
    await settled();
    const top = v3.devnode.chain.height;
    await compareAt([...randomHeights(10, 77).filter((h) => h < top - 8), top - 6, top - 3, top]);
  });

  it('reloads (-H) the changes of heights whose rows were spoiled, exactly', async () => {
    // a payout's height with two heights after it
    const { rows } = await v3.pool.query<{ height: number }>(
      "SELECT height FROM account_balance_changes WHERE kind = 'Chain.spend' AND height < $1 ORDER BY height LIMIT 1",
      [v3.devnode.chain.height - 2],
    );
    const h = rows[0]!.height;
    await v3.pool.query('UPDATE account_balance_changes SET balance = balance + 1 WHERE height IN ($1, $2)', [
      h,
      h + 1,
    ]);
    await v3.withoutPopulator(() => reloadHeights({ cfg: loadConfig(v3.settings), log: silentLog }, [h, h + 1]));
    await settled();
    await compareAt([h - 1, h, h + 1, h + 2, v3.devnode.chain.height]);
  });
});
