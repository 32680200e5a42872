import { expect } from 'chai';
import { encode as sdkEncode, Encoding, Tag, unpackTx } from '@aeternity/aepp-sdk';
import { channelId, contractId, nameId } from '../../../src/chain/derived-ids.ts';
import { toBigInt, type Json } from '../../../src/chain/json.ts';
import { startV3, type ChainTruth, type ChainTx, type V3UnderTest } from './harness.ts';

type Obj = { [key: string]: Json };

/** The answers the explorer (aescan) reads, as it reads them, checked against the devnode chain (issue 28). */
describe('/mdw/v3 as the explorer reads it, checked against the devnode chain', function () {
  this.timeout(180_000);
  let v3: V3UnderTest;
  let chain: ChainTruth;
  const walk = (path: string): Promise<Obj[]> => v3.walk(path);
  const txOf = (t: ChainTx): Obj => t.signed.tx as Obj;
  const ofType = (type: string): ChainTx[] => chain.transactions.filter((t) => txOf(t).type === type);
  /** the explorer decodes a query or a response from base64 (aescan's formatDecodeBase64) */
  const fromBase64 = (text: Json | undefined): string => Buffer.from(String(text), 'base64').toString('utf8');

  before(async () => {
    v3 = await startV3(60, 'v3-names', () => ({}), { populatedOnce: true });
    chain = await v3.truth();
  });
  after(async () => {
    await v3?.close();
  });

  it('sends oracle queries and responses as base64, and each with its other half', async () => {
    const queries = ofType('OracleQueryTx').filter((t) => String(txOf(t).oracle_id).startsWith('ok_'));
    const responses = ofType('OracleRespondTx');
    expect(queries.length, 'the generated chain asks oracles').to.be.above(0);
    expect(responses.length, 'the generated chain answers queries').to.be.above(0);
    for (const t of [...queries, ...responses]) {
      const field = txOf(t).type === 'OracleQueryTx' ? 'query' : 'response';
      const one = (await v3.get(`/mdw/v3/transactions/${t.hash}`)).body as Obj;
      expect(fromBase64((one.tx as Obj)[field]), t.hash).to.equal(txOf(t)[field]);
      const listed = await walk(
        `/mdw/v3/transactions?type=${txOf(t).type === 'OracleQueryTx' ? 'oracle_query' : 'oracle_response'}&limit=100`,
      );
      const item = listed.find((x) => x.hash === t.hash)!;
      expect(fromBase64((item.tx as Obj)[field])).to.equal(txOf(t)[field]);
    }
    const queryText = new Map(queries.map((t) => [t.hash, String(txOf(t).query)]));
    const responseOf = new Map(responses.map((t) => [String(txOf(t).query_id), String(txOf(t).response)]));
    const oracles = [...new Set(queries.map((t) => String(txOf(t).oracle_id)))];
    let answered = 0;
    for (const id of oracles) {
      for (const q of await walk(`/mdw/v3/oracles/${id}/queries?limit=2`)) {
        expect(fromBase64(q.query)).to.equal(queryText.get(String(q.source_tx_hash)));
        const response = q.response as Obj | null;
        if (responseOf.has(String(q.query_id))) {
          answered += 1;
          expect(fromBase64(response!.response)).to.equal(responseOf.get(String(q.query_id)));
          expect(response!.query_id).to.equal(q.query_id);
        } else expect(response).to.equal(null);
      }
      for (const r of await walk(`/mdw/v3/oracles/${id}/responses?limit=2`)) {
        expect(fromBase64(r.response)).to.equal(responseOf.get(String(r.query_id)));
        const query = r.query as Obj;
        expect(query.query_id).to.equal(r.query_id);
        expect(fromBase64(query.query)).to.equal(queryText.get(String(query.source_tx_hash)));
      }
    }
    expect(answered).to.equal(responses.length);
  });

  it("lists each of a name's claims once among its activities (NameClaimEvent, no NameClaimTxEvent)", async () => {
    const claimOf = (t: ChainTx): Obj | undefined => {
      for (let tx: Obj | undefined = txOf(t); tx; tx = ((tx.tx as Obj | undefined)?.tx as Obj | undefined) ?? undefined)
        if (tx.type === 'NameClaimTx') return tx;
      return undefined;
    };
    const names = [...new Set(chain.transactions.flatMap((t) => [claimOf(t)?.name ?? []].flat()))];
    expect(names.length, 'the generated chain claims names').to.be.above(0);
    for (const name of names) {
      const id = nameId(String(name));
      const claims = chain.transactions.filter((t) => claimOf(t)?.name === name).map((t) => t.hash);
      const items = await walk(`/mdw/v3/accounts/${id}/activities?limit=5`);
      const hashOf = (a: Obj): Json | undefined => (a.payload as Obj).hash ?? (a.payload as Obj).source_tx_hash;
      const shown = items.filter((a) => claims.includes(String(hashOf(a))));
      expect(
        shown.map((a) => a.type),
        name as string,
      ).to.deep.equal(claims.map(() => 'NameClaimEvent'));
      expect(shown.map(hashOf)).to.deep.equal([...claims].reverse());
    }
  });

  it('lists open and closed channels when no state is given', async () => {
    const active = await walk('/mdw/v3/channels?state=active&limit=2');
    const inactive = await walk('/mdw/v3/channels?state=inactive&limit=2');
    expect(active.length, 'the generated chain keeps channels open').to.be.above(0);
    expect(inactive.length, 'and closes some').to.be.above(0);
    const all = await walk('/mdw/v3/channels?limit=2');
    expect(all.map((c) => c.channel).sort()).to.deep.equal([...active, ...inactive].map((c) => c.channel).sort());
    // newest update first, as ae_mdw orders them
    const updated = all.map((c) => Number(c.last_updated_height));
    expect(updated).to.deep.equal([...updated].sort((a, b) => b - a));
  });

  it('counts the transactions of a micro block (mb_hash) as {data: n}', async () => {
    const blocks = [...chain.microBlocks.values()].flat();
    expect(blocks.length).to.be.above(0);
    for (const block of blocks.slice(-5)) {
      const hash = String(block.hash);
      const own = chain.transactions.filter((t) => t.blockHash === hash);
      expect((await v3.get(`/mdw/v3/transactions/count?mb_hash=${hash}`)).body, hash).to.deep.equal({
        data: own.length,
      });
      const spends = own.filter((t) => txOf(t).type === 'SpendTx').length;
      expect((await v3.get(`/mdw/v3/transactions/count?mb_hash=${hash}&type=spend`)).body).to.deep.equal({
        data: spends,
      });
    }
    const some = String(blocks[0]!.hash);
    expect((await v3.get(`/mdw/v3/transactions/count?mb_hash=${some}&scope=gen:1-2`)).status).to.equal(400);
    expect((await v3.get('/mdw/v3/transactions/count?mb_hash=mh_nope')).status).to.equal(400);
  });

  it("lists a channel's transactions as its updates, the creation first going forward", async () => {
    const creates = chain.transactions.filter((t) => txOf(t).type === 'ChannelCreateTx');
    expect(creates.length, 'the generated chain opens channels').to.be.above(0);
    for (const create of creates) {
      const tx = txOf(create);
      const id = channelId(String(tx.initiator_id), toBigInt(tx.nonce), String(tx.responder_id));
      const own = chain.transactions.filter((t) => t === create || txOf(t).channel_id === id);
      // the explorer reads the creation as the first update forward
      const first = (await v3.get(`/mdw/v3/channels/${id}/updates?limit=1&direction=forward`)).body as {
        data: Obj[];
      };
      expect(first.data.map((u) => u.source_tx_hash)).to.deep.equal([create.hash]);
      const updates = await walk(`/mdw/v3/channels/${id}/updates?limit=2`);
      expect(updates.map((u) => u.source_tx_hash)).to.deep.equal(own.map((t) => t.hash).reverse());
      for (const [i, u] of [...updates].reverse().entries()) {
        const { type, version: _version, ...rest } = txOf(own[i]!);
        expect(u).to.deep.include({ channel: id, tx_type: type, source_tx_type: type, block_hash: own[i]!.blockHash });
        expect(u.tx).to.deep.equal(rest);
      }
    }
    const never = channelId(String(txOf(creates[0]!).initiator_id), 999_999n, String(txOf(creates[0]!).responder_id));
    expect((await v3.get(`/mdw/v3/channels/${never}/updates`)).status).to.equal(404);
  });

  it('decodes AEX-9 and AEX-141 event arguments with aexn-args=true, as the explorer reads them', async () => {
    const plain = await walk('/mdw/v3/contracts/logs?direction=forward&limit=50');
    const decoded = await walk('/mdw/v3/contracts/logs?direction=forward&limit=50&aexn-args=true');
    expect(decoded.map((l) => l.call_tx_hash)).to.deep.equal(plain.map((l) => l.call_tx_hash));
    // a topic as the SDK encodes an id from its 32 bytes
    const id = (topic: Json, encoding: Encoding): string =>
      sdkEncode(Buffer.from(BigInt(String(topic)).toString(16).padStart(64, '0'), 'hex'), encoding);
    const shapes: Record<string, string> = { Transfer: 'aai', Allowance: 'aai', Mint: 'ai', Burn: 'ai', Swap: 'ai' };
    let checked = 0;
    for (const [i, log] of decoded.entries()) {
      const topics = plain[i]!.args as Json[];
      const shape = shapes[String(log.event_name)];
      if (shape === undefined || shape.length !== topics.length) {
        expect(log.args, String(log.event_name)).to.deep.equal(topics);
        continue;
      }
      checked += 1;
      // amounts as JSON integers (exact), ids as the SDK encodes them
      const args = log.args as Json[];
      const amounts = args.filter((_, k) => shape[k] === 'i');
      expect(amounts.every((a) => typeof a === 'number' || typeof a === 'bigint')).to.equal(true);
      expect(args.map(String)).to.deep.equal(
        topics.map((t, k) => (shape[k] === 'a' ? id(t, Encoding.AccountAddress) : String(t))),
      );
    }
    expect(checked, 'the generated chain emits token events').to.be.above(0);
    expect((await v3.get('/mdw/v3/contracts/logs?aexn-args=yes')).status).to.equal(400);
  });

  it("counts the last 24 hours' key blocks per beneficiary (stats/miners/top-24h)", async () => {
    // the generated chain's times are long past: key blocks mined now fall in the last 24 hours
    for (let i = 0; i < 3; i++) await v3.devnode.mineKeyBlock();
    await v3.synced();
    const { keyBlocks } = await v3.truth();
    const res = await v3.get('/mdw/v3/stats/miners/top-24h');
    const since = Date.now() - 24 * 60 * 60 * 1000;
    const counts = new Map<string, number>();
    for (const k of keyBlocks.filter((b) => Number(b.time) >= since))
      counts.set(String(k.beneficiary), (counts.get(String(k.beneficiary)) ?? 0) + 1);
    expect(counts.size, 'the devnode mined in the last 24 hours').to.be.above(0);
    // the explorer charts `miner` against `blocks_mined`
    const listed = res.body as Obj[];
    expect(new Map(listed.map((m) => [String(m.miner), m.blocks_mined]))).to.deep.equal(counts);
    const mined = listed.map((m) => Number(m.blocks_mined));
    expect(mined).to.deep.equal([...mined].sort((a, b) => b - a));
  });

  it("lists contracts by creation, and a contract's logs and calls by its id in the path", async () => {
    const creations = chain.transactions.filter((t) =>
      ['ContractCreateTx', 'GAAttachTx'].includes(String(txOf(t).type)),
    );
    expect(creations.length, 'the generated chain creates contracts').to.be.above(0);
    const listed = await walk('/mdw/v3/contracts?limit=3');
    expect(listed.map((c) => c.source_tx_hash)).to.deep.equal(creations.map((t) => t.hash).reverse());
    for (const c of listed) {
      const t = creations.find((x) => x.hash === c.source_tx_hash)!;
      expect(c.contract).to.equal(contractId(String(txOf(t).owner_id), toBigInt(txOf(t).nonce)));
      expect(c).to.deep.include({ block_hash: t.blockHash, source_tx_type: txOf(t).type });
      expect(c).to.deep.equal((await v3.get(`/mdw/v3/contracts/${String(c.contract)}`)).body);
    }
    const logs = await walk('/mdw/v3/contracts/logs?limit=100');
    const calls = await walk('/mdw/v3/contracts/call-transactions?limit=100');
    let ownLogs = 0;
    for (const c of listed) {
      const id = String(c.contract);
      const byPath = await walk(`/mdw/v3/contracts/${id}/logs?limit=2`);
      expect(byPath).to.deep.equal(await walk(`/mdw/v3/contracts/logs?contract_id=${id}&limit=2`));
      ownLogs += byPath.length;
      expect(
        (await walk(`/mdw/v3/contracts/${id}/call-transactions?limit=2`)).map((x) => x.call_tx_hash),
      ).to.deep.equal(calls.filter((x) => x.contract_id === id).map((x) => x.call_tx_hash));
    }
    expect(ownLogs).to.equal(logs.filter((l) => listed.some((c) => c.contract === l.contract_id)).length);
    expect(ownLogs, 'the contracts log events').to.be.above(0);
    expect((await v3.get('/mdw/v3/contracts/ak_x/calls')).status).to.equal(400);
  });

  it('answers 404 for a name only in auction, as ae_mdw does, and serves it as an auction', async () => {
    // the explorer's name page reads /names/{name}, and only when that fails /names/auctions/{name}: a name object
    // for an auction showed the auction as an inactive name
    const auctions = await walk('/mdw/v3/names/auctions?limit=100');
    const fresh = auctions.filter(
      (a) => !ofType('NameRevokeTx').some((t) => txOf(t).name_id === nameId(String(a.name))),
    );
    expect(fresh.length, 'the generated chain has names in auction').to.be.above(0);
    for (const auction of fresh) {
      const name = String(auction.name);
      // the node does not know it as a name either (an unregistered name is answered with a reason, no id)
      expect(await v3.nodeGet(`/v3/names/${name}`), name)
        .to.have.property('reason')
        .and.not.have.property('id');
      const res = await v3.get(`/mdw/v3/names/${name}`);
      expect(res.status, name).to.equal(404);
      expect(res.body).to.deep.equal({ error: `not found: ${name}` });
      expect((await v3.get(`/mdw/v3/names/${nameId(name)}`)).status).to.equal(404);
      expect(((await v3.get(`/mdw/v3/names/auctions/${name}`)).body as Obj).name).to.equal(name);
    }
  });

  it("matches an NFT collection's name prefix whatever its case, as ae_mdw does (the explorer's search)", async () => {
    const collections = await walk('/mdw/v3/aex141?limit=100');
    const named = collections.filter((c) => typeof c.name === 'string' && c.name.length >= 3);
    expect(named.length, 'the generated chain has named collections').to.be.above(0);
    for (const collection of named) {
      const name = String(collection.name);
      for (const prefix of [name.slice(0, 3).toLowerCase(), name.slice(0, 3).toUpperCase(), name]) {
        const found = await walk(`/mdw/v3/aex141?prefix=${encodeURIComponent(prefix)}&direction=forward&limit=100`);
        expect(
          found.map((f) => f.contract_id),
          prefix,
        ).to.include(collection.contract_id);
        for (const f of found)
          expect(String(f.name).toLowerCase().startsWith(prefix.toLowerCase()), prefix).to.equal(true);
      }
    }
  });

  it("adds the off-chain round a solo close, slash or snapshot's payload carries, as ae_mdw does", async () => {
    const solo = ['ChannelCloseSoloTx', 'ChannelSlashTx', 'ChannelSnapshotSoloTx'].flatMap(ofType);
    expect(solo.length, 'the generated chain has solo channel transactions').to.be.above(0);
    /** the SDK's reading of the payload: the round of the signed off-chain state, none for an empty payload */
    const roundOf = (payload: string): number | undefined => {
      if (payload === 'tx_' || Buffer.from(payload.slice(3), 'base64').length <= 4) return undefined;
      // the SDK unpacks a signed tx's inner transaction as an object of its own
      const { encodedTx } = unpackTx(payload as `tx_${string}`, Tag.SignedTx) as unknown as {
        encodedTx: { tag: Tag; round: number | string };
      };
      expect(encodedTx.tag).to.equal(Tag.ChannelOffChainTx);
      return Number(encodedTx.round);
    };
    let rounds = 0;
    for (const t of solo) {
      const expected = roundOf(String(txOf(t).payload));
      const tx = ((await v3.get(`/mdw/v3/transactions/${t.hash}`)).body as Obj).tx as Obj;
      if (expected === undefined) expect(tx, t.hash).not.to.have.property('round');
      else {
        expect(tx.round, t.hash).to.equal(expected);
        rounds += 1;
      }
    }
    expect(rounds, 'some payloads carry a state').to.be.above(0);
    const listed = await walk('/mdw/v3/transactions?type=channel_close_solo&limit=100');
    for (const item of listed) {
      const expected = roundOf(String((item.tx as Obj).payload));
      if (expected !== undefined) expect((item.tx as Obj).round, String(item.hash)).to.equal(expected);
    }
  });

  it("answers /stats with milliseconds_per_block, as the explorer's mining page reads it", async () => {
    const { keyBlocks } = await v3.truth();
    const top = keyBlocks.at(-1)!;
    const stats = (await v3.get('/mdw/v3/stats')).body as Obj;
    expect(stats.milliseconds_per_block).to.equal(
      Math.floor((Number(top.time) - Number(keyBlocks[1]!.time)) / Number(top.height)),
    );
  });
});
