import { expect } from 'chai';
import { BytecodeContractCallEncoder } from '@aeternity/aepp-calldata';
import { buildTx, encode, Encoding, hash, Tag } from '@aeternity/aepp-sdk';
import { PARTY_TX_TYPES } from '../../../src/chain/channel-parties.ts';
import { channelId, contractId } from '../../../src/chain/derived-ids.ts';
import { BYTECODE, GA_ACI } from '../../../src/devnode/index.ts';
import { FATE_ABI_VERSION, FATE_VM_VERSION } from '../../../src/devnode/contracts/fate-contract.ts';
import { stringifyJson, type Json } from '../../../src/chain/json.ts';
import { TX_TYPE_NAMES } from '../../../src/api/mdw/resources/tx-query.ts';
import { wrappedAe } from '../../support/aex9-truth.ts';
import { contractsOf } from '../../support/devnode-contracts.ts';
import { startV3, type ChainTruth, type ChainTx, type V3UnderTest } from './harness.ts';

type Obj = { [key: string]: Json };

/** Shapes the explorer and the SDK's Middleware read where ae_mdw 1.107 adds to the node's, against the devnode chain (issue 28). */
describe('/mdw/v3 where ae_mdw adds to the node: counts by type, sorted names, channel parties, creators, GA calls', function () {
  this.timeout(180_000);
  let v3: V3UnderTest;
  let chain: ChainTruth;
  const txOf = (t: ChainTx): Obj => t.signed.tx as Obj;
  const snakeOf = new Map([...TX_TYPE_NAMES].map(([snake, node]) => [node, snake]));

  /** a collection whose name and symbol are lower-case: it sorts apart from the devnode's capitalised ones by case */
  const LOWER_CASE_COLLECTION = ['bee Hive', 'bee', 3n] as const;
  let lowerCaseCollection: string;

  before(async () => {
    // 120 generations, not 300: they hold every kind the cases assert present (pairs the factory created, swaps, both
    // GA transactions, calls wrapped by GAMetaTx and PayingForTx, channel transactions); at 60 no pair is created yet
    v3 = await startV3(120, 'v3-mdw-gaps', (devnode) => ({
      DEX_FACTORY: contractsOf(devnode, 'factory')[0]!,
      DEX_WRAPPED_AE: wrappedAe(devnode.chain),
    }));
    const owner = v3.devnode.accounts[1]!.publicKey as `ak_${string}`;
    const { next_nonce: nonce } = (await v3.nodeGet(`/v2/accounts/${owner}/next-nonce`)) as { next_nonce: number };
    await v3.submit(
      buildTx({
        tag: Tag.ContractCreateTx,
        ownerId: owner,
        nonce,
        code: BYTECODE.aex141 as `cb_${string}`,
        ctVersion: { vmVersion: FATE_VM_VERSION, abiVersion: FATE_ABI_VERSION },
        deposit: 0,
        amount: 0,
        gasLimit: 100_000,
        gasPrice: 1_000_000_000,
        callData: new BytecodeContractCallEncoder(BYTECODE.aex141 as `cb_${string}`).encodeCall('init', [
          ...LOWER_CASE_COLLECTION,
        ]),
        fee: 200_000_000_000_000,
      }),
      1,
    );
    lowerCaseCollection = contractId(owner, BigInt(nonce));
    await v3.devnode.mineKeyBlock();
    await v3.synced();
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
      // and as the node names it (ae_mdw's Validate.tx_type takes `SpendTx`, `spend_tx`, `spend`, `Spend`)
      expect(await count(`type=${type}`), type).to.equal(expected);
      expect(await count(`type=${type.replace(/Tx$/, '')}`), type).to.equal(expected);
    }
    const groups = ['channel', 'contract', 'ga', 'name', 'oracle', 'paying_for', 'spend'];
    const inGroup = (g: string): number =>
      naming.filter((t) => `${snakeOf.get(String(txOf(t).type))!}_`.startsWith(`${g}_`)).length;
    for (const g of groups) expect(await count(`type_group=${g}`), g).to.equal(inGroup(g));
    expect(groups.filter((g) => inGroup(g) > 0).length, 'the account acts in several groups').to.be.above(1);
    // ae_mdw reads type_group before type
    expect(await count('type_group=spend&type=contract_call')).to.equal(inGroup('spend'));
    expect(await count('type=channel_set_delegates')).to.equal(
      naming.filter((t) => txOf(t).type === 'ChannelSetDelegatesTx').length,
    );
    const all = (await count('')) as Obj;
    expect(all.total).to.equal(naming.length);
    // the transactions list reads a type the same way
    const spends = await v3.walk(`/mdw/v3/transactions?account=${sender}&type=spend&limit=100`);
    expect(await v3.walk(`/mdw/v3/transactions?account=${sender}&type=SpendTx&limit=100`)).to.deep.equal(spends);
    for (const query of ['type=nope', 'type_group=nope', 'type=spend&type_group=nope'])
      expect((await v3.get(`/mdw/v3/accounts/${sender}/transactions/count?${query}`)).status, query).to.equal(400);
  });

  it('sorts NFT collections by the lower-cased name or symbol, as ae_mdw keys them, and pages on through that key', async () => {
    const all = await v3.walk('/mdw/v3/aex141?limit=100');
    expect(all.map((c) => c.contract_id)).to.include(lowerCaseCollection);
    for (const by of ['name', 'symbol'] as const) {
      const sortKey = (c: Obj): string => String(c[by]).toLowerCase();
      const expected = all
        .filter((c) => typeof c[by] === 'string')
        .sort((a, b) => (sortKey(a) < sortKey(b) ? -1 : sortKey(a) > sortKey(b) ? 1 : 0))
        .map((c) => c.contract_id);
      // case-sensitively the lower-case collection would come last
      expect(expected.at(-1), by).not.to.equal(lowerCaseCollection);
      for (const limit of [1, 2, 100]) {
        const forward = await v3.walk(`/mdw/v3/aex141?by=${by}&direction=forward&limit=${limit}`);
        expect(
          forward.map((c) => c.contract_id),
          `${by} forward by ${limit}`,
        ).to.deep.equal(expected);
        const backward = await v3.walk(`/mdw/v3/aex141?by=${by}&limit=${limit}`);
        expect(
          backward.map((c) => c.contract_id),
          `${by} backward by ${limit}`,
        ).to.deep.equal([...expected].reverse());
      }
    }
    // an exact name is the name as written
    const exact = await v3.walk(`/mdw/v3/aex141?by=name&exact=${encodeURIComponent(LOWER_CASE_COLLECTION[0])}`);
    expect(exact.map((c) => c.contract_id)).to.deep.equal([lowerCaseCollection]);
    expect(await v3.walk('/mdw/v3/aex141?by=name&exact=BEE%20HIVE')).to.deep.equal([]);
  });

  it("shows a channel's parties on its transactions after the creation that lack them, as ae_mdw does", async () => {
    const partyTypes = [...PARTY_TX_TYPES];
    const creations = new Map(
      chain.transactions
        .filter((t) => txOf(t).type === 'ChannelCreateTx')
        .map((t) => [
          channelId(String(txOf(t).initiator_id), BigInt(String(txOf(t).nonce)), String(txOf(t).responder_id)),
          txOf(t),
        ]),
    );
    const channelTxs = chain.transactions.filter((t) => String(txOf(t).type).startsWith('Channel'));
    const shown = new Set<string>();
    const listed = new Map(
      (await v3.walk('/mdw/v3/transactions?type_group=channel&limit=100')).map((t) => [String(t.hash), t.tx as Obj]),
    );
    for (const t of channelTxs) {
      const tx = txOf(t);
      const one = ((await v3.get(`/mdw/v3/transactions/${t.hash}`)).body as Obj).tx as Obj;
      for (const rendered of [one, listed.get(t.hash)!]) {
        if (partyTypes.includes(String(tx.type))) {
          const create = creations.get(String(tx.channel_id))!;
          expect(rendered.initiator_id, t.hash).to.equal(create.initiator_id);
          expect(rendered.responder_id, t.hash).to.equal(create.responder_id);
          shown.add(String(tx.type));
        } else {
          // the creation has them of its own; deposits and withdrawals are shown as the node shows them
          expect(rendered.initiator_id, t.hash).to.equal(tx.initiator_id);
          expect(rendered.responder_id, t.hash).to.equal(tx.responder_id);
        }
      }
    }
    expect([...shown].sort(), 'the generated chain has these channel transactions').to.deep.equal(
      partyTypes.filter((type) => channelTxs.some((t) => txOf(t).type === type)).sort(),
    );
    expect(shown.size).to.be.above(2);
    // and in the parties' activities
    const settle = channelTxs.find((t) => partyTypes.includes(String(txOf(t).type)))!;
    const { initiator_id: initiator, responder_id: responder } = creations.get(String(txOf(settle).channel_id))!;
    const activities = await v3.walk(`/mdw/v3/accounts/${String(responder)}/activities?limit=100`);
    const activity = activities.find((a) => (a.payload as Obj).hash === settle.hash)!;
    expect(((activity.payload as Obj).tx as Obj).initiator_id).to.equal(initiator);
  });

  it('gives a contract a call created the creating call as its transaction, in its logs and as a contract', async () => {
    const factory = contractsOf(v3.devnode, 'factory')[0]!;
    const pairCreated = BigInt(`0x${Buffer.from(hash('PairCreated')).toString('hex')}`);
    // the factory's PairCreated events (in the router's calls), as the node logged them: the pair (topic 3) and the call
    const creatorOf = new Map<string, string>();
    for (const t of chain.transactions.filter((c) => txOf(c).type === 'ContractCallTx')) {
      const info = (await v3.nodeGet(`/v2/transactions/${t.hash}/info`)) as { call_info?: { log: Obj[] } };
      for (const l of info.call_info?.log ?? []) {
        const topics = l.topics as Json[];
        if (l.address === factory && BigInt(String(topics[0])) === pairCreated) {
          const pair = BigInt(String(topics[3])).toString(16).padStart(64, '0');
          creatorOf.set(encode(Buffer.from(pair, 'hex'), Encoding.ContractAddress), t.hash);
        }
      }
    }
    expect(creatorOf.size, 'the factory created pairs').to.be.above(0);
    let logged = 0;
    for (const [pair, creation] of creatorOf) {
      const contract = (await v3.get(`/mdw/v3/contracts/${pair}`)).body as Obj;
      expect(contract.source_tx_hash, pair).to.equal(creation);
      expect(contract.source_tx_type, pair).to.equal('ContractCallTx');
      for (const log of await v3.walk(`/mdw/v3/contracts/logs?contract_id=${pair}&limit=100`)) {
        expect(log.contract_tx_hash, pair).to.equal(creation);
        logged += 1;
      }
      const token = (await v3.get(`/mdw/v3/aex9/${pair}`)).body as Obj;
      expect(token.contract_tx_hash, pair).to.equal(creation);
    }
    expect(logged, 'the pairs logged events').to.be.above(0);
    // a swap the router makes is logged by the pair: the pair's creation is its contract_tx_hash there too
    const swaps = await v3.walk('/mdw/v3/contracts/logs?event=SwapTokens&limit=100');
    expect(swaps.length).to.be.above(0);
    for (const swap of swaps) expect(swap.contract_tx_hash).to.equal(creatorOf.get(String(swap.contract_id)));
  });

  it("adds a generalized account's own call to GAAttachTx and GAMetaTx, and derives it for a database stored before", async () => {
    const gaTxs = chain.transactions.filter((t) => ['GAAttachTx', 'GAMetaTx'].includes(String(txOf(t).type)));
    const types = new Set(gaTxs.map((t) => txOf(t).type));
    expect([...types].sort(), 'the generated chain attaches and uses GAs').to.deep.equal(['GAAttachTx', 'GAMetaTx']);
    // the node's own record of the call: a GAAttachTx's init call, a GAMetaTx's authentication call
    const expected = new Map<string, { gas_used: Json; return_type: Json }>();
    for (const t of gaTxs) {
      const info = (await v3.nodeGet(`/v2/transactions/${t.hash}/info`)) as Obj;
      const call = (info.ga_info ?? info.call_info) as Obj;
      expect(call, t.hash).to.be.an('object');
      expected.set(t.hash, { gas_used: call.gas_used!, return_type: call.return_type! });
    }
    const shown = async (): Promise<Map<string, { gas_used: Json; return_type: Json }>> => {
      const listed = await v3.walk('/mdw/v3/transactions?type_group=ga&direction=forward&limit=100');
      expect(listed.map((t) => t.hash)).to.deep.equal(gaTxs.map((t) => t.hash));
      const byHash = new Map<string, { gas_used: Json; return_type: Json }>();
      for (const t of listed) {
        const { gas_used, return_type } = t.tx as Obj;
        byHash.set(String(t.hash), { gas_used: gas_used!, return_type: return_type! });
        const one = ((await v3.get(`/mdw/v3/transactions/${String(t.hash)}`)).body as Obj).tx as Obj;
        expect({ gas_used: one.gas_used, return_type: one.return_type }).to.deep.equal(byHash.get(String(t.hash)));
      }
      return byHash;
    };
    expect(await shown()).to.deep.equal(expected);
    // a GAAttachTx's authentication function, named by its hash among the GA contract's functions, and init arguments
    for (const t of gaTxs.filter((g) => txOf(g).type === 'GAAttachTx')) {
      const tx = txOf(t);
      const named = GA_ACI[0].contract.functions
        .map((f) => f.name)
        .find((name) => `0x${Buffer.from(hash(name)).toString('hex')}` === tx.auth_fun);
      expect(named, 'the attach names a function of the GA contract').to.equal('authorize');
      const { args } = new BytecodeContractCallEncoder(tx.code as `cb_${string}`).decodeCall(
        tx.call_data as `cb_${string}`,
      ) as { args: unknown[] };
      const one = ((await v3.get(`/mdw/v3/transactions/${t.hash}`)).body as Obj).tx as Obj;
      expect({ auth_fun_name: one.auth_fun_name, args: one.args }).to.deep.equal({ auth_fun_name: named, args });
    }

    // a database stored before the GA calls were kept (migration 1008 adds the table and records every stored height
    // for the ga area): the populator's backfill asks the node for them, no block is fetched again
    await v3.pool.query('DELETE FROM ga_calls');
    expect([...(await shown()).values()][0]).to.deep.equal({ gas_used: null, return_type: null });
    await v3.pool.query(`INSERT INTO derive_backfill (area, next_height, to_height)
                         SELECT 'ga', min(height), max(height) FROM key_blocks HAVING count(*) > 0`);
    for (let i = 0; i < 200; i++) {
      if ((await v3.pool.query('SELECT 1 FROM derive_backfill')).rows.length === 0) break;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    expect((await v3.pool.query('SELECT 1 FROM derive_backfill')).rows).to.deep.equal([]);
    expect(await shown()).to.deep.equal(expected);
  });

  it("adds to a GAMetaTx's or PayingForTx's inner contract call what ae_mdw adds to a call", async () => {
    const wrapped = chain.transactions.filter(
      (t) =>
        ['GAMetaTx', 'PayingForTx'].includes(String(txOf(t).type)) &&
        ((txOf(t).tx as Obj).tx as Obj).type === 'ContractCallTx',
    );
    expect(new Set(wrapped.map((t) => txOf(t).type)).size, 'both wrappers wrap calls').to.equal(2);
    for (const t of wrapped) {
      const call = (txOf(t).tx as Obj).tx as Obj;
      const info = (await v3.nodeGet(`/v2/transactions/${t.hash}/info`)) as Obj;
      const callInfo = (info.call_info ?? ((info.ga_info as Obj).inner_object as Obj).call_info) as Obj;
      const { bytecode } = (await v3.nodeGet(`/v2/contracts/${String(call.contract_id)}/code`)) as { bytecode: string };
      const { functionName } = new BytecodeContractCallEncoder(bytecode as `cb_${string}`).decodeCall(
        call.call_data as `cb_${string}`,
      ) as { functionName: string };
      const inner = ((((await v3.get(`/mdw/v3/transactions/${t.hash}`)).body as Obj).tx as Obj).tx as Obj).tx as Obj;
      expect(
        { function: inner.function, gas_used: inner.gas_used, return_type: inner.return_type, log: inner.log },
        t.hash,
      ).to.deep.equal({
        function: functionName,
        gas_used: callInfo.gas_used,
        return_type: callInfo.return_type,
        log: callInfo.log,
      });
      // the node's own fields stay as they are
      for (const [field, value] of Object.entries(call)) expect(inner[field], field).to.deep.equal(value);
    }
  });
});
