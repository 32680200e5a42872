import { expect } from 'chai';
import { stringifyJson, type Json } from '../../../src/chain/json.ts';
import { TX_TYPE_NAMES } from '../../../src/api/routes/v3/tx-query.ts';
import { startV3, type ChainTruth, type ChainTx, type V3UnderTest } from './harness.ts';

type Obj = { [key: string]: Json };

/** Shapes the explorer and the SDK's Middleware read where ae_mdw 1.107 adds to the node's, against the devnode chain (issue 28). */
describe('/mdw/v3 where ae_mdw adds to the node: counts by type, sorted names, channel parties, creators, GA calls', function () {
  this.timeout(180_000);
  let v3: V3UnderTest;
  let chain: ChainTruth;
  const txOf = (t: ChainTx): Obj => t.signed.tx as Obj;
  const snakeOf = new Map([...TX_TYPE_NAMES].map(([snake, node]) => [node, snake]));

  before(async () => {
    v3 = await startV3(60, 'v3-mdw-gaps');
    chain = await v3.truth();
  });
  after(async () => {
    await v3?.close();
  });

  it("counts an id's transactions of one type or type group, as a bare number", async () => {
    // an account no name points to (a spend to such a name is the pointee's too, as ae_mdw resolves it)
    const pointees = stringifyJson(chain.transactions.map(txOf).filter((tx) => tx.type === 'NameUpdateTx'));
    const namingOf = (id: string): ChainTx[] => chain.transactions.filter((t) => stringifyJson(txOf(t)).includes(id));
    const senders = [...new Set(chain.transactions.map(txOf).flatMap((tx) => tx.sender_id ?? []))].map(String);
    const sender = senders
      .filter((id) => !pointees.includes(id))
      .sort((a, b) => namingOf(b).length - namingOf(a).length)[0]!;
    // the chain's own transactions naming the account anywhere (inner transactions included), by outer type
    const naming = namingOf(sender);
    const types = [...new Set(naming.map((t) => String(txOf(t).type)))];
    expect(types.length, 'the account sends more than one type').to.be.above(1);
    const count = async (query: string): Promise<Json> => {
      const res = await v3.get(`/mdw/v3/accounts/${sender}/transactions/count?${query}`);
      expect(res.status, `${query}: ${res.text}`).to.equal(200);
      return res.body;
    };
    for (const type of types) {
      const expected = naming.filter((t) => txOf(t).type === type).length;
      expect(await count(`type=${snakeOf.get(type)!}`), type).to.equal(expected);
      expect(await count(`type=${snakeOf.get(type)!}_tx`), type).to.equal(expected);
    }
    const groups = ['channel', 'contract', 'ga', 'name', 'oracle', 'paying_for', 'spend'];
    const inGroup = (g: string): number =>
      naming.filter((t) => `${snakeOf.get(String(txOf(t).type))!}_`.startsWith(`${g}_`)).length;
    for (const g of groups) expect(await count(`type_group=${g}`), g).to.equal(inGroup(g));
    expect(groups.filter((g) => inGroup(g) > 0).length, 'the account acts in several groups').to.be.above(1);
    // ae_mdw reads type_group before type
    expect(await count('type_group=spend&type=contract_call')).to.equal(inGroup('spend'));
    expect(await count('type=channel_set_delegates')).to.equal(0);
    const all = (await count('')) as Obj;
    expect(all.total).to.equal(naming.length);
    for (const query of ['type=nope', 'type_group=nope', 'type=spend&type_group=nope'])
      expect((await v3.get(`/mdw/v3/accounts/${sender}/transactions/count?${query}`)).status, query).to.equal(400);
  });
});
