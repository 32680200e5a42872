/** @module Which ids each tx type references and creates, inner transactions included. */
import { expect } from 'chai';
import { randomBytes } from 'node:crypto';
import { buildContractId, produceNameId } from '@aeternity/aepp-sdk';
import { encode } from '../../../src/chain/encoding.ts';
import {
  createdIds,
  indexedIds,
  innerTx,
  nameReferences,
  ownTx,
  referencedIds,
  stateIds,
} from '../../../src/chain/tx-fields.ts';
import { channelId, oracleId } from '../../../src/chain/derived-ids.ts';

const ak = (): `ak_${string}` => encode('ak', randomBytes(32)) as `ak_${string}`;

describe('chain/tx-fields', () => {
  it('lists sender and recipient of a SpendTx', () => {
    const [s, r] = [ak(), ak()];
    const ids = referencedIds({
      type: 'SpendTx',
      sender_id: s,
      recipient_id: r,
      amount: 1,
      fee: 2,
      nonce: 1,
      payload: 'ba_Xfbg4g==',
    });
    expect(Object.fromEntries(ids)).to.deep.equal({ [s]: ['sender_id'], [r]: ['recipient_id'] });
  });

  it('records one row per id with every field it appears in (a self-spend)', () => {
    const s = ak();
    const ids = referencedIds({ type: 'SpendTx', sender_id: s, recipient_id: s, amount: 1 });
    expect(ids.get(s)).to.deep.equal(['sender_id', 'recipient_id']);
  });

  it('adds the created contract id (checked against aepp-sdk)', () => {
    const owner = ak();
    const tx = { type: 'ContractCreateTx', owner_id: owner, nonce: 7, code: 'cb_Xfbg4g==' };
    expect(createdIds(tx)).to.deep.equal({ contract_id: buildContractId(owner, 7) });
    expect(referencedIds(tx).get(buildContractId(owner, 7))).to.deep.equal(['contract_id']);
  });

  it('adds oracle, channel and name ids created by their txs', () => {
    const [a, b] = [ak(), ak()];
    expect(createdIds({ type: 'OracleRegisterTx', account_id: a, nonce: 1 })).to.deep.equal({ oracle_id: oracleId(a) });
    expect(createdIds({ type: 'ChannelCreateTx', initiator_id: a, responder_id: b, nonce: 3 })).to.deep.equal({
      channel_id: channelId(a, 3n, b),
    });
    expect(createdIds({ type: 'NameClaimTx', account_id: a, name: 'Hello.chain', nonce: 3 })).to.deep.equal({
      name_id: produceNameId('hello.chain'),
    });
  });

  it('reads delegate lists in both shapes and name pointers', () => {
    const [a, b, c, d] = [ak(), ak(), ak(), ak()];
    const old = referencedIds({
      type: 'ChannelCreateTx',
      initiator_id: a,
      responder_id: b,
      nonce: 1,
      delegate_ids: [c],
    });
    expect(old.get(c)).to.deep.equal(['delegate_ids']);
    const newer = referencedIds({
      type: 'ChannelCreateTx',
      initiator_id: a,
      responder_id: b,
      nonce: 1,
      delegate_ids: { initiator: [c], responder: [d] },
    });
    expect(newer.get(d)).to.deep.equal(['delegate_ids']);
    const update = referencedIds({
      type: 'NameUpdateTx',
      account_id: a,
      name_id: produceNameId('x1234567890123.chain'),
      pointers: [{ key: 'account_pubkey', id: b }],
    });
    expect(update.get(b)).to.deep.equal(['pointers']);
  });

  it('walks inner txs of GAMetaTx and PayingForTx with tx. prefixed fields', () => {
    const [ga, payer, s, r] = [ak(), ak(), ak(), ak()];
    const spend = { type: 'SpendTx', sender_id: s, recipient_id: r, amount: 1 };
    const meta = { type: 'GAMetaTx', ga_id: ga, tx: { tx: spend, signatures: [] } };
    expect(innerTx(meta)).to.deep.equal(spend);
    expect(Object.fromEntries(referencedIds(meta))).to.deep.equal({
      [ga]: ['ga_id'],
      [s]: ['tx.sender_id'],
      [r]: ['tx.recipient_id'],
    });
    const pf = { type: 'PayingForTx', payer_id: payer, tx: { tx: meta, signatures: [] } };
    expect(referencedIds(pf).get(r)).to.deep.equal(['tx.tx.recipient_id']);
    // ownTx unwraps to the tx of a type, through both wrappers
    expect(ownTx(pf, 'SpendTx')).to.deep.equal(spend);
    expect(ownTx(spend, 'SpendTx')).to.equal(spend);
    expect(ownTx(pf, 'ChannelDepositTx')).to.equal(undefined);
  });

  it('lists the names a tx sends to, with the pointer the node resolves each through', () => {
    const name = produceNameId('receiver.chain');
    expect(nameReferences({ type: 'SpendTx', sender_id: ak(), recipient_id: name })).to.deep.equal([
      { nameHash: name, field: 'recipient_id', key: 'account_pubkey', prefix: 'ak', pointeeOnly: true },
    ]);
    expect(nameReferences({ type: 'SpendTx', sender_id: ak(), recipient_id: ak() })).to.deep.equal([]);
    expect(nameReferences({ type: 'NameTransferTx', name_id: name, recipient_id: name })).to.deep.equal([
      { nameHash: name, field: 'recipient_id', key: 'account_pubkey', prefix: 'ak', pointeeOnly: false },
    ]);
    expect(nameReferences({ type: 'OracleQueryTx', oracle_id: name })).to.deep.equal([
      { nameHash: name, field: 'oracle_id', key: 'oracle_pubkey', prefix: 'ok', pointeeOnly: false },
    ]);
    const call = { type: 'ContractCallTx', caller_id: ak(), contract_id: name };
    const pf = {
      type: 'PayingForTx',
      payer_id: ak(),
      tx: { tx: { type: 'GAMetaTx', ga_id: ak(), tx: { tx: call, signatures: [] } }, signatures: [] },
    };
    expect(nameReferences(pf)).to.deep.equal([
      { nameHash: name, field: 'tx.tx.contract_id', key: 'contract_pubkey', prefix: 'ct', pointeeOnly: true },
    ]);
    // a name in a field the node does not resolve (the name a NameUpdateTx updates) is not a reference
    expect(nameReferences({ type: 'NameUpdateTx', name_id: name })).to.deep.equal([]);
  });

  // issue 44: a name's activities listed a spend sent to it; ae_mdw lists it under the name's account pointer only
  it('lists a spend or a call sent to a name under everything it names but that name; a query or transfer keeps it', () => {
    const name = produceNameId('receiver.chain');
    const [sender, caller, payer] = [ak(), ak(), ak()];
    expect([...indexedIds({ type: 'SpendTx', sender_id: sender, recipient_id: name }).keys()]).to.deep.equal([sender]);
    const call = { type: 'ContractCallTx', caller_id: caller, contract_id: name };
    const pf = { type: 'PayingForTx', payer_id: payer, tx: { tx: call, signatures: [] } };
    expect(Object.fromEntries(indexedIds(pf))).to.deep.equal({ [payer]: ['payer_id'], [caller]: ['tx.caller_id'] });
    // the name itself is a party of these
    expect(indexedIds({ type: 'OracleQueryTx', sender_id: sender, oracle_id: name }).get(name)).to.deep.equal([
      'oracle_id',
    ]);
    expect(
      indexedIds({ type: 'NameTransferTx', account_id: sender, name_id: name, recipient_id: name }).get(name),
    ).to.deep.equal(['name_id', 'recipient_id']);
    // a spend to an account is unchanged
    const to = ak();
    expect(indexedIds({ type: 'SpendTx', sender_id: sender, recipient_id: to })).to.deep.equal(
      referencedIds({ type: 'SpendTx', sender_id: sender, recipient_id: to }),
    );
  });

  it('ignores values that are not ids and tolerates malformed fields', () => {
    expect(referencedIds({ type: 'SpendTx', sender_id: 'none', recipient_id: 42 }).size).to.equal(0);
    expect(createdIds({ type: 'ContractCreateTx', owner_id: 'garbage', nonce: 1 })).to.deep.equal({});
  });

  it('names the names, oracles and channels whose later rows derive from a tx, inner txs and created ids included', () => {
    const [account, other] = [ak(), ak()];
    const claim = { type: 'NameClaimTx', account_id: account, name: 'repair.chain', name_salt: 1, fee: 1, nonce: 0 };
    const meta = { type: 'GAMetaTx', ga_id: account, fee: 1, tx: { tx: claim, signatures: [] } };
    expect(stateIds(meta)).to.deep.equal([produceNameId('repair.chain')]);
    const register = { type: 'OracleRegisterTx', account_id: account, query_format: 'q', fee: 1, nonce: 1 };
    expect(stateIds(register)).to.deep.equal([oracleId(account)]);
    const deposit = {
      type: 'ChannelDepositTx',
      channel_id: channelId(account, 1n, other),
      from_id: account,
      amount: 1,
    };
    expect(stateIds(deposit)).to.deep.equal([channelId(account, 1n, other)]);
    const spend = { type: 'SpendTx', sender_id: account, recipient_id: other, amount: 1, fee: 1, nonce: 1 };
    expect(stateIds(spend), 'accounts carry no state of rows').to.deep.equal([]);
  });
});
