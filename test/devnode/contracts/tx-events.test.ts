/**
 * @module A dry-run's `tx_events` over HTTP: wrapped AE withdrawn in a dry-run pays AE out by `Chain.spend`, which
 * the node reports as an `internal_call_tx` event carrying the SpendTx it amounts to.
 */
import { expect } from 'chai';
import { BytecodeContractCallEncoder } from '@aeternity/aepp-calldata';
import { buildContractIdByContractTx, buildTx, buildTxHash, decode, encode, Encoding, Tag } from '@aeternity/aepp-sdk';
import { BYTECODE } from '../../../src/devnode/contracts/standards.ts';
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
    const byCallReq = await t.post('/v3/dry-run', {
      txs: [{ call_req: { contract: wae, caller: owner!.address, calldata: encoder.encodeCall('withdraw', [1n]) } }],
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
});
