/** @module Ceres naming rules as pure functions over a world state: auctions, bids, expiry and protection. */
import { expect } from 'chai';
import { LOCKED_COINS_ACCOUNT } from '../../src/chain/derived-ids.ts';
import { encode } from '../../src/chain/encoding.ts';
import { getMinimumNameFee } from '@aeternity/aepp-sdk';
import { CERES_BID_EXTENSION, claimMaxExpiration, minimumNameFee, Protocol } from '../../src/chain/aens.ts';
import { NAME_REVOKE_PROTECTION } from '../../src/devnode/rules/fees.ts';
import { commitmentId, nameHash } from '../../src/devnode/ids.ts';
import { TxRejected, applyTx, endAuctions, nameStatus } from '../../src/devnode/rules/apply.ts';
import { isValidOverbid } from '../../src/devnode/rules/names.ts';
import { newState, type WorldState } from '../../src/devnode/store/state.ts';
import type { TxFields } from '../../src/devnode/tx-codec.ts';

const [alice, bob, carol] = [1, 2, 3].map((n) => encode('ak', Buffer.alloc(32, n)));
const FUNDS = 10n ** 24n;
const MAX = claimMaxExpiration(Protocol.CERES);

function world(): WorldState {
  const s = newState();
  for (const a of [alice!, bob!, carol!]) s.accounts.set(a, { balance: FUNDS, nonce: 0 });
  return s;
}

/** act applies `account`'s `tx` in a micro block at `height` after key block `generation` (the next height on a hyperchain). */
function act(s: WorldState, account: string, tx: TxFields, height: number, generation = height): void {
  const nonce = s.accounts.get(account)!.nonce + 1;
  applyTx(s, { account_id: account, nonce, fee: 1, ...tx }, { height, generation, txHash: 'th_test' });
}

function claim(s: WorldState, account: string, name: string, nameFee: bigint, height: number): void {
  act(s, account, { type: 'NameClaimTx', name, name_salt: 0, name_fee: nameFee }, height);
}

/** mine runs the key-block step of each height up to `height`, as the chain does. */
function mine(s: WorldState, from: number, height: number): void {
  for (let h = from + 1; h <= height; h++) endAuctions(s, h);
}

describe('devnode naming rules (Ceres)', () => {
  it("asks the protocol's lowest name fee by the label's length, as aepp-sdk's getMinimumNameFee tables it", () => {
    // every label length with a fee of its own and past it, and a label whose IDNA form is longer than its text
    const names = [...Array.from({ length: 34 }, (_, i) => `${'a'.repeat(i + 1)}.chain`), 'äöü.chain', 'ÄBC.chain'];
    expect(names.map(minimumNameFee)).to.deep.equal(
      names.map((name) => BigInt(getMinimumNameFee(name as `${string}.chain`).toString())),
    );
    expect(minimumNameFee('a.chain')).to.equal(5702887n * 10n ** 14n);
  });

  it('claims a name of 13+ characters without a preclaim at once, for 180000 blocks', () => {
    const s = world();
    const name = 'thirteenchars.chain';
    claim(s, alice!, name, minimumNameFee(name), 10);
    expect(s.names.get(nameHash(name))).to.include({ owner: alice, expires: 10 + MAX });
    expect(s.accounts.get(alice!)!.balance).to.equal(FUNDS - 1n - minimumNameFee(name));
    expect(() => claim(s, bob!, name, minimumNameFee(name), 11)).to.throw(TxRejected, /name_already_taken/);
  });

  it('needs bids 5 % above the last one, in integers, and at least the minimum fee', () => {
    expect(isValidOverbid(105n, 100n)).to.equal(true);
    expect(isValidOverbid(104n, 100n)).to.equal(false);
    expect(isValidOverbid(21n, 20n)).to.equal(true);
    const s = world();
    const name = 'shortname.chain';
    claim(s, alice!, name, 1n, 10);
    expect(() => claim(s, bob!, name, 2n, 11)).to.throw(TxRejected, /invalid_name_fee/);
  });

  it('runs an auction: bids refund the last bidder, a late bid extends the end, the winner gets the name after it', () => {
    const s = world();
    const name = 'shortname.chain'; // 9 characters: 480 blocks
    const id = nameHash(name);
    const fee = minimumNameFee(name);
    claim(s, alice!, name, fee, 100);
    expect(s.auctions.get(id)).to.include({ bidder: alice, ends: 580 });
    expect(nameStatus(s.names.get(id), 101)).to.equal('gone');

    const second = (fee * 105n) / 100n;
    claim(s, bob!, name, second, 200);
    expect(s.accounts.get(alice!)!.balance, 'the outbid fee is refunded').to.equal(FUNDS - 1n);
    expect(s.auctions.get(id)).to.include({ bidder: bob, ends: 580 });

    const third = (second * 106n) / 100n;
    claim(s, carol!, name, third, 500);
    expect(s.accounts.get(bob!)!.balance).to.equal(FUNDS - 1n);
    expect(s.auctions.get(id)).to.include({ bidder: carol, ends: 500 + CERES_BID_EXTENSION });

    mine(s, 0, 740);
    expect(s.names.get(id), 'still in auction at its end height').to.equal(undefined);
    mine(s, 740, 741);
    expect(s.auctions.get(id)).to.equal(undefined);
    expect(s.names.get(id)).to.include({ owner: carol, expires: 740 + MAX });
    expect(s.accounts.get(carol!)!.balance).to.equal(FUNDS - 1n - third);
  });

  it("locks name fees in the locked-coins account as the node does: a claim's at once, an auction's winning bid after its end", () => {
    const s = world();
    const locked = (): bigint | undefined => s.accounts.get(LOCKED_COINS_ACCOUNT)?.balance;
    const long = 'thirteenchars.chain';
    expect(() => claim(s, alice!, long, 0n, 10), 'a name fee of 0').to.throw(TxRejected, /illegal_name_fee/);
    expect(locked(), 'no account before anything is locked (as the node, 404)').to.equal(undefined);
    claim(s, alice!, long, minimumNameFee(long), 10);
    expect(locked()).to.equal(minimumNameFee(long));
    const name = 'shortname.chain';
    const fee = minimumNameFee(name);
    claim(s, alice!, name, fee, 100);
    const second = (fee * 105n) / 100n;
    claim(s, bob!, name, second, 579);
    expect(s.accounts.get(alice!)!.balance, 'the outbid bid returned, not locked').to.equal(
      FUNDS - 2n - minimumNameFee(long),
    );
    expect(locked(), 'the bids are held in the auction').to.equal(minimumNameFee(long));
    mine(s, 0, 579 + CERES_BID_EXTENSION);
    expect(locked(), 'a bid is still taken at the end height').to.equal(minimumNameFee(long));
    mine(s, 579 + CERES_BID_EXTENSION, 580 + CERES_BID_EXTENSION);
    expect(locked(), 'the key block after the end locks the winning bid').to.equal(minimumNameFee(long) + second);
  });

  it('keeps a name claimed through its ttl, then revoked for the protection period, then free', () => {
    const s = world();
    const name = 'thirteenchars.chain';
    const id = nameHash(name);
    claim(s, alice!, name, minimumNameFee(name), 10);
    const entry = s.names.get(id);
    expect(nameStatus(entry, 10 + MAX)).to.equal('claimed');
    expect(nameStatus(entry, 11 + MAX)).to.equal('revoked');
    expect(nameStatus(entry, 10 + MAX + NAME_REVOKE_PROTECTION)).to.equal('revoked');
    expect(nameStatus(entry, 11 + MAX + NAME_REVOKE_PROTECTION)).to.equal('gone');
    expect(() => claim(s, bob!, name, minimumNameFee(name), 11 + MAX)).to.throw(TxRejected, /name_already_taken/);
    claim(s, bob!, name, minimumNameFee(name), 11 + MAX + NAME_REVOKE_PROTECTION);
    expect(s.names.get(id)).to.include({ owner: bob });
  });

  it('updates, transfers, revokes and resolves a name in the generation its ttl ends in, at the next height on a hyperchain', () => {
    const s = world();
    const name = 'thirteenchars.chain';
    const id = nameHash(name);
    claim(s, alice!, name, minimumNameFee(name), 10);
    const pointers = [{ key: 'account_pubkey', id: carol! }];
    act(s, alice!, { type: 'NameUpdateTx', name_id: id, name_ttl: 100, pointers, client_ttl: 0 }, 11);
    expect(s.names.get(id)).to.include({ expires: 111 });
    // generation 111, its micro blocks at 112: the node revokes the name only with key block 112
    const update: TxFields = { type: 'NameUpdateTx', name_id: id, name_ttl: 10, pointers, client_ttl: 0 };
    const transfer: TxFields = { type: 'NameTransferTx', name_id: id, recipient_id: bob! };
    const revoke: TxFields = { type: 'NameRevokeTx', name_id: id };
    const spend: TxFields = { type: 'SpendTx', sender_id: bob!, recipient_id: id, amount: 5 };
    for (const tx of [update, transfer, revoke]) {
      act(newState(s), alice!, tx, 112, 111);
      expect(() => act(newState(s), alice!, tx, 113, 112), String(tx.type)).to.throw(TxRejected, /not found/);
    }
    act(s, bob!, spend, 112, 111);
    expect(s.accounts.get(carol!)!.balance).to.equal(FUNDS + 5n);
    expect(() => act(newState(s), bob!, spend, 113, 112)).to.throw(TxRejected, /not found/);
  });

  it('claims a preclaimed name in the generation the commitment ends in, and takes no second preclaim until it is pruned', () => {
    const s = world();
    const name = 'thirteenchars.chain';
    const preclaim: TxFields = { type: 'NamePreclaimTx', commitment_id: commitmentId(name, 7) };
    // preclaimed at 11 (generation 10 on a hyperchain): the commitment's ttl is 311, pruned by key block 312
    act(s, alice!, preclaim, 11, 10);
    expect(() => act(newState(s), alice!, preclaim, 312, 311)).to.throw(TxRejected, /already exists/);
    act(newState(s), alice!, preclaim, 313, 312);
    const salted: TxFields = { type: 'NameClaimTx', name, name_salt: 7, name_fee: minimumNameFee(name) };
    expect(() => act(newState(s), alice!, salted, 313, 312)).to.throw(TxRejected, /name_not_preclaimed/);
    act(s, alice!, salted, 312, 311);
    expect(s.names.get(nameHash(name))).to.include({ owner: alice, expires: 312 + MAX });
  });
});
