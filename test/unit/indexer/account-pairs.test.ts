/** @module The (sender, recipient) pairs the writer adds beside the account rows (migration 1077). */
import { expect } from 'chai';
import { randomBytes } from 'node:crypto';
import { produceNameId } from '@aeternity/aepp-sdk';
import { encode } from '../../../src/chain/encoding.ts';
import { accountPairs } from '../../../src/indexer/rows/account-pairs.ts';
import type { AccountTxRow, FetchedGeneration, JsonObject } from '../../../src/indexer/rows/rows.ts';
import { transformGeneration } from '../../../src/indexer/rows/transform.ts';

const id = (p: 'ak' | 'kh' | 'mh' | 'th' | 'ok'): string => encode(p, randomBytes(32));
const [alice, bob, carol] = [id('ak'), id('ak'), id('ak')];

const signed = (tx: JsonObject): JsonObject => ({ tx, hash: id('th'), signatures: [] });

/** the account rows of one micro block of `txs`, as the transform makes them */
function accountRows(txs: JsonObject[]): AccountTxRow[] {
  const kh = id('kh');
  const gen: FetchedGeneration = {
    height: 10,
    keyBlock: {
      hash: kh,
      height: 10,
      prev_hash: id('kh'),
      prev_key_hash: id('kh'),
      miner: alice,
      beneficiary: bob,
      time: 1,
      version: 5,
    },
    microBlocks: [
      { header: { hash: id('mh'), height: 10, time: 2, prev_hash: kh, prev_key_hash: kh }, transactions: txs },
    ],
    callInfos: new Map(),
    decodedCalls: new Map(),
  };
  return transformGeneration(gen).accountTxs;
}

const spend = (sender: string, recipient: string): JsonObject => ({
  type: 'SpendTx',
  sender_id: sender,
  recipient_id: recipient,
  amount: 1,
  fee: 1,
  nonce: 1,
});
const ends = (pairs: ReturnType<typeof accountPairs>): [number, string, string][] =>
  pairs.map((p) => [p.txIndex, p.sender, p.recipient]);

describe('accountPairs', () => {
  it('pairs each transaction sending from one id to another, outer or wrapped, itself included', () => {
    const rows = accountRows([
      signed(spend(alice, bob)),
      signed(spend(carol, carol)),
      signed({ type: 'PayingForTx', payer_id: bob, nonce: 1, fee: 1, tx: { tx: spend(carol, alice), signatures: [] } }),
      signed({
        type: 'GAMetaTx',
        ga_id: alice,
        auth_data: 'cb_Xfbg4g==',
        abi_version: 3,
        fee: 1,
        gas: 1,
        gas_price: 1,
        tx: { tx: spend(alice, carol), signatures: [] },
      }),
      // a sender without a recipient, and a recipient without a sender: no pair
      signed({
        type: 'OracleQueryTx',
        sender_id: bob,
        oracle_id: id('ok'),
        query: 'q',
        query_fee: 1,
        query_ttl: { type: 'delta', value: 1 },
        response_ttl: { type: 'delta', value: 1 },
        fee: 1,
        nonce: 2,
      }),
      signed({
        type: 'NameTransferTx',
        account_id: alice,
        name_id: produceNameId('pairs.chain'),
        recipient_id: bob,
        fee: 1,
        nonce: 3,
      }),
    ]);
    expect(ends(accountPairs(rows, []))).to.deep.equal([
      [0, alice, bob],
      [1, carol, carol],
      [2, carol, alice],
      [3, alice, carol],
    ]);
  });

  it("pairs a recipient reached through a name, unless the id has a row of its own there (the writer's first wins)", () => {
    const direct = accountRows([
      signed(spend(alice, produceNameId('bob.chain'))),
      signed(spend(bob, produceNameId('bob.chain'))),
    ]);
    const reached = (row: AccountTxRow, account: string): AccountTxRow => ({
      ...row,
      account,
      fields: ['recipient_id'],
    });
    const [toName, fromBob] = [direct.find((r) => r.txIndex === 0)!, direct.find((r) => r.txIndex === 1)!];
    // bob's row as the second spend's sender stays as it is: the name reaching him adds nothing there
    expect(
      ends(accountPairs(direct, [reached(toName, bob), reached(fromBob, bob), reached(toName, bob)])),
    ).to.deep.equal([[0, alice, bob]]);
  });
});
