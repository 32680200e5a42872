import { expect } from 'chai';
import { buildTx, commitmentHash, MemoryAccount, Tag, type AensName } from '@aeternity/aepp-sdk';
import { nameId } from '../../../src/chain/derived-ids.ts';
import type { Json } from '../../../src/chain/json.ts';
import { startV3, type ChainTx, type V3UnderTest } from './harness.ts';

type Obj = { [key: string]: Json };

const NAME_TXS = new Set(['NameClaimTx', 'NameUpdateTx', 'NameTransferTx', 'NameRevokeTx']);

/**
 * /v3/names/{id}/history as ae_mdw 1.107 answers it (aescan's name page reads it): a name's claims, updates, transfers
 * and revokes, wrapped ones included, and each registration that expired, checked against the devnode chain.
 */
describe('/mdw/v3/names/{id}/history, checked against the devnode chain', function () {
  this.timeout(180_000);
  let v3: V3UnderTest;

  before(async () => {
    v3 = await startV3(60, 'v3-names', () => ({}), { populatedOnce: true });
  });
  after(async () => {
    await v3?.close();
  });

  /** the name transaction a chain transaction carries (itself, or the one a GAMetaTx or PayingForTx wraps) */
  const nameTxOf = (t: ChainTx): Obj | undefined => {
    for (let tx: Obj | undefined = t.signed.tx as Obj; tx; tx = ((tx.tx as Obj | undefined)?.tx as Obj) ?? undefined)
      if (NAME_TXS.has(String(tx.type))) return tx;
    return undefined;
  };

  it("lists each name's transactions in chain order, pages both ways alike", async () => {
    const chain = await v3.truth();
    const named = chain.transactions.flatMap((t) => {
      const tx = nameTxOf(t);
      return tx ? [{ t, tx }] : [];
    });
    const names = [...new Set(named.flatMap(({ tx }) => (tx.type === 'NameClaimTx' ? [String(tx.name)] : [])))];
    expect(names.length, 'the generated chain claims names').to.be.above(2);
    for (const name of names) {
      const id = nameId(name);
      const own = named.filter(({ tx }) => tx.name === name || tx.name_id === id);
      const forward = await v3.walk(`/mdw/v3/names/${name}/history?direction=forward&limit=2`);
      expect(
        forward.map((x) => x.source_tx_hash),
        name,
      ).to.deep.equal(own.map(({ t }) => t.hash));
      expect(forward.map((x) => (x.tx as Obj).name_id ?? nameId(String((x.tx as Obj).name)))).to.satisfy(
        (ids: Json[]) => ids.every((x) => x === id),
      );
      const backward = await v3.walk(`/mdw/v3/names/${id}/history?limit=3`);
      expect(backward).to.deep.equal([...forward].reverse());
    }
    expect((await v3.get('/mdw/v3/names/never-claimed-here.chain/history')).status).to.equal(404);
    expect((await v3.get(`/mdw/v3/names/${names[0]}/history?cursor=1-x`)).status).to.equal(400);
  });

  it('lists a registration that expired as {active_from, expired_at}, after its transactions', async () => {
    const account = v3.devnode.accounts[0]!.publicKey as `ak_${string}`;
    const name = 'history-expires-soon.chain' as AensName;
    const salt = 4242;
    const nonce = async (): Promise<number> =>
      Number(((await v3.nodeGet(`/v3/accounts/${account}/next-nonce`)) as Obj).next_nonce);
    const mine = async (): Promise<void> => {
      await v3.devnode.mineMicroBlock();
      await v3.devnode.mineKeyBlock();
    };
    await v3.submit(
      buildTx({
        tag: Tag.NamePreclaimTx,
        accountId: account,
        nonce: await nonce(),
        commitmentId: commitmentHash(name, salt),
      }),
    );
    await mine();
    const claim = await v3.submit(
      buildTx({ tag: Tag.NameClaimTx, accountId: account, nonce: await nonce(), name, nameSalt: salt }),
    );
    await mine();
    const update = await v3.submit(
      buildTx({
        tag: Tag.NameUpdateTx,
        accountId: account,
        nonce: await nonce(),
        nameId: nameId(name) as `nm_${string}`,
        nameTtl: 2,
        pointers: [],
        clientTtl: 60,
      }),
    );
    await v3.devnode.mineMicroBlock();
    const updatedAt = v3.devnode.height();
    for (let i = 0; i < 4; i++) await v3.devnode.mineKeyBlock();
    await v3.synced();
    const history = await v3.walk(`/mdw/v3/names/${name}/history?direction=forward`);
    expect(history.slice(0, 2).map((x) => x.source_tx_hash)).to.deep.equal([claim, update]);
    const claimedAt = Number(history[0]!.height);
    // the name is active through its expiry height (updatedAt + 2) and inactive from the next one
    expect(history.slice(2)).to.deep.equal([{ active_from: claimedAt, expired_at: updatedAt + 3 }]);
    expect((await v3.get(`/mdw/v3/names/${name}`)).body).to.include({ active: false });
    const back = await v3.walk(`/mdw/v3/names/${name}/history?limit=1`);
    expect(back).to.deep.equal([...history].reverse());
  });

  it("lists a claim a PayingForTx wraps once, in the name's history and its activities", async () => {
    const payer = v3.devnode.accounts[0]!.publicKey as `ak_${string}`;
    const claimer = v3.devnode.accounts[1]!;
    const account = claimer.publicKey as `ak_${string}`;
    const name = 'history-paid-for-claim.chain' as AensName;
    const salt = 777;
    const nonceOf = async (id: string): Promise<number> =>
      Number(((await v3.nodeGet(`/v3/accounts/${id}/next-nonce`)) as Obj).next_nonce);
    await v3.submit(
      buildTx({
        tag: Tag.NamePreclaimTx,
        accountId: account,
        nonce: await nonceOf(account),
        commitmentId: commitmentHash(name, salt),
      }),
      1,
    );
    await v3.devnode.mineMicroBlock();
    await v3.devnode.mineKeyBlock();
    const inner = await new MemoryAccount(claimer.secretKey as `sk_${string}`).signTransaction(
      buildTx({ tag: Tag.NameClaimTx, accountId: account, nonce: await nonceOf(account), name, nameSalt: salt }),
      { networkId: 'ae_devnet', innerTx: true },
    );
    const wrapped = await v3.submit(
      buildTx({ tag: Tag.PayingForTx, payerId: payer, nonce: await nonceOf(payer), tx: inner }),
      0,
    );
    await v3.devnode.mineMicroBlock();
    await v3.devnode.mineKeyBlock();
    await v3.synced();
    const history = await v3.walk(`/mdw/v3/names/${name}/history`);
    expect(history.map((x) => [x.source_tx_hash, x.source_tx_type])).to.deep.equal([[wrapped, 'PayingForTx']]);
    const activities = await v3.walk(`/mdw/v3/accounts/${nameId(name)}/activities?limit=3`);
    const hashOf = (a: Obj): Json | undefined => (a.payload as Obj).hash ?? (a.payload as Obj).source_tx_hash;
    expect(activities.filter((a) => hashOf(a) === wrapped).map((a) => a.type)).to.deep.equal(['NameClaimEvent']);
  });
});
