/** @module The pure transform: node objects of one generation → rows, derived ids checked with aepp-sdk. */
import { expect } from 'chai';
import { randomBytes } from 'node:crypto';
import { buildContractId, oracleQueryId, produceNameId } from '@aeternity/aepp-sdk';
import { encode } from '../../../src/chain/encoding.ts';
import { parseJson, type Json } from '../../../src/chain/json.ts';
import { transformGeneration } from '../../../src/indexer/rows/transform.ts';
import type { FetchedGeneration, JsonObject } from '../../../src/indexer/rows/rows.ts';
import { renderStoredTx } from '../../../src/chain/stored-tx.ts';

const id = (p: 'ak' | 'kh' | 'mh' | 'th' | 'sg' | 'bs' | 'bx'): string => encode(p, randomBytes(p === 'sg' ? 64 : 32));
const alice = id('ak') as `ak_${string}`;
const bob = id('ak') as `ak_${string}`;

function signed(tx: JsonObject, extra: JsonObject = {}): JsonObject {
  return { tx, hash: id('th'), signatures: [id('sg')], block_height: 10, block_hash: 'mh_x', ...extra };
}

/** gaMeta is alice's generalized account's GAMetaTx wrapping `inner`, signed. */
function gaMeta(inner: JsonObject): JsonObject {
  const tx = { type: 'GAMetaTx', ga_id: alice, auth_data: 'cb_Xfbg4g==', abi_version: 3, fee: 7, gas: 1, gas_price: 1 };
  return signed({ ...tx, tx: { tx: inner, signatures: [] } });
}

function generation(txs: JsonObject[], version = 5): FetchedGeneration {
  const kh = id('kh');
  return {
    height: 10,
    keyBlock: parseJson(
      `{"hash":"${kh}","height":10,"prev_hash":"${id('kh')}","prev_key_hash":"${id('kh')}","state_hash":"${id('bs')}","miner":"${alice}","beneficiary":"${bob}","target":1,"pow":[1,2],"nonce":15041902164601590529,"time":1700000000000,"version":${version},"info":"cb_Xfbg4g=="}`,
    ) as JsonObject,
    microBlocks: [
      {
        header: { hash: id('mh'), height: 10, time: 1700000001000, prev_hash: kh, prev_key_hash: kh },
        transactions: txs.slice(0, 2),
      },
      {
        header: { hash: id('mh'), height: 10, time: 1700000002000, prev_hash: kh, prev_key_hash: kh },
        transactions: txs.slice(2),
      },
    ],
    callInfos: new Map(),
    decodedCalls: new Map(),
  };
}

describe('transformGeneration(gen)', () => {
  it('builds key block, micro block and transaction rows with positions and exact numbers', () => {
    const fee = parseJson('123456789012345678901234567890') as bigint;
    const spend = signed({
      type: 'SpendTx',
      version: 1,
      sender_id: alice,
      recipient_id: bob,
      amount: fee,
      fee: 20000,
      nonce: 1,
      payload: 'raw text payload',
    });
    const rows = transformGeneration(generation([spend]));
    expect(rows.keyBlock).to.include({ height: 10, miner: alice, beneficiary: bob, timeMs: 1700000000000n });
    expect(rows.keyBlock.data.nonce).to.equal(15041902164601590529n);
    expect(rows.microBlocks.map((m) => [m.microIndex, m.txCount])).to.deep.equal([
      [0, 1],
      [1, 0],
    ]);
    expect(rows.transactions).to.have.length(1);
    expect(rows.transactions[0]).to.include({
      txType: 'SpendTx',
      fee: '20000',
      microIndex: 0,
      txIndex: 0,
      microTimeMs: 1700000001000n,
    });
    expect(rows.transactions[0]!.tx.payload).to.equal('raw text payload');
    expect(rows.transactions[0]!.tx.amount).to.equal(fee);
    expect(rows.accountTxs.map((a) => [a.account, a.fields])).to.deep.equal([
      [alice, ['sender_id']],
      [bob, ['recipient_id']],
    ]);
  });

  it('derives contracts and calls, keeping hex-era versions as sent and recording undecoded calls', () => {
    const create = signed({
      type: 'ContractCreateTx',
      owner_id: alice,
      nonce: 3,
      code: 'cb_Xfbg4g==',
      vm_version: '0x0004',
      abi_version: '0x0001',
      fee: 1,
      call_data: 'cb_Xfbg4g==',
    });
    const ct = buildContractId(alice, 3);
    const call = signed({
      type: 'ContractCallTx',
      caller_id: bob,
      contract_id: ct,
      nonce: 9,
      abi_version: 3,
      fee: 1,
      call_data: 'cb_Xfbg4g==',
    });
    const gen = generation([create, call]);
    const decoded = new Map([
      [String(call.hash), { function: 'set', arguments: [42n], result: 42n, decodeError: null }],
    ]);
    const rows = transformGeneration({
      ...gen,
      decodedCalls: decoded,
      callInfos: new Map([[String(call.hash), { return_type: 'ok' }]]),
    });
    expect(rows.contracts).to.deep.equal([
      {
        contractId: ct,
        height: 10,
        createTxHash: create.hash,
        ownerId: alice,
        vmVersion: '0x0004',
        abiVersion: '0x0001',
      },
    ]);
    expect(rows.contractCalls.map((c) => [c.contractId, c.callerId, c.function, c.decodeError])).to.deep.equal([
      [ct, alice, null, 'not decoded'],
      [ct, bob, 'set', null],
    ]);
    expect(rows.contractCalls[1]!.callInfo).to.deep.equal({ return_type: 'ok' });
  });

  it('derives oracle, query, response, channel and name rows', () => {
    const register = signed({
      type: 'OracleRegisterTx',
      account_id: alice,
      nonce: 1,
      query_format: 'q',
      response_format: 'r',
      query_fee: 5,
      oracle_ttl: { type: 'delta', value: 100 },
      fee: 1,
      abi_version: 0,
    });
    const ok = `ok_${alice.slice(3)}` as `ok_${string}`;
    const query = signed({
      type: 'OracleQueryTx',
      sender_id: bob,
      nonce: 4,
      oracle_id: ok,
      query: 'hi',
      query_fee: 5,
      query_ttl: { type: 'block', value: 50 },
      response_ttl: { type: 'delta', value: 10 },
      fee: 1,
    });
    const qid = oracleQueryId(bob, 4, ok);
    const respond = signed({
      type: 'OracleRespondTx',
      oracle_id: ok,
      nonce: 2,
      query_id: qid,
      response: 'yes',
      response_ttl: { type: 'delta', value: 10 },
      fee: 1,
    });
    const claim = signed({
      type: 'NameClaimTx',
      account_id: alice,
      nonce: 3,
      name: 'Hello.chain',
      name_salt: 7,
      name_fee: 10n ** 20n,
      fee: 1,
    });
    const channel = signed({ type: 'ChannelCreateTx', initiator_id: alice, responder_id: bob, nonce: 5, fee: 1 });
    const close = signed({ type: 'ChannelCloseMutualTx', channel_id: 'ch_x', from_id: alice, nonce: 6, fee: 1 });
    const rows = transformGeneration(generation([register, query, respond, claim, channel, close]));
    expect(rows.oracleActions).to.have.length(1);
    expect(rows.oracleActions[0]).to.include({ oracleId: ok, kind: 'register', queryFee: '5', abiVersion: '0' });
    expect(rows.oracleQueries[0]).to.include({ queryId: qid, oracleId: ok, expiresAt: 50, fee: '5', senderNonce: '4' });
    expect(rows.oracleResponses[0]).to.include({ queryId: qid, response: 'yes', microIndex: 1, txIndex: 0 });
    expect(rows.nameActions[0]).to.include({
      kind: 'claim',
      nameHash: produceNameId('hello.chain'),
      nameFee: '100000000000000000000',
      salt: 7n,
      protocol: 5,
    });
    expect(rows.channelEvents.map((c) => [c.txType, c.closes])).to.deep.equal([
      ['ChannelCreateTx', false],
      ['ChannelCloseMutualTx', true],
    ]);
  });

  it("counts a query's relative TTL from its micro block's height: the generation's, or the next on a hyperchain", () => {
    const query = (nonce: number): JsonObject =>
      signed({
        type: 'OracleQueryTx',
        sender_id: bob,
        nonce,
        oracle_id: `ok_${alice.slice(3)}`,
        query: 'hi',
        query_fee: 5,
        query_ttl: { type: 'delta', value: 5 },
        response_ttl: { type: 'delta', value: 10 },
        fee: 1,
      });
    const main = generation([query(1)]);
    expect(transformGeneration(main).oracleQueries.map((q) => [q.height, q.expiresAt])).to.deep.equal([[10, 15]]);
    // a hyperchain's micro blocks after key block 10 are height 11's, before its key block
    const hc = generation([query(1)]);
    const hyper = { ...hc, microBlocks: hc.microBlocks.map((mb) => ({ ...mb, header: { ...mb.header, height: 11 } })) };
    expect(transformGeneration(hyper).oracleQueries.map((q) => [q.height, q.expiresAt])).to.deep.equal([[10, 16]]);
  });

  it("gives every name and oracle action its micro block's height, from which their relative TTLs count", () => {
    const nameId = produceNameId('averyveryverylongname.chain');
    const txs = [
      signed({ type: 'NameClaimTx', account_id: alice, nonce: 1, name: 'averyveryverylongname.chain', name_salt: 7 }),
      signed({ type: 'NameUpdateTx', account_id: alice, nonce: 2, name_id: nameId, name_ttl: 500, pointers: [] }),
      signed({ type: 'NameTransferTx', account_id: alice, nonce: 3, name_id: nameId, recipient_id: bob }),
      signed({ type: 'NameRevokeTx', account_id: bob, nonce: 1, name_id: nameId }),
      signed({ type: 'OracleRegisterTx', account_id: bob, nonce: 2, oracle_ttl: { type: 'delta', value: 50 } }),
      signed({
        type: 'OracleExtendTx',
        oracle_id: `ok_${bob.slice(3)}`,
        nonce: 3,
        oracle_ttl: { type: 'delta', value: 9 },
      }),
    ];
    const heights = (gen: FetchedGeneration): number[][] => {
      const rows = transformGeneration(gen);
      return [...rows.nameActions, ...rows.oracleActions].map((a) => [a.height, a.blockHeight]);
    };
    expect(heights(generation(txs))).to.deep.equal(Array.from({ length: 6 }, () => [10, 10]));
    // a hyperchain's micro blocks after key block 10 are height 11's, before its key block
    const hc = generation(txs);
    const hyper = { ...hc, microBlocks: hc.microBlocks.map((mb) => ({ ...mb, header: { ...mb.header, height: 11 } })) };
    expect(heights(hyper)).to.deep.equal(Array.from({ length: 6 }, () => [10, 11]));
  });

  it('applies inner transactions of GAMetaTx and PayingForTx, and keeps the GAMetaTx without signatures', () => {
    const inner = {
      type: 'NameUpdateTx',
      account_id: alice,
      nonce: 4,
      name_id: produceNameId('hello.chain'),
      name_ttl: 500,
      pointers: [{ key: 'account_pubkey', id: bob }],
      client_ttl: 1,
      fee: 1,
    };
    const ga = gaMeta(inner);
    delete ga.signatures;
    const pf = signed({
      type: 'PayingForTx',
      payer_id: bob,
      nonce: 1,
      fee: 9,
      tx: {
        tx: { type: 'SpendTx', sender_id: alice, recipient_id: alice, amount: 1, fee: 0, nonce: 5 },
        signatures: [],
      },
    });
    const rows = transformGeneration(generation([ga, pf]));
    expect(rows.transactions.map((t) => [t.txType, renderStoredTx(t.stored.signed).signatures === null])).to.deep.equal(
      [
        ['GAMetaTx', true],
        ['PayingForTx', false],
      ],
    );
    expect(rows.nameActions[0]).to.include({ kind: 'update', nameTtl: 500, txHash: ga.hash });
    expect(rows.namePointers.map((p) => [p.key, p.id])).to.deep.equal([['account_pubkey', bob]]);
    const forPf = rows.accountTxs.filter((a) => a.txHash === pf.hash).map((a) => [a.account, a.fields]);
    expect(forPf).to.deep.equal([
      [bob, ['payer_id']],
      [alice, ['tx.sender_id', 'tx.recipient_id']],
    ]);
  });

  it("adds no row of a GAMetaTx's failed inner transaction and lists it under the GA's id only (its info says error)", () => {
    const claim = { type: 'NameClaimTx', account_id: alice, nonce: 0, name: 'failed.chain', name_salt: 1, fee: 1 };
    const contract = buildContractId(bob, 1);
    const call = {
      type: 'ContractCallTx',
      caller_id: alice,
      nonce: 0,
      contract_id: contract,
      abi_version: 3,
      amount: 1,
      gas: 1,
      gas_price: 1,
      fee: 1,
      call_data: 'cb_Xfbg4g==',
    };
    const [failedClaim, failedCall, claimed] = [gaMeta(claim), gaMeta(call), gaMeta({ ...claim, name: 'done.chain' })];
    const outcome = (returnType: string, inner: string): JsonObject => ({
      ga_info: { gas_used: 1, return_type: returnType, inner_object: { tx_info: inner } },
    });
    const gen = {
      ...generation([failedClaim, failedCall, claimed]),
      gaInfos: new Map([
        [String(failedClaim.hash), outcome('error', 'name_claim_tx')],
        [String(failedCall.hash), outcome('error', 'contract_call_tx')],
        [String(claimed.hash), outcome('ok', 'name_claim_tx')],
      ]),
    };
    const rows = transformGeneration(gen);
    expect(rows.transactions).to.have.length(3);
    expect(rows.nameActions.map((a) => [a.txHash, a.kind])).to.deep.equal([[claimed.hash, 'claim']]);
    expect(rows.contractCalls).to.deep.equal([]);
    const listed = (hash: Json | undefined): string[] =>
      rows.accountTxs.filter((a) => a.txHash === hash).map((a) => a.account);
    expect(listed(failedClaim.hash)).to.deep.equal([alice]);
    expect(listed(failedCall.hash)).to.deep.equal([alice]);
    expect(listed(claimed.hash)).to.deep.equal([alice, produceNameId('done.chain')]);
    // shown as ae_mdw renders it, the name id of the claim it wraps all the same
    expect(rows.transactions[0]!.createdId).to.equal(produceNameId('failed.chain'));
  });
});
