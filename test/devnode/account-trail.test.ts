/**
 * @module The account trail (src/devnode/store/account-trail.ts): the accounts a replay to a past block wrote block by
 * block answer a read at any block it passed (the last write at or before it, else the state it started from), a
 * block no replay passed is not answered, and the least recently read replays go first past either bound.
 */
import { expect } from 'chai';
import { AccountTrail, blockKey } from '../../src/devnode/store/account-trail.ts';
import { commitState, newState, type WorldState } from '../../src/devnode/store/state.ts';

const account = (balance: bigint): { balance: bigint; nonce: number } => ({ balance, nonce: 0 });

/** replay records blocks 1..n of height 5 over `base`, block i setting A's balance to i (and deleting B at 2) */
function replay(trail: AccountTrail, base: WorldState, n: number, first = 1): void {
  const recorder = trail.start(base);
  const state = newState(base);
  for (let i = first; i < first + n; i++) {
    const layer = newState(state);
    layer.accounts.set('ak_A', account(BigInt(i)));
    if (i === 2) layer.accounts.delete('ak_B');
    recorder.block(blockKey(5, i), layer, state);
    commitState(layer);
  }
}

describe('devnode: the account trail of replays to past blocks', () => {
  const base = newState();
  base.accounts.set('ak_A', account(100n));
  base.accounts.set('ak_B', account(7n));
  base.accounts.set('ak_C', account(3n));
  base.contracts.set('ct_C', { id: 'ct_C', ownerId: 'ak_A', vmVersion: 7, abiVersion: 3, deposit: 0n, code: 'cb_' });

  it('answers a block a replay passed from its writes up to the block, else from the state it started from', () => {
    const trail = new AccountTrail(16, 1000);
    replay(trail, base, 4);
    expect(trail.read(blockKey(5, 3), 'ak_A', 'ct_A')).to.deep.equal({ account: account(3n), contract: undefined });
    // B deleted at block 2: still there after block 1
    expect(trail.read(blockKey(5, 1), 'ak_B', 'ct_B')?.account).to.deep.equal(account(7n));
    expect(trail.read(blockKey(5, 2), 'ak_B', 'ct_B')?.account).to.equal(undefined);
    // C never written: the state the replay started from, its contract too
    expect(trail.read(blockKey(5, 4), 'ak_C', 'ct_C')).to.deep.equal({
      account: account(3n),
      contract: base.contracts.get('ct_C'),
    });
    // no replay passed block 5 of height 5, nor the key block
    expect(trail.read(blockKey(5, 5), 'ak_A', 'ct_A')).to.equal(undefined);
    expect(trail.read(blockKey(5, -1), 'ak_A', 'ct_A')).to.equal(undefined);
  });

  it('drops the least recently read replays past its bounds, the newest always kept', () => {
    // 2 replays at most: the first, read since, stays; the second goes when a third comes
    const trail = new AccountTrail(2, 1000);
    replay(trail, base, 2, 1);
    replay(trail, base, 2, 11);
    expect(trail.read(blockKey(5, 1), 'ak_A', 'ct_A')?.account).to.deep.equal(account(1n));
    replay(trail, base, 2, 21);
    expect(trail.read(blockKey(5, 2), 'ak_A', 'ct_A')?.account).to.deep.equal(account(2n));
    expect(trail.read(blockKey(5, 11), 'ak_A', 'ct_A')).to.equal(undefined);
    expect(trail.read(blockKey(5, 22), 'ak_A', 'ct_A')?.account).to.deep.equal(account(22n));
    // by the writes held: one replay of 4 writes past a bound of 3 stays alone
    const small = new AccountTrail(16, 3);
    replay(small, base, 2, 1);
    replay(small, base, 4, 11);
    expect(small.read(blockKey(5, 1), 'ak_A', 'ct_A')).to.equal(undefined);
    expect(small.read(blockKey(5, 14), 'ak_A', 'ct_A')?.account).to.deep.equal(account(14n));
    // the state a replay started from counts (it keeps it alive): 3 writes over an empty state, then 1 over `base`'s 4
    // values pass a bound of 6
    const based = new AccountTrail(16, 6);
    replay(based, newState(), 2, 1);
    replay(based, base, 1, 11);
    expect(based.read(blockKey(5, 1), 'ak_A', 'ct_A')).to.equal(undefined);
    expect(based.read(blockKey(5, 11), 'ak_A', 'ct_A')?.account).to.deep.equal(account(11n));
  });
});
