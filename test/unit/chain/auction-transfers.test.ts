import { expect } from 'chai';
import { auctionTransfers, type AuctionEvent } from '../../../src/chain/auction-transfers.ts';

const [alice, bob, contract] = ['ak_alice', 'ak_bob', 'ak_contract'];

/** event is a claim or bid of `name` at `height` (micro block 0, index `txIndex`), its auction ending at `end`. */
function event(
  name: string,
  kind: 'claim' | 'bid',
  height: number,
  owner: string,
  nameFee: bigint,
  end: number,
  txIndex = 0,
): AuctionEvent {
  return {
    height,
    microIndex: 0,
    txIndex,
    nameHash: `nm_${name}`,
    kind,
    owner,
    nameFee,
    auctionEnd: end,
    txHash: `th_${name}_${height}_${txIndex}`,
  };
}

const ALL = { from: 0, to: 1000, fromMicro: -1 };

describe('auctionTransfers (chain/auction-transfers.ts)', () => {
  it("refunds an outbid bid to its bidder at the bid outbidding it, whoever bid: an account's claim, a contract's", () => {
    const events = [
      event('x', 'claim', 10, alice, 100n, 490),
      // the contract outbids the account, an account outbids the contract
      event('x', 'bid', 12, contract, 200n, 490),
      event('x', 'bid', 14, bob, 400n, 490),
    ];
    const refunds = auctionTransfers(events, ALL).filter((t) => t.kind === 'fee_refund_name');
    expect(refunds).to.deep.equal([
      {
        height: 12,
        microIndex: 0,
        txIndex: 0,
        kind: 'fee_refund_name',
        account: alice,
        amount: 100n,
        txHash: 'th_x_10_0',
      },
      {
        height: 14,
        microIndex: 0,
        txIndex: 0,
        kind: 'fee_refund_name',
        account: contract,
        amount: 200n,
        txHash: 'th_x_12_0',
      },
    ]);
  });

  it("locks each auction's last bid at the key block after its end, a contract's as an account's", () => {
    const events = [
      event('x', 'claim', 10, alice, 100n, 490),
      event('y', 'claim', 11, contract, 50n, 491),
      event('x', 'bid', 12, contract, 200n, 490),
      event('z', 'claim', 13, alice, 70n, 493),
      event('x', 'bid', 14, bob, 400n, 490),
      event('z', 'bid', 15, contract, 140n, 493),
    ];
    const locks = auctionTransfers(events, ALL).filter((t) => t.kind === 'fee_lock_name');
    expect(locks).to.deep.equal([
      {
        height: 491,
        microIndex: -1,
        txIndex: -1,
        kind: 'fee_lock_name',
        account: bob,
        amount: 400n,
        txHash: 'th_x_14_0',
      },
      {
        height: 492,
        microIndex: -1,
        txIndex: -1,
        kind: 'fee_lock_name',
        account: contract,
        amount: 50n,
        txHash: 'th_y_11_0',
      },
      {
        height: 494,
        microIndex: -1,
        txIndex: -1,
        kind: 'fee_lock_name',
        account: contract,
        amount: 140n,
        txHash: 'th_z_15_0',
      },
    ]);
  });

  it('gives them in chain order, a refund of a place before a lock at a later key block', () => {
    const events = [event('x', 'claim', 10, alice, 100n, 20), event('y', 'claim', 15, alice, 10n, 25)];
    events.push(event('y', 'bid', 22, bob, 20n, 25));
    expect(auctionTransfers(events, ALL).map((t) => [t.height, t.kind])).to.deep.equal([
      [21, 'fee_lock_name'],
      [22, 'fee_refund_name'],
      [26, 'fee_lock_name'],
    ]);
  });

  it("locks an auction's winner when a claim after its end opened another one", () => {
    const events = [
      event('x', 'claim', 10, alice, 100n, 20),
      event('x', 'bid', 15, bob, 200n, 20),
      // the name expired, claimed again: no refund, its own auction
      event('x', 'claim', 300, alice, 100n, 310),
    ];
    expect(auctionTransfers(events, ALL).map((t) => [t.height, t.kind, t.account, t.amount])).to.deep.equal([
      [15, 'fee_refund_name', alice, 100n],
      [21, 'fee_lock_name', bob, 200n],
      [311, 'fee_lock_name', alice, 100n],
    ]);
  });

  it('places only what falls in the range: heights from..to, from micro block fromMicro of `from` on', () => {
    const events = [
      event('x', 'claim', 10, alice, 100n, 20),
      event('x', 'bid', 12, contract, 200n, 20),
      { ...event('x', 'bid', 13, bob, 400n, 20), microIndex: 2 },
    ];
    // the bid at 13's micro block 2 is in, the one at 12 and the end's lock at 21 are not
    expect(
      auctionTransfers(events, { from: 13, to: 20, fromMicro: 1 }).map((t) => [t.height, t.account]),
    ).to.deep.equal([[13, contract]]);
    expect(auctionTransfers(events, { from: 13, to: 20, fromMicro: 3 })).to.deep.equal([]);
    // the key block after the end is at micro −1: in a range from that height's key block on only
    expect(auctionTransfers(events, { from: 21, to: 21, fromMicro: -1 }).map((t) => [t.kind, t.amount])).to.deep.equal([
      ['fee_lock_name', 400n],
    ]);
    expect(auctionTransfers(events, { from: 21, to: 21, fromMicro: 0 })).to.deep.equal([]);
  });
});
