/**
 * @module The name events of contracts' AENS calls (issue 76): each internal call's action at its call's place, and
 * their fold with the name transactions' actions, each onto the name's event before it, a transaction's or a contract's.
 */
import { expect } from 'chai';
import { produceNameId } from '@aeternity/aepp-sdk';
import {
  contractNameActions,
  contractPointerRows,
  foldNameEvents,
  storedNameTxAction,
  type CallPlace,
  type FoldedNameAction,
} from '../../../src/indexer/derived/contract-names.ts';
import type { StoredInternalCall } from '../../../src/db/writes/internal-calls.ts';

const registrar = 'ak_Gs3QXYZSEsNEmLkKrVVoeSyvJNrn9VzKXupWVtx2vu3gYryzv';
const alice = 'ak_PVqr3a5SwRSQdbYxURGHPPybGAPrUjNmidgRK5NcXHfz7yKho';
const NAME = 'registrar0000xilw5du.chain';
// the SDK's name hash: an encoder independent of ours
const ID = produceNameId(NAME);
const PROTOCOL = 6; // Ceres: a claim lives 180 000 generations

const at = (height: number, txIndex: number, localIdx = 0) => ({ height, microIndex: 0, txIndex, localIdx });
const place = (height: number, txIndex: number): [string, CallPlace] => [
  `${height}-0-${txIndex}`,
  { txHash: `th_${height}_${txIndex}`, blockHeight: height, protocol: PROTOCOL },
];
const claim = (height: number, txIndex: number, localIdx = 0): StoredInternalCall => ({
  ...at(height, txIndex, localIdx),
  function: 'AENS.claim',
  internalTx: { account_id: registrar, name: NAME, name_salt: 0, name_fee: 61n * 10n ** 15n, fee: 0, nonce: 0, ttl: 1 },
});
/** alicePointer: the pointer as the node renders it in the call's transaction, and in the name it sets */
const alicePointer = { encoded_key: 'ba_YWNjb3VudF9wdWJrZXn8jckR', id: alice, key: 'account_pubkey' };
const update = (height: number, txIndex: number, nameTtl: number, localIdx = 0): StoredInternalCall => ({
  ...at(height, txIndex, localIdx),
  function: 'AENS.update',
  internalTx: {
    account_id: registrar,
    name_id: ID,
    name_ttl: nameTtl,
    pointers: [alicePointer],
    client_ttl: 0,
    fee: 0,
    nonce: 0,
    ttl: 0,
  },
});
const transfer = (height: number, txIndex: number): StoredInternalCall => ({
  ...at(height, txIndex),
  function: 'AENS.transfer',
  internalTx: { account_id: registrar, name_id: ID, recipient_id: alice, fee: 0, nonce: 0, ttl: 0 },
});

describe('contractNameActions and foldNameEvents', () => {
  const places = new Map([place(10, 1), place(12, 0), place(15, 2), place(20, 0)]);
  const fold = (calls: StoredInternalCall[], txs: FoldedNameAction[] = []) =>
    foldNameEvents(new Map(), [...txs, ...contractNameActions(calls, places)]).map((e) => ({
      at: `${e.height}-${e.txIndex}-${e.localIdx}`,
      kind: e.kind,
      owner: e.owner,
      expiresAt: e.expiresAt,
      pointers: e.pointers,
      txHash: e.txHash,
    }));

  it('makes a claim of a long name the contract owns at once, in the calling transaction', () => {
    expect(fold([claim(10, 1)])).to.deep.equal([
      { at: '10-1-0', kind: 'claim', owner: registrar, expiresAt: 180_010, pointers: [], txHash: 'th_10_1' },
    ]);
  });

  it("reads an AENS.update's name_ttl as the expiry itself, and 0 as the expiry kept", () => {
    const pointers = [alicePointer];
    expect(fold([claim(10, 1), update(12, 0, 190_000), update(15, 2, 0)]).slice(1)).to.deep.equal([
      { at: '12-0-0', kind: 'update', owner: registrar, expiresAt: 190_000, pointers, txHash: 'th_12_0' },
      { at: '15-2-0', kind: 'update', owner: registrar, expiresAt: 190_000, pointers, txHash: 'th_15_2' },
    ]);
  });

  it("folds onto a name transaction's event between the contract's", () => {
    const updated = storedNameTxAction({
      nameHash: ID,
      height: 12,
      microIndex: 0,
      txIndex: 3,
      txHash: 'th_12_3',
      blockHeight: 12,
      protocol: PROTOCOL,
      tx: { type: 'NameUpdateTx', account_id: registrar, name_id: ID, name_ttl: 99_988, pointers: [], client_ttl: 0 },
    });
    const [, , transferred] = fold([claim(10, 1), transfer(15, 2)], [updated]);
    expect(transferred).to.deep.include({ kind: 'transfer', owner: alice, expiresAt: 100_000 });
  });

  it('makes a NameClaimTx after a contract opened the auction, wrapped in a PayingForTx too, a bid of that auction', () => {
    // 8 characters: an auction of 960 generations from Ceres
    const name = 'shortcon.chain';
    const id = produceNameId(name);
    const opened = { ...claim(10, 1), internalTx: { ...claim(10, 1).internalTx, name, name_fee: 100n } };
    const bid = { type: 'NameClaimTx', account_id: alice, name, name_salt: 0, name_fee: 200n, fee: 1, nonce: 1 };
    const at = { nameHash: id, height: 12, microIndex: 0, txIndex: 0, txHash: 'th_12_0', blockHeight: 12 };
    const wrapped = { type: 'PayingForTx', tx: { signatures: [], tx: bid } };
    for (const tx of [bid, wrapped]) {
      const events = foldNameEvents(new Map(), [
        storedNameTxAction({ ...at, protocol: PROTOCOL, tx }),
        ...contractNameActions([opened], places),
      ]);
      expect(events.map((e) => [e.kind, e.owner, e.nameFee, e.auctionEnd, e.localIdx])).to.deep.equal([
        ['claim', registrar, '100', 10 + 960, 0],
        ['bid', alice, '200', 10 + 960, null],
      ]);
    }
  });

  it('gives a call acting twice on a name one event: the state after it, listed as its claim', () => {
    expect(fold([claim(20, 0, 0), update(20, 0, 200_000, 1)])).to.deep.equal([
      {
        at: '20-0-0',
        kind: 'claim',
        owner: registrar,
        expiresAt: 200_000,
        pointers: [alicePointer],
        txHash: 'th_20_0',
      },
    ]);
  });

  it('skips internal calls that act on no name and calls without a place', () => {
    const spend: StoredInternalCall = { ...at(10, 1, 1), function: 'Chain.spend', internalTx: { amount: 1 } };
    expect(contractNameActions([spend, claim(99, 9)], places)).to.deep.equal([]);
  });
});

describe('contractPointerRows', () => {
  const places = new Map([place(12, 0), place(15, 2)]);
  const bob = 'ak_2dL2uyXgzuvNfdNZzttGHvLNcQfySBFauxJSMNgYBjEQq2mTgH';
  const pointing = (call: StoredInternalCall, pointers: { key: string; id: string }[]): StoredInternalCall => ({
    ...call,
    internalTx: { ...call.internalTx, pointers },
  });
  const rows = (calls: StoredInternalCall[]) =>
    contractPointerRows(contractNameActions(calls, places)).map((r) => ({
      at: `${r.height}-${r.txIndex}-${r.localIdx}`,
      nameHash: r.nameHash,
      key: r.key,
      id: r.id,
    }));

  it("gives each key of an update's pointers its id, at the call, a key repeated keeping its last id", () => {
    const call = pointing(update(12, 0, 0), [
      { key: 'account_pubkey', id: alice },
      { key: 'oracle_pubkey', id: alice },
      { key: 'account_pubkey', id: bob },
    ]);
    expect(rows([call])).to.deep.equal([
      { at: '12-0-0', nameHash: ID, key: 'account_pubkey', id: bob },
      { at: '12-0-0', nameHash: ID, key: 'oracle_pubkey', id: alice },
    ]);
  });

  it("keeps a call's last update of a name only (an update replaces the pointers), and no other action", () => {
    const first = pointing(update(15, 2, 0, 1), [{ key: 'oracle_pubkey', id: alice }]);
    const last = pointing(update(15, 2, 0, 3), [{ key: 'account_pubkey', id: bob }]);
    expect(rows([claim(15, 2, 0), last, first, transfer(15, 2)])).to.deep.equal([
      { at: '15-2-3', nameHash: ID, key: 'account_pubkey', id: bob },
    ]);
    expect(rows([update(12, 0, 0), pointing(update(15, 2, 0), [])])).to.deep.equal([
      { at: '12-0-0', nameHash: ID, key: 'account_pubkey', id: alice },
    ]);
  });
});
