/** @module PayingForTx and generalized accounts (GAAttachTx, GAMetaTx) built and signed with the sdk, posted over HTTP. */
import { expect } from 'chai';
import { Tag, buildTx, hash, type MemoryAccount } from '@aeternity/aepp-sdk';
import {
  FATE_ABI_VERSION,
  FATE_VM_VERSION,
  GA_CONTRACT_BYTECODE,
  contractCallData,
  gaAuthData,
} from '../../src/devnode/contracts/fate-contract.ts';
import { contractId } from '../../src/devnode/ids.ts';
import { startTestNode, FUNDS, type TestNode } from './harness.ts';

/** FEE is above the sdk's own minimum (gas × 1e9), which its buildTx enforces. */
const FEE = 10n ** 15n;

describe('devnode wrapped transactions over HTTP', () => {
  let t: TestNode;
  beforeEach(async () => {
    t = await startTestNode();
  });
  afterEach(() => t.node.stop());

  it('includes a PayingForTx: the payer pays both fees, the inner sender only the amount', async () => {
    const [payer, sender, recipient] = t.accounts as [MemoryAccount, MemoryAccount, MemoryAccount];
    const built = await t.postInternal('/v2/debug/transactions/spend', {
      sender_id: sender.address,
      recipient_id: recipient.address,
      amount: 1234,
      fee: FEE,
      payload: '',
    });
    const inner = await sender.signTransaction(built.body.tx, { networkId: 'ae_devnet', innerTx: true });
    const outer = buildTx({ tag: Tag.PayingForTx, payerId: payer.address, nonce: 1, fee: FEE, tx: inner });
    const posted = await t.post('/v2/transactions', {
      tx: await payer.signTransaction(outer, { networkId: 'ae_devnet' }),
    });
    expect(posted.status, posted.text).to.equal(200);
    await t.node.mineKeyBlock();
    const shown = (await t.get(`/v2/transactions/${posted.body.tx_hash}`)).body;
    expect(shown.tx).to.include({ type: 'PayingForTx', payer_id: payer.address });
    expect(shown.tx.tx.tx).to.include({ type: 'SpendTx', sender_id: sender.address, amount: 1234 });
    const balance = async (a: MemoryAccount) => BigInt((await t.get(`/v2/accounts/${a.address}`)).body.balance);
    expect(await balance(payer)).to.equal(FUNDS - 2n * FEE);
    expect(await balance(sender)).to.equal(FUNDS - 1234n);
    expect(await balance(recipient)).to.equal(FUNDS + 1234n);

    const unsignedInner = await t.post('/v2/transactions', {
      tx: await payer.signTransaction(
        buildTx({
          tag: Tag.PayingForTx,
          payerId: payer.address,
          nonce: 2,
          fee: FEE,
          tx: buildTx({ tag: Tag.SignedTx, encodedTx: built.body.tx, signatures: [] }),
        }),
        { networkId: 'ae_devnet' },
      ),
    });
    expect(unsignedInner.body.reason).to.match(/inner transaction is not signed/);
  });

  it('makes a fresh account generalized and runs its GAMetaTx with an inner spend of nonce 0', async () => {
    const [, ga, recipient] = t.accounts as [MemoryAccount, MemoryAccount, MemoryAccount];
    const attach = buildTx({
      tag: Tag.GaAttachTx,
      ownerId: ga.address,
      nonce: 1,
      code: GA_CONTRACT_BYTECODE,
      authFun: hash('authorize'),
      vmVersion: FATE_VM_VERSION,
      abiVersion: FATE_ABI_VERSION,
      fee: FEE,
      gasLimit: 10_000,
      gasPrice: 1_000_000_000,
      callData: contractCallData('init', []),
    });
    const attached = await t.post('/v2/transactions', {
      tx: await ga.signTransaction(attach, { networkId: 'ae_devnet' }),
    });
    expect(attached.status, attached.text).to.equal(200);
    await t.node.mineKeyBlock();
    expect((await t.get(`/v2/accounts/${ga.address}`)).body).to.include({
      kind: 'generalized',
      contract_id: contractId(ga.address, 1),
    });

    const innerSpend = buildTx({
      tag: Tag.SpendTx,
      senderId: ga.address,
      recipientId: recipient.address,
      amount: 99,
      fee: FEE,
      nonce: 0,
    });
    const meta = buildTx({
      tag: Tag.GaMetaTx,
      gaId: ga.address,
      authData: gaAuthData(1n),
      abiVersion: FATE_ABI_VERSION,
      fee: FEE,
      gasLimit: 5000,
      gasPrice: 1_000_000_000,
      tx: buildTx({ tag: Tag.SignedTx, encodedTx: innerSpend, signatures: [] }),
    });
    const posted = await t.post('/v2/transactions', {
      tx: buildTx({ tag: Tag.SignedTx, encodedTx: meta, signatures: [] }),
    });
    expect(posted.status, posted.text).to.equal(200);
    await t.node.mineKeyBlock();
    expect((await t.get(`/v2/accounts/${recipient.address}`)).body.balance).to.equal(FUNDS + 99n);
    const info = (await t.get(`/v2/transactions/${posted.body.tx_hash}/info`)).body;
    expect(info.ga_info).to.include({ caller_id: ga.address, return_type: 'ok' });

    const direct = await t.submit(
      'transactions/spend',
      { sender_id: ga.address, recipient_id: recipient.address, amount: 1, fee: 1, payload: '' },
      ga,
    );
    expect(direct.body.reason, 'a generalized account signs through GAMetaTx only').to.match(/generalized account/);

    // paid for, its meta transaction carries no signature either: the inner transaction of a PayingForTx needs its own
    // signers' (aec_paying_for_tx:signers, aetx_sign:verify), a GAMetaTx's none (aega_meta_tx:signers); the payer pays
    // the meta transaction's fee and gas and its inner spend's fee (aeprimop establish_payer), the GA the amount only
    const [payer] = t.accounts as [MemoryAccount];
    const balance = async (a: string) => BigInt((await t.get(`/v2/accounts/${a}`)).body.balance);
    const [payerBefore, gaBefore] = [await balance(payer.address), await balance(ga.address)];
    const paidMeta = buildTx({
      tag: Tag.GaMetaTx,
      gaId: ga.address,
      authData: gaAuthData(2n),
      abiVersion: FATE_ABI_VERSION,
      fee: FEE,
      gasLimit: 5000,
      gasPrice: 1_000_000_000,
      tx: buildTx({ tag: Tag.SignedTx, encodedTx: innerSpend, signatures: [] }),
    });
    const outer = buildTx({
      tag: Tag.PayingForTx,
      payerId: payer.address,
      nonce: 1,
      fee: FEE,
      tx: buildTx({ tag: Tag.SignedTx, encodedTx: paidMeta, signatures: [] }),
    });
    const paid = await t.post('/v2/transactions', {
      tx: await payer.signTransaction(outer, { networkId: 'ae_devnet' }),
    });
    expect(paid.status, paid.text).to.equal(200);
    await t.node.mineKeyBlock();
    const paidInfo = (await t.get(`/v2/transactions/${paid.body.tx_hash}/info`)).body;
    expect(paidInfo.ga_info).to.include({ caller_id: ga.address, return_type: 'ok' });
    expect(await balance(recipient.address)).to.equal(FUNDS + 2n * 99n);
    expect(await balance(ga.address)).to.equal(gaBefore - 99n);
    const gas = BigInt(paidInfo.ga_info.gas_used) * 1_000_000_000n;
    expect(await balance(payer.address)).to.equal(payerBefore - 3n * FEE - gas);
  });
});
