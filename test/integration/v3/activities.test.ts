import { expect } from 'chai';
import { nameId } from '../../../src/chain/derived-ids.ts';
import type { Json } from '../../../src/chain/json.ts';
import { startV3, type ChainTruth, type ChainTx, type V3UnderTest } from './harness.ts';

type Obj = { [key: string]: Json };
type Raw = { data: Obj[]; next: string | null; prev: string | null };

describe('/v3 transfers and account activities, checked against the devnode chain', function () {
  this.timeout(180_000);
  let v3: V3UnderTest;
  let chain: ChainTruth;
  const walk = async (path: string): Promise<Obj[]> => {
    const items: Obj[] = [];
    let next: string | null = path;
    while (next !== null) {
      const res = await v3.get(next);
      expect(res.status, `${next}: ${res.text}`).to.equal(200);
      const page = res.body as Raw;
      items.push(...page.data);
      next = page.next;
    }
    return items;
  };
  const txOf = (t: ChainTx): Obj => t.signed.tx as Obj;

  before(async () => {
    v3 = await startV3(60, 'v3-names');
    chain = await v3.truth();
  });
  after(async () => {
    await v3?.close();
  });

  it("locks the name fee of every claim, and pays every response's query fee to its oracle", async () => {
    const transfers = await walk('/v3/transfers?direction=forward&limit=7');
    const locks = transfers.filter((t) => t.kind === 'fee_lock_name');
    const claims = chain.transactions.filter((t) => txOf(t).type === 'NameClaimTx');
    expect(locks.map((t) => t.ref_tx_hash)).to.deep.equal(claims.map((t) => t.hash));
    for (const [i, lock] of locks.entries()) {
      expect(lock.account_id).to.equal(txOf(claims[i]!).account_id);
      expect(String(lock.amount)).to.equal(String(txOf(claims[i]!).name_fee));
      expect(lock.ref_tx_type).to.equal('NameClaimTx');
    }
    const rewards = transfers.filter((t) => t.kind === 'reward_oracle');
    const responses = chain.transactions.filter((t) => txOf(t).type === 'OracleRespondTx');
    expect(rewards.map((t) => t.ref_tx_hash)).to.deep.equal(responses.map((t) => t.hash));
    expect((await walk('/v3/transfers?kind=reward&limit=100')).map((t) => t.ref_tx_hash)).to.deep.equal(
      rewards.map((t) => t.ref_tx_hash).reverse(),
    );
    const backward = await walk('/v3/transfers?limit=3');
    expect(backward).to.deep.equal([...transfers].reverse());
  });

  it("lists an account's transactions and transfers newest first, both ways, through the SDK", async () => {
    const claim = chain.transactions.find((t) => txOf(t).type === 'NameClaimTx')!;
    const account = String(txOf(claim).account_id);
    const { rows } = await v3.pool.query<{ tx_hash: string }>(
      'SELECT tx_hash FROM account_transactions WHERE account = $1 ORDER BY height DESC, micro_index DESC, tx_index DESC',
      [account],
    );
    const all = await walk(`/v3/accounts/${account}/activities?limit=4`);
    const txEvents = all.filter((a) => a.type !== 'InternalTransferEvent');
    expect(txEvents.map((a) => (a.payload as Obj).hash)).to.deep.equal(rows.map((r) => r.tx_hash));
    for (const a of txEvents) expect(a.type).to.equal(`${String(((a.payload as Obj).tx as Obj).type)}Event`);
    // the claim's fee lock follows the claim itself
    const claimAt = all.findIndex((a) => (a.payload as Obj).hash === claim.hash);
    expect(all[claimAt - 1]).to.deep.include({ type: 'InternalTransferEvent' });
    expect((all[claimAt - 1]!.payload as Obj).ref_tx_hash).to.equal(claim.hash);
    const forward = await walk(`/v3/accounts/${account}/activities?direction=forward&limit=5`);
    expect(forward).to.deep.equal([...all].reverse());
    const page = (await v3.mdw.getAccountActivities(account as `ak_${string}`, { limit: 1 })) as unknown as {
      data: { height: number }[];
      nextPath: string | null;
      prevPath: string | null;
    };
    expect(page.data).to.have.length(1);
    expect(page.prevPath).to.equal(null);
    expect(page.nextPath).to.match(new RegExp(`^/v3/accounts/${account}/activities\\?cursor=[^&]+&limit=1$`));
    const onlyTransfers = await walk(`/v3/accounts/${account}/activities?type=transfers`);
    expect(onlyTransfers.every((a) => a.type === 'InternalTransferEvent')).to.equal(true);
    expect(nameId(String(txOf(claim).name))).to.match(/^nm_/);
  });

  it('rejects bad activity input with 400', async () => {
    expect((await v3.get('/v3/accounts/ak_x/activities')).body).to.deep.equal({ error: 'invalid id: ak_x' });
    const account = String(txOf(chain.transactions[0]!).sender_id ?? '');
    if (account.startsWith('ak_')) {
      expect((await v3.get(`/v3/accounts/${account}/activities?type=foo`)).status).to.equal(400);
      expect((await v3.get(`/v3/accounts/${account}/activities?cursor=1-2`)).body).to.deep.equal({
        error: 'invalid cursor: 1-2',
      });
    }
  });
});
