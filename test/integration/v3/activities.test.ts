import { buildTx, ORACLE_TTL_TYPES, oracleQueryId, Tag } from '@aeternity/aepp-sdk';
import { idKey } from '../../../src/chain/id-key.ts';
import { expect } from 'chai';
import { auctionTimeout } from '../../../src/chain/aens.ts';
import { nameId } from '../../../src/chain/derived-ids.ts';
import { PROTOCOL_VERSION } from '../../../src/devnode/store/blocks.ts';
import { stringifyJson, type Json } from '../../../src/chain/json.ts';
import { startV3, walkPages, type ChainTruth, type ChainTx, type V3UnderTest } from './harness.ts';

type Obj = { [key: string]: Json };
type Raw = { data: Obj[]; next: string | null; prev: string | null };

describe('/v3 transfers and account activities, checked against the devnode chain', function () {
  this.timeout(180_000);
  let v3: V3UnderTest;
  let chain: ChainTruth;
  const walk = (path: string): Promise<Obj[]> => v3.walk(path);
  const txOf = (t: ChainTx): Obj => t.signed.tx as Obj;

  before(async () => {
    v3 = await startV3(60, 'v3-names', () => ({}), { populatedOnce: true });
    // a query nobody answers: its fee goes back to its sender at the key block after its expiry
    const oracle = ((await v3.get('/mdw/v3/oracles?state=active&limit=1')).body as Raw).data[0]!;
    const sender = v3.devnode.accounts[0]!.publicKey as `ak_${string}`;
    const { next_nonce: nonce } = (await v3.nodeGet(`/v2/accounts/${sender}/next-nonce`)) as { next_nonce: number };
    await v3.submit(
      buildTx({
        tag: Tag.OracleQueryTx,
        senderId: sender,
        nonce,
        oracleId: oracle.oracle as `ok_${string}`,
        query: 'anyone?',
        queryFee: String(oracle.query_fee),
        queryTtlType: ORACLE_TTL_TYPES.delta,
        queryTtlValue: 2,
        responseTtlType: ORACLE_TTL_TYPES.delta,
        responseTtlValue: 2,
        fee: 20_000_000_000_000,
      }),
    );
    for (let i = 0; i < 4; i++) await v3.devnode.mineKeyBlock();
    await v3.synced();
    chain = await v3.truth();
  });
  after(async () => {
    await v3?.close();
  });

  /** the ids of the queries the chain asked, the oracle each went to, when it expires, and who pays */
  const queries = (): { id: string; hash: string; sender: string; fee: string; expires: number }[] =>
    chain.transactions
      .filter((t) => txOf(t).type === 'OracleQueryTx' && String(txOf(t).oracle_id).startsWith('ok_'))
      .map((t) => {
        const tx = txOf(t);
        const ttl = tx.query_ttl as Obj;
        return {
          id: oracleQueryId(tx.sender_id as `ak_${string}`, String(tx.nonce), tx.oracle_id as `ok_${string}`),
          hash: t.hash,
          sender: String(tx.sender_id),
          fee: String(tx.query_fee),
          expires: ttl.type === 'block' ? Number(ttl.value) : t.height + Number(ttl.value),
        };
      });

  it('pays each key block its reward, lists the genesis accounts and refunds expired queries, as the devnode does', async () => {
    const transfers = await walk('/mdw/v3/transfers?direction=forward&limit=100');
    const top = chain.keyBlocks.length - 1;
    const rewards = transfers.filter((t) => t.kind === 'reward_block');
    expect(rewards.map((t) => [t.height, t.account_id])).to.deep.equal(
      chain.keyBlocks.slice(1).map((k) => [k.height, k.beneficiary]),
    );
    expect(transfers.filter((t) => t.kind === 'reward_dev')).to.deep.equal([]);
    for (const r of rewards) expect(r).to.deep.include({ ref_tx_hash: null, ref_tx_type: null, ref_block_hash: null });
    // the beneficiary signs nothing, so its balance on the node is what it was paid
    const beneficiary = String(chain.keyBlocks[1]!.beneficiary);
    expect(chain.transactions.some((t) => stringifyJson(t.signed).includes(beneficiary))).to.equal(false);
    const paid = transfers
      .filter((t) => t.account_id === beneficiary)
      .reduce((sum, t) => sum + BigInt(String(t.amount)), 0n);
    const account = (await v3.nodeGet(`/v2/accounts/${beneficiary}`)) as Obj;
    expect(paid.toString()).to.equal(String(account.balance));
    // the key block says what it paid
    const kb = (await v3.get(`/mdw/v3/key-blocks/${top}`)).body as Obj;
    expect(String(kb.beneficiary_reward)).to.equal(String(rewards.at(-1)!.amount));

    const genesis = transfers.filter((t) => t.kind === 'accounts_roma');
    expect(genesis.map((t) => [t.height, t.account_id, String(t.amount)])).to.have.deep.members(
      v3.devnode.chain.options.genesisAccounts.map((a) => [0, a.address, a.balance.toString()]),
    );

    const answered = new Set(
      chain.transactions.filter((t) => txOf(t).type === 'OracleRespondTx').map((t) => txOf(t).query_id),
    );
    const expired = queries().filter((q) => !answered.has(q.id) && q.expires + 1 <= top);
    const refunds = transfers.filter((t) => t.kind === 'fee_refund_oracle');
    expect(refunds.map((t) => [t.height, t.account_id, String(t.amount), t.ref_tx_hash])).to.have.deep.members(
      expired.map((q) => [q.expires + 1, q.sender, q.fee, q.hash]),
    );
    expect(expired.length, 'the chain has expired queries').to.be.greaterThan(0);

    // filters: a kind prefix, an account; and the list backward is the list forward reversed
    expect(await walk('/mdw/v3/transfers?kind=fee&direction=forward&limit=50')).to.deep.equal(
      transfers.filter((t) => String(t.kind).startsWith('fee')),
    );
    expect(await walk(`/mdw/v3/transfers?account=${beneficiary}&limit=100`)).to.deep.equal(
      transfers.filter((t) => t.account_id === beneficiary).reverse(),
    );
    // both at once, as ae_mdw combines them; a payer of name fees gets fee transfers of several kinds
    const payer = String(transfers.find((t) => t.kind === 'fee_refund_name')!.account_id);
    const payerFees = transfers.filter((t) => t.account_id === payer && String(t.kind).startsWith('fee'));
    expect(new Set(payerFees.map((t) => t.kind)).size, 'kinds of the payer').to.be.greaterThan(1);
    expect(await walk(`/mdw/v3/transfers?account=${payer}&kind=fee&direction=forward&limit=3`)).to.deep.equal(
      payerFees,
    );
    expect(await walk(`/mdw/v3/transfers?account=${payer}&kind=fee_refund&limit=3`)).to.deep.equal(
      payerFees.filter((t) => t.kind === 'fee_refund_name').reverse(),
    );
    expect(await walk('/mdw/v3/transfers?scope=gen:3-7&limit=4')).to.deep.equal(
      transfers.filter((t) => Number(t.height) >= 3 && Number(t.height) <= 7),
    );
    expect(await walk('/mdw/v3/transfers?limit=33')).to.deep.equal([...transfers].reverse());
    expect((await v3.get('/mdw/v3/transfers?account=ct_x')).status).to.equal(400);
    expect((await v3.get('/mdw/v3/transfers?foo=1')).body).to.deep.equal({ error: 'invalid query: foo=1' });
  });

  it('books name fees as ae_mdw: a claim without an auction locks, one in an auction spends, a bid returns the outbid fee', async () => {
    const transfers = await walk('/mdw/v3/transfers?direction=forward&limit=7');
    const claims = chain.transactions.filter((t) => txOf(t).type === 'NameClaimTx');
    const inAuction = (c: ChainTx): boolean => auctionTimeout(String(txOf(c).name), PROTOCOL_VERSION) > 0;
    expect(claims.filter(inAuction).length, 'the chain has auctions').to.be.greaterThan(0);
    expect(claims.filter((c) => !inAuction(c)).length, 'and names without one').to.be.greaterThan(0);
    const ofKind = (kind: string): Obj[] => transfers.filter((t) => t.kind === kind);
    const booked = (list: ChainTx[]): (string | number)[][] =>
      list.map((c) => [c.hash, String(txOf(c).account_id), String(txOf(c).name_fee), c.height]);
    // (an auction's end locks its winning fee at the key block of its end: not at the claim's height)
    const lockedAtClaim = ofKind('fee_lock_name').filter((t) =>
      claims.some((c) => c.hash === t.ref_tx_hash && c.height === t.height),
    );
    expect(lockedAtClaim.map((t) => [t.ref_tx_hash, t.account_id, String(t.amount), t.height])).to.deep.equal(
      booked(claims.filter((c) => !inAuction(c))),
    );
    for (const [i, lock] of lockedAtClaim.entries())
      expect(lock.ref_block_hash).to.equal(claims.filter((c) => !inAuction(c))[i]!.blockHash);
    const spends = ofKind('fee_spend_name');
    expect(spends.map((t) => [t.ref_tx_hash, t.account_id, String(t.amount), t.height])).to.deep.equal(
      booked(claims.filter(inAuction)),
    );
    // a bid (salt 0) returns the fee of the claim or bid before it on the same name, referring to that one
    const refunds = transfers.filter((t) => t.kind === 'fee_refund_name');
    const expected = claims.flatMap((c, i) => {
      if (Number(txOf(c).name_salt) !== 0) return [];
      const before = claims
        .slice(0, i)
        .filter((p) => txOf(p).name === txOf(c).name)
        .at(-1);
      if (before === undefined) return [];
      return [[c.height, before.hash, String(txOf(before).account_id), String(txOf(before).name_fee)]];
    });
    expect(refunds.map((t) => [t.height, t.ref_tx_hash, t.account_id, String(t.amount)])).to.deep.equal(expected);
    const rewards = transfers.filter((t) => t.kind === 'reward_oracle');
    const responses = chain.transactions.filter((t) => txOf(t).type === 'OracleRespondTx');
    expect(rewards.map((t) => t.ref_tx_hash)).to.deep.equal(responses.map((t) => t.hash));
    expect((await walk('/mdw/v3/transfers?kind=reward_o&limit=100')).map((t) => t.ref_tx_hash)).to.deep.equal(
      rewards.map((t) => t.ref_tx_hash).reverse(),
    );
  });

  it("lists an account's transactions and transfers newest first, both ways, through the SDK", async () => {
    const claim = chain.transactions.find((t) => txOf(t).type === 'NameClaimTx')!;
    const account = String(txOf(claim).account_id);
    const { rows } = await v3.pool.query<{ tx_hash: string }>(
      `SELECT t.hash AS tx_hash FROM account_transactions a
         JOIN transactions t ON t.height = a.height AND t.micro_index = a.micro_index AND t.tx_index = a.tx_index
        WHERE a.account = (SELECT num FROM account_ids WHERE key = $1) ORDER BY a.height DESC, a.micro_index DESC, a.tx_index DESC`,
      [idKey(account)],
    );
    const all = await walk(`/mdw/v3/accounts/${account}/activities?limit=4`);
    const txEvents = all.filter((a) => a.type !== 'InternalTransferEvent');
    expect(txEvents.map((a) => (a.payload as Obj).hash)).to.deep.equal(rows.map((r) => r.tx_hash));
    for (const a of txEvents) expect(a.type).to.equal(`${String(((a.payload as Obj).tx as Obj).type)}Event`);
    // the claim's fee lock follows the claim itself
    const claimAt = all.findIndex((a) => (a.payload as Obj).hash === claim.hash);
    expect(all[claimAt - 1]).to.deep.include({ type: 'InternalTransferEvent' });
    expect((all[claimAt - 1]!.payload as Obj).ref_tx_hash).to.equal(claim.hash);
    const forward = await walk(`/mdw/v3/accounts/${account}/activities?direction=forward&limit=5`);
    expect(forward).to.deep.equal([...all].reverse());
    const page = (await v3.mdw.getAccountActivities(account as `ak_${string}`, { limit: 1 })) as unknown as {
      data: { height: number }[];
      nextPath: string | null;
      prevPath: string | null;
    };
    expect(page.data).to.have.length(1);
    expect(page.prevPath).to.equal(null);
    expect(page.nextPath).to.match(new RegExp(`^/v3/accounts/${account}/activities\\?cursor=[^&]+&limit=1$`));
    const onlyTransfers = await walk(`/mdw/v3/accounts/${account}/activities?type=transfers`);
    expect(onlyTransfers.every((a) => a.type === 'InternalTransferEvent')).to.equal(true);
    expect(nameId(String(txOf(claim).name))).to.match(/^nm_/);
  });

  it("lists a name's claims as its `claims` activities (NameClaimEvent), bids in its auction included, through the SDK", async () => {
    // the claim of a transaction, inside a GAMetaTx or PayingForTx too
    const claimOf = (t: ChainTx): Obj | undefined => {
      for (let tx: Obj | undefined = txOf(t); tx; tx = ((tx.tx as Obj | undefined)?.tx as Obj | undefined) ?? undefined)
        if (tx.type === 'NameClaimTx') return tx;
      return undefined;
    };
    const claims = chain.transactions.filter((t) => claimOf(t) !== undefined);
    const byName = new Map<string, ChainTx[]>();
    for (const c of claims) byName.set(String(claimOf(c)!.name), [...(byName.get(String(claimOf(c)!.name)) ?? []), c]);
    const [name, ofName] = [...byName].sort((a, b) => b[1].length - a[1].length)[0]!;
    expect(ofName.length, 'a name bid on').to.be.greaterThan(1);
    const id = nameId(name) as `ak_${string}`;
    const listed = await walkPages<{ type: string; height: number; blockHash: string }>(
      await v3.mdw.getAccountActivities(id, { type: 'claims', limit: 1 }),
    );
    const times = new Map<string, number>();
    for (const c of ofName)
      times.set(c.blockHash, Number(((await v3.nodeGet(`/v2/micro-blocks/hash/${c.blockHash}/header`)) as Obj).time));
    expect(listed.map((a) => [a.type, a.height, a.blockHash])).to.deep.equal(
      [...ofName].reverse().map((c) => ['NameClaimEvent', c.height, c.blockHash]),
    );
    // the payload as ae_mdw writes it (owned_only changes nothing): the claim without type and version, micro_time in ms
    const raw = await walk(`/mdw/v3/accounts/${id}/activities?type=claims&owned_only=true`);
    expect(raw.map((a) => a.payload)).to.deep.equal(
      [...ofName].reverse().map((c) => {
        const { type: _type, version: _version, ...tx } = claimOf(c)!;
        return { micro_time: times.get(c.blockHash), source_tx_hash: c.hash, source_tx_type: 'NameClaimTx', tx };
      }),
    );
  });

  it('narrows transfers by gen, txi and time scopes and activities by gen and time scopes, as ae_mdw does', async () => {
    const claim = chain.transactions.find((t) => txOf(t).type === 'NameClaimTx')!;
    const account = String(txOf(claim).account_id);
    const feed = await walk(`/mdw/v3/accounts/${account}/activities?direction=forward&limit=100`);
    const keyLevel = (a: Obj): boolean => String(a.block_hash).startsWith('kh_');
    const txItems = feed.filter((a) => !keyLevel(a));
    expect(txItems.length, 'the account has transactions').to.be.greaterThan(4);
    // a window of whole seconds around the account's middle transactions
    const t1 = Math.floor(Number(txItems[1]!.block_time) / 1000);
    const t2 = Math.floor(Number(txItems.at(-2)!.block_time) / 1000);
    const micros = [...chain.microBlocks].flatMap(([height, headers]) =>
      headers.map((h) => ({ height, time: Number(h.time) })),
    );
    const inWindow = micros.filter((m) => m.time >= t1 * 1000 && m.time <= t2 * 1000 + 999);
    const [lo, hi] = [inWindow[0]!.height, inWindow.at(-1)!.height];
    // a transaction's items by their micro block's time, a key block's (no transaction) by its generation
    const expected = feed.filter((a) =>
      keyLevel(a)
        ? Number(a.height) >= lo && Number(a.height) <= hi
        : Number(a.block_time) >= t1 * 1000 && Number(a.block_time) <= t2 * 1000 + 999,
    );
    expect(expected.length).to.be.lessThan(feed.length);
    expect(await walk(`/mdw/v3/accounts/${account}/activities?scope=time:${t1}-${t2}&limit=3`)).to.deep.equal(expected);
    expect(await walk(`/mdw/v3/accounts/${account}/activities?scope=time:${t2}-${t1}&limit=3`)).to.deep.equal(
      [...expected].reverse(),
    );
    const genScoped = await walk(`/mdw/v3/accounts/${account}/activities?scope=gen:${lo}-${hi}&limit=3`);
    expect(genScoped).to.deep.equal(feed.filter((a) => Number(a.height) >= lo && Number(a.height) <= hi));
    expect((await v3.get(`/mdw/v3/accounts/${account}/activities?scope=txi:1-2`)).body).to.deep.equal({
      error: 'invalid scope: txi',
    });
    // transfers: a txi or time scope stands for the generations of its first and last transaction
    const all = await walk('/mdw/v3/transfers?direction=forward&limit=100');
    const ofHeights = (a: number, b: number): Obj[] =>
      all.filter((t) => Number(t.height) >= a && Number(t.height) <= b);
    expect(await walk(`/mdw/v3/transfers?scope=time:${t1}-${t2}&limit=50`)).to.deep.equal(ofHeights(lo, hi));
    // a transaction's txi is its index in chain order
    const txs = await walk('/mdw/v3/transactions?direction=forward&limit=100&scope=gen:0-20');
    expect(await walk('/mdw/v3/transfers?scope=txi:3-8&limit=50')).to.deep.equal(
      ofHeights(Number(txs[3]!.block_height), Number(txs[8]!.block_height)),
    );
  });

  it('rejects bad activity input with 400', async () => {
    expect((await v3.get('/mdw/v3/accounts/ak_x/activities')).body).to.deep.equal({ error: 'invalid id: ak_x' });
    const account = String(txOf(chain.transactions[0]!).sender_id ?? '');
    if (account.startsWith('ak_')) {
      expect((await v3.get(`/mdw/v3/accounts/${account}/activities?type=foo`)).status).to.equal(400);
      expect((await v3.get(`/mdw/v3/accounts/${account}/activities?cursor=1-2`)).body).to.deep.equal({
        error: 'invalid cursor: 1-2',
      });
    }
  });
});
