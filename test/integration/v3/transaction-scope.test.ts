import { expect } from 'chai';
import { encode as sdkEncode, Encoding } from '@aeternity/aepp-sdk';
import type { Json } from '../../../src/chain/json.ts';
import { startV3, type ChainTruth, type V3UnderTest } from './harness.ts';

type Obj = { [key: string]: Json };

/**
 * ae_mdw's `scope=transaction:th_A-th_B`: the lists that take a scope read it as the txis of those two transactions
 * (`txi:a-b`), so the range runs from A to B, both included, forward when A comes first and backward when B does.
 * Checked against the devnode chain's own order of transactions (issue 28).
 */
describe('/mdw/v3 lists with scope=transaction:th_A-th_B, checked against the devnode chain', function () {
  this.timeout(180_000);
  let v3: V3UnderTest;
  let chain: ChainTruth;

  before(async () => {
    v3 = await startV3(30, 'v3-api', () => ({}), { populatedOnce: true });
    chain = await v3.truth();
  });
  after(async () => {
    await v3?.close();
  });

  const hashes = (items: Obj[]): Json[] => items.map((x) => x.hash ?? null);

  it('lists the transactions from A to B, both included, in the direction their order gives', async () => {
    const all = chain.transactions;
    expect(all.length).to.be.above(40);
    const [a, b] = [all[5]!, all[37]!];
    const forward = await v3.walk(`/mdw/v3/transactions?scope=transaction:${a.hash}-${b.hash}&limit=7`);
    expect(hashes(forward)).to.deep.equal(all.slice(5, 38).map((t) => t.hash));
    const backward = await v3.walk(`/mdw/v3/transactions?scope=transaction:${b.hash}-${a.hash}&limit=9`);
    expect(hashes(backward)).to.deep.equal(
      all
        .slice(5, 38)
        .map((t) => t.hash)
        .reverse(),
    );
    // the same list as the txis' scope, and a single transaction
    expect(hashes(await v3.walk('/mdw/v3/transactions?scope=txi:5-37&limit=100'))).to.deep.equal(hashes(forward));
    expect(hashes(await v3.walk(`/mdw/v3/transactions?scope=transaction:${a.hash}`))).to.deep.equal([a.hash]);
    expect((await v3.get(`/mdw/v3/transactions/count?scope=transaction:${a.hash}-${b.hash}`)).body).to.equal(33);
  });

  it("counts a scope's transactions as the chain holds them: narrow, wide, past the top, empty", async () => {
    const all = chain.transactions;
    const top = chain.keyBlocks.length - 1;
    const inGens = (a: number, b: number): number => all.filter((t) => t.height >= a && t.height <= b).length;
    const busy = all[Math.floor(all.length / 2)]!.height;
    const scopes: [string, number][] = [
      [`gen:0-${top}`, all.length],
      [`gen:1-${top + 100}`, inGens(1, top + 100)],
      [`gen:${busy}-${busy}`, inGens(busy, busy)],
      [`gen:2-${busy}`, inGens(2, busy)],
      [`gen:${busy}-${top}`, inGens(busy, top)],
      [`gen:${top + 1}-${top + 9}`, 0],
      [`txi:0-${all.length + 50}`, all.length],
      [`txi:7-${all.length - 3}`, all.length - 3 - 7 + 1],
      ['txi:12-12', 1],
    ];
    expect(inGens(busy, busy)).to.be.above(1);
    for (const [scope, expected] of scopes)
      expect((await v3.get(`/mdw/v3/transactions/count?scope=${scope}`)).body, scope).to.equal(expected);
  });

  it("scopes an account's activities and the transfers the same way as the txis", async () => {
    const all = chain.transactions;
    const [a, b] = [all[3]!, all.at(-4)!];
    const account = String((all[3]!.signed.tx as Obj).sender_id ?? (all[3]!.signed.tx as Obj).account_id ?? '');
    const txis = `txi:3-${all.length - 4}`;
    expect(account).to.match(/^ak_/);
    for (const path of [`/mdw/v3/accounts/${account}/activities`, '/mdw/v3/transfers']) {
      // pages of 3: the links carry the scope as given
      const byHash = await v3.walk(`${path}?scope=transaction:${a.hash}-${b.hash}&limit=3`);
      expect(byHash.length, path).to.be.above(3);
      if (path === '/mdw/v3/transfers') expect(byHash).to.deep.equal(await v3.walk(`${path}?scope=${txis}&limit=50`));
      else {
        // ae_mdw takes no txis on activities: the transactions' generations, then only the transactions in range
        const inRange = new Set(all.slice(3, all.length - 3).map((t) => t.hash));
        const ofTxs = byHash.filter((x) => (x.payload as Obj).hash !== undefined);
        expect(ofTxs.length).to.be.above(0);
        expect(ofTxs.every((x) => inRange.has(String((x.payload as Obj).hash)))).to.equal(true);
        const everything = await v3.walk(`${path}?direction=forward&limit=100`);
        const expected = everything.filter(
          (x) => (x.payload as Obj).hash !== undefined && inRange.has(String((x.payload as Obj).hash)),
        );
        expect(ofTxs).to.deep.equal(expected);
      }
    }
  });

  it('answers 400 for a hash that is not one or not stored, and where a list takes no txis', async () => {
    const a = chain.transactions[0]!.hash;
    for (const scope of ['transaction:th_nope', `transaction:${a}-${a}-${a}`, 'transaction:']) {
      const res = await v3.get(`/mdw/v3/transactions?scope=${scope}`);
      expect(res.status, scope).to.equal(400);
    }
    const unknown = sdkEncode(Buffer.alloc(32, 9), Encoding.TxHash);
    const res = await v3.get(`/mdw/v3/transactions?scope=transaction:${unknown}`);
    expect(res.status).to.equal(400);
    expect((res.body as Obj).error).to.equal(`not found: ${unknown}`);
    expect((await v3.get(`/mdw/v3/key-blocks?scope=transaction:${a}`)).status).to.equal(400);
  });
});
