/**
 * @module Tokens over the devnode's HTTP API as a client sees them: a token deployed and called with
 * the node's builders and sdk-signed transactions (calldata from aepp-calldata), its call info with
 * logs in the node's format (topics as exact JSON integers), and dry-runs on both ports.
 */
import { expect } from 'chai';
import { BytecodeContractCallEncoder } from '@aeternity/aepp-calldata';
import { decode } from '@aeternity/aepp-sdk';
import { BYTECODE } from '../../../src/devnode/contracts/standards.ts';
import { eventTopic } from '../../../src/devnode/contracts/frame.ts';
import { startTestNode, type TestNode } from '../harness.ts';

const encoder = new BytecodeContractCallEncoder(BYTECODE.aex9 as `cb_${string}`);
const GAS = { gas: 50_000, gas_price: 1_000_000_000, abi_version: 3 };

describe('devnode tokens over HTTP', function () {
  this.timeout(30_000);
  let t: TestNode;
  let token: string;
  let transferHash: string;

  before(async () => {
    t = await startTestNode();
    const [owner, alice] = t.accounts;
    const create = await t.postInternal('/v2/debug/contracts/create', {
      owner_id: owner!.address,
      code: BYTECODE.aex9,
      vm_version: 7,
      deposit: 0,
      amount: 0,
      fee: 300_000,
      call_data: encoder.encodeCall('init', ['Http Token', 2n, 'HTTP', { 1: [10n ** 20n] }]),
      ...GAS,
    });
    token = create.body.contract_id;
    const signedCreate = await owner!.signTransaction(create.body.tx, { networkId: 'ae_devnet' });
    expect((await t.post('/v2/transactions', { tx: signedCreate })).status).to.equal(200);
    const transfer = await t.submit(
      'contracts/call',
      {
        caller_id: owner!.address,
        contract_id: token,
        amount: 0,
        fee: 200_000,
        call_data: encoder.encodeCall('transfer', [alice!.address, 12_345n]),
        ...GAS,
      },
      owner!,
    );
    transferHash = transfer.body.tx_hash;
    await t.postInternal('/v2/debug/dev/mine', { key_blocks: 0 });
  });
  after(async () => {
    await t?.node.stop();
  });

  it('serves the call info of a transfer with its log in the node format, topics as exact integers', async () => {
    const [owner, alice] = t.accounts;
    const reply = await t.get(`/v2/transactions/${transferHash}/info`);
    expect(reply.status).to.equal(200);
    const info = reply.body.call_info;
    expect(info).to.include({ return_type: 'ok', contract_id: token, caller_id: owner!.address });
    expect(encoder.decodeResult('transfer', info.return_value)).to.deep.equal([]);
    expect(info.log).to.have.length(1);
    expect(info.log[0].address).to.equal(token);
    expect(info.log[0].data).to.equal('cb_Xfbg4g==');
    expect(info.log[0].topics[0]).to.equal(eventTopic('Transfer'));
    expect(info.log[0].topics[3], 'small integers parse as numbers').to.equal(12_345);
    expect(reply.text, 'a 256-bit topic printed in full').to.contain(String(eventTopic('Transfer')));
    expect(info.log[0].topics[2]).to.equal(BigInt(`0x${Buffer.from(decode(alice!.address)).toString('hex')}`));
  });

  it('serves the bytecode, which names the functions of the call', async () => {
    const code = await t.get(`/v2/contracts/${token}/code`);
    expect(code.body.bytecode).to.equal(BYTECODE.aex9);
  });

  it('dry-runs balance and meta_info on the external and internal ports', async () => {
    const [, alice] = t.accounts;
    const body = {
      txs: [
        { call_req: { contract: token, calldata: encoder.encodeCall('balance', [alice!.address]), abi_version: 3 } },
        { call_req: { contract: token, calldata: encoder.encodeCall('meta_info', []), abi_version: 3 } },
      ],
    };
    for (const reply of [
      await t.post('/v2/dry-run', body),
      await t.postInternal('/v2/debug/transactions/dry-run', body),
    ]) {
      expect(reply.status).to.equal(200);
      const [balance, meta] = reply.body.results;
      expect(balance).to.include({ type: 'contract_call', result: 'ok' });
      expect(encoder.decodeResult('balance', balance.call_obj.return_value)).to.deep.equal({ 1: [12_345n] });
      expect(encoder.decodeResult('meta_info', meta.call_obj.return_value)).to.deep.equal(['Http Token', 'HTTP', 2n]);
    }
  });

  it('dry-runs an unsigned ContractCallTx built by the node builder, with the caller funded by `accounts`', async () => {
    const [, , carol] = t.accounts;
    const built = await t.postInternal('/v2/debug/contracts/call', {
      caller_id: carol!.address,
      contract_id: token,
      amount: 0,
      fee: 200_000,
      call_data: encoder.encodeCall('transfer', [carol!.address, 1n]),
      ...GAS,
    });
    const reply = await t.post('/v2/dry-run', {
      txs: [{ tx: built.body.tx }],
      accounts: [{ pub_key: carol!.address, amount: 1 }],
    });
    expect(reply.status).to.equal(200);
    const callObj = reply.body.results[0].call_obj;
    expect(callObj.return_type, 'carol holds no tokens').to.equal('revert');
  });

  it('answers 400 to a malformed dry-run and an error result for an unknown contract', async () => {
    expect((await t.post('/v2/dry-run', {})).status).to.equal(400);
    expect((await t.post('/v2/dry-run', { txs: [{ call_req: { contract: 'ct_x' } }] })).status).to.equal(400);
    // a top that is no block hash crashes the node's handler (a real 7.2.2 node's 500)
    expect((await t.post('/v2/dry-run', { txs: [], top: 'kh_nope' })).status).to.equal(500);
    const notAContract = t.accounts[0]!.address.replace(/^ak_/, 'ct_');
    const missing = await t.post('/v2/dry-run', {
      txs: [{ call_req: { contract: notAContract, calldata: 'cb_Xfbg4g==' } }],
    });
    expect(missing.status).to.equal(200);
    expect(missing.body.results[0]).to.deep.equal({
      type: 'contract_call',
      result: 'error',
      reason: 'Internal error:\n  contract_does_not_exist\n',
    });
  });
});
