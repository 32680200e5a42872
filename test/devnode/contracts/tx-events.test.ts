/**
 * @module A dry-run's `tx_events` over HTTP: wrapped AE withdrawn in a dry-run pays AE out by `Chain.spend`, which
 * the node reports as an `internal_call_tx` event carrying the SpendTx it amounts to; a mined micro block's
 * transactions, sent unsigned in order on top of the block before it, run again as on the chain (the events are the
 * last item's, as the node's); the node's limits: the external gas cap, the types it refuses, mempool-only hashes.
 */
import { expect } from 'chai';
import { BytecodeContractCallEncoder } from '@aeternity/aepp-calldata';
import {
  buildContractIdByContractTx,
  buildTx,
  buildTxHash,
  decode,
  encode,
  Encoding,
  MemoryAccount,
  Tag,
} from '@aeternity/aepp-sdk';
import { decode as rlpDecode } from 'rlp';
import { BYTECODE } from '../../../src/devnode/contracts/standards.ts';
import { channelId } from '../../../src/devnode/ids.ts';
import { encodeTx, type TxFields } from '../../../src/devnode/tx-codec.ts';
import { forcedCall, stateHash } from '../../support/channel-txs.ts';
import { startTestNode, type TestNode } from '../harness.ts';

const encoder = new BytecodeContractCallEncoder(BYTECODE.wae as `cb_${string}`);
const GAS = { gas: 50_000, gas_price: 1_000_000_000, abi_version: 3 };

/** dummySignedHash is the hash of a transaction signed as the node's dry-run signs it: one signature of 64 zeros. */
const dummySignedHash = (tx: `tx_${string}`): string =>
  buildTxHash(buildTx({ tag: Tag.SignedTx, encodedTx: decode(tx), signatures: [Buffer.alloc(64)] }));

describe('devnode dry-run tx_events', function () {
  this.timeout(30_000);
  let t: TestNode;
  let wae: string;
  /** callFields is the builder's body for `caller` calling `fn(args)` of the wrapped-AE contract with `amount`. */
  const callFields = (caller: string, fn: string, args: unknown[], amount = 0): Record<string, unknown> => ({
    caller_id: caller,
    contract_id: wae,
    amount,
    fee: 200_000,
    call_data: encoder.encodeCall(fn, args),
    ...GAS,
  });

  before(async () => {
    t = await startTestNode();
    const [owner] = t.accounts;
    // the contract id is the SDK's, from the signed create (an oracle independent of the builder's answer)
    const fields = { vm_version: 7, deposit: 0, amount: 0, fee: 300_000, ...GAS };
    const init = encoder.encodeCall('init', []);
    const create = await t.signed(
      'contracts/create',
      { owner_id: owner!.address, code: BYTECODE.wae, call_data: init, ...fields },
      owner!,
    );
    wae = buildContractIdByContractTx(create as `tx_${string}`);
    expect((await t.post('/v2/transactions', { tx: create })).status).to.equal(200);
    const deposit = await t.submit('contracts/call', callFields(owner!.address, 'deposit', [], 5000), owner!);
    expect(deposit.status).to.equal(200);
    await t.postInternal('/v2/debug/dev/mine', { key_blocks: 0 });
  });
  after(async () => {
    await t?.node.stop();
  });

  it('reports the AE a withdrawal pays out as an internal Chain.spend, under the dry-run transaction hash', async () => {
    const [owner] = t.accounts;
    const built = await t.postInternal('/v2/debug/contracts/call', callFields(owner!.address, 'withdraw', [1200n]));
    const reply = await t.post('/v3/dry-run', { txs: [{ tx: built.body.tx }], tx_events: true });
    expect(reply.body.results[0].call_obj.return_type).to.equal('ok');
    expect(reply.body.tx_events).to.deep.equal([
      {
        kind: 'internal_call_tx',
        key: 'Chain.spend',
        type: 'contract_call_tx',
        tx_hash: dummySignedHash(built.body.tx),
        info: {
          sender_id: wae.replace('ct_', 'ak_'),
          recipient_id: owner!.address,
          amount: 1200,
          fee: 0,
          ttl: 0,
          nonce: 0,
          payload: encode(Buffer.from('Chain.spend'), Encoding.Bytearray),
        },
      },
    ]);
    // a call_req runs as a ContractCallTx too (one the SDK will not build: its gas price is below the minimum)
    const nonce = (await t.get(`/v3/accounts/${owner!.address}`)).body.nonce + 1;
    const withdraw = encoder.encodeCall('withdraw', [1n]);
    const byCallReq = await t.post('/v3/dry-run', {
      txs: [{ call_req: { contract: wae, caller: owner!.address, nonce, calldata: withdraw, abi_version: 3 } }],
      tx_events: true,
    });
    const [event] = byCallReq.body.tx_events;
    expect([event.key, event.type, event.info.amount]).to.deep.equal(['Chain.spend', 'contract_call_tx', 1]);
    expect(event.tx_hash).to.match(/^th_/);
    const without = await t.post('/v3/dry-run', { txs: [{ tx: built.body.tx }] });
    expect(without.body).to.not.have.property('tx_events');
    expect((await t.post('/v3/dry-run', { txs: [], tx_events: 'yes' })).body).to.deep.equal({
      reason: 'Bad request: Bad parameter, tx_events',
    });
  });

  /** unsigned is a signed transaction's inner transaction, as a dry-run takes it (read with the rlp package). */
  const unsigned = (signedTx: string): string => {
    const [, , , inner] = rlpDecode(decode(signedTx as `tx_${string}`)) as Uint8Array[];
    return encode(Buffer.from(inner!), Encoding.Transaction);
  };

  it("re-runs a mined micro block's transactions on top of the block before it, with its calls' events", async () => {
    const [owner] = t.accounts;
    // a block of a spend funding a fresh account, its deposit of wrapped AE and its withdrawal
    const fresh = MemoryAccount.generate();
    const spend = await t.signed(
      'transactions/spend',
      {
        sender_id: owner!.address,
        recipient_id: fresh.address,
        amount: 10n ** 18n,
        fee: 20_000_000_000_000,
        payload: '',
      },
      owner!,
    );
    // the fresh account exists once the spend is in: its calls' nonces are given
    const deposit = await t.signed(
      'contracts/call',
      { ...callFields(fresh.address, 'deposit', [], 7000), nonce: 1 },
      fresh,
    );
    const withdraw = await t.signed(
      'contracts/call',
      { ...callFields(fresh.address, 'withdraw', [2500n]), nonce: 2 },
      fresh,
    );
    await t.post('/v2/transactions', { tx: spend });
    await t.post('/v2/transactions', { tx: deposit });
    expect((await t.post('/v2/transactions', { tx: withdraw })).status).to.equal(200);
    // a mempool transaction is dry-run by its hash; a mined one is not (the node's dry-run reads the mempool only)
    const pending = await t.post('/v3/dry-run', {
      txs: [{ tx_hash: buildTxHash(spend as `tx_${string}`) }],
      tx_events: true,
    });
    expect(pending.status).to.equal(200);
    expect(pending.body).to.deep.equal({ results: [{ type: 'spend', result: 'ok' }], tx_events: [] });
    await t.postInternal('/v2/debug/dev/mine', { key_blocks: 0 });
    const mined = await t.get(`/v3/transactions/${buildTxHash(withdraw as `tx_${string}`)}`);
    const header = await t.get(`/v3/micro-blocks/hash/${mined.body.block_hash}/header`);
    const block = await t.get(`/v3/micro-blocks/hash/${mined.body.block_hash}/transactions`);
    expect(block.body.transactions.map((x: { hash: string }) => x.hash)).to.deep.equal(
      [spend, deposit, withdraw].map((x) => buildTxHash(x as `tx_${string}`)),
    );
    const gone = await t.post('/v3/dry-run', { txs: [{ tx_hash: mined.body.hash }] });
    expect(gone).to.include({ status: 400 });
    expect(gone.body).to.deep.equal({ reason: 'Bad request: Transaction not found in mempool' });

    const txs = [spend, deposit, withdraw].map((x) => ({ tx: unsigned(x) }));
    const replay = await t.post('/v3/dry-run', { top: header.body.prev_hash, txs, tx_events: true });
    expect(replay.status).to.equal(200);
    expect(replay.body.results.map((r: { type: string; result: string }) => [r.type, r.result])).to.deep.equal([
      ['spend', 'ok'],
      ['contract_call', 'ok'],
      ['contract_call', 'ok'],
    ]);
    // the call records are the chain's own
    const infos = await Promise.all(
      [deposit, withdraw].map((x) => t.get(`/v3/transactions/${buildTxHash(x as `tx_${string}`)}/info`)),
    );
    expect(replay.body.results.slice(1).map((r: { call_obj: unknown }) => r.call_obj)).to.deep.equal(
      infos.map((i) => i.body.call_info),
    );
    // the last item's events only: the withdrawal's Chain.spend to the fresh account
    expect(
      replay.body.tx_events.map((e: { key: string; tx_hash: string; info: { amount: unknown } }) => [
        e.key,
        e.tx_hash,
        e.info.amount,
      ]),
    ).to.deep.equal([['Chain.spend', dummySignedHash(txs[2]!.tx as `tx_${string}`), 2500]]);
    // the prefix ending at the deposit: no AE moved inside it (the AE went with the transaction, not a remote call)
    const upToDeposit = await t.post('/v3/dry-run', {
      top: header.body.prev_hash,
      txs: txs.slice(0, 2),
      tx_events: true,
    });
    expect(upToDeposit.body.tx_events).to.deep.equal([]);
    // without the spend before them the fresh account does not exist yet: the calls fail, as they would have
    const alone = await t.post('/v3/dry-run', { top: header.body.prev_hash, txs: txs.slice(1), tx_events: true });
    expect(alone.body.results.map((r: { result: string }) => r.result)).to.deep.equal(['error', 'error']);
    expect(alone.body.tx_events).to.deep.equal([]);
  });

  it('answers a force progress without its call object, as the node gives one of a call, create or GA attach only (aec_dry_run:dry_run_res)', async () => {
    const [initiator, responder] = t.accounts;
    const nonce = Number((await t.get(`/v3/accounts/${initiator!.address}`)).body.nonce) + 1;
    const create: TxFields = {
      type: 'ChannelCreateTx',
      version: 2,
      initiator_id: initiator!.address,
      initiator_amount: 1_000_000,
      responder_id: responder!.address,
      responder_amount: 1_000_000,
      channel_reserve: 500,
      lock_period: 5,
      delegate_ids: { initiator: [], responder: [] },
      state_hash: stateHash(1),
      fee: 10n ** 15n,
      nonce,
    };
    const progress: TxFields = {
      type: 'ChannelForceProgressTx',
      version: 1,
      channel_id: channelId(initiator!.address, nonce, responder!.address),
      from_id: initiator!.address,
      payload: encode(new Uint8Array(0), Encoding.Transaction),
      round: 2,
      update: forcedCall(initiator!.address),
      state_hash: stateHash(2),
      offchain_trees: encode(new Uint8Array(16), Encoding.StateTrees),
      fee: 10n ** 15n,
      nonce: nonce + 1,
    };
    const txs = [create, progress].map((tx) => ({ tx: encode(encodeTx(tx), Encoding.Transaction) }));
    const reply = await t.post('/v3/dry-run', { txs });
    expect(reply.body.results).to.deep.equal([
      { type: 'channel_create', result: 'ok' },
      { type: 'channel_force_progress', result: 'ok' },
    ]);
  });

  it("keeps the node's limits: the external gas cap, no PayingForTx or GAMetaTx, a block hash as top", async () => {
    const [owner] = t.accounts;
    const heavy = {
      call_req: {
        contract: wae,
        calldata: encoder.encodeCall('balance', [owner!.address]),
        gas: 3_500_000,
        abi_version: 3,
      },
    };
    const over = await t.post('/v3/dry-run', { txs: [heavy, heavy] });
    expect(over).to.include({ status: 403 });
    expect(over.body).to.deep.equal({ reason: 'Over the gas limit' });
    // the internal endpoint has no cap
    expect((await t.postInternal('/v2/debug/transactions/dry-run', { txs: [heavy, heavy] })).status).to.equal(200);
    expect((await t.post('/v3/dry-run', { txs: [heavy] })).status).to.equal(200);

    const inner = await t.signed(
      'transactions/spend',
      { sender_id: owner!.address, recipient_id: owner!.address, amount: 1, fee: 20_000_000_000_000, payload: '' },
      owner!,
    );
    const payingFor = buildTx({
      tag: Tag.PayingForTx,
      payerId: owner!.address,
      nonce: 1,
      fee: 10n ** 15n,
      tx: inner as `tx_${string}`,
    });
    const refused = await t.post('/v3/dry-run', { txs: [{ tx: payingFor }] });
    expect(refused).to.include({ status: 400 });
    expect(refused.body).to.deep.equal({ reason: 'Bad request: Unsupported transaction type paying_for_tx' });
    const badTop = await t.post('/v3/dry-run', { top: 'th_2', txs: [] });
    // no block hash: the node's handler crashes on it (a real 7.2.2 node's 500)
    expect(badTop).to.include({ status: 500 });
    expect(badTop.body).to.deep.equal({ reason: 'Internal server error' });
  });
});
