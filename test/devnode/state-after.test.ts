/**
 * @module The devnode's state after a past block (`/v2/accounts/{id}/hash/{hash}` and every read at a block): rebuilt
 * from the nearest kept state below the block (a state read before, or a checkpoint kept as the chain grew), it equals
 * the state replayed from genesis, whatever order the blocks are read in, and so does the committed state after a fork.
 */
import { expect } from 'chai';
import { generateChain, type Chain } from '../../src/devnode/index.ts';
import type { Checkpoints } from '../../src/devnode/chain.ts';
import type { WorldState } from '../../src/devnode/store/state.ts';
import { encode, reprefix } from '../../src/chain/encoding.ts';

// each block's state replayed from genesis makes the cases quadratic in the chain's length: 30 generations hold every
// kind of kept state (below), at a quarter of 60's work
const GENERATIONS = 30;

/** every block hash of the chain in chain order (each key block, then its micro blocks) */
const blockHashes = (chain: Chain): string[] =>
  chain.keyBlocks.flatMap((kb) => [kb.hash, ...kb.micro.map((m) => m.hash)]);

/** contents is a state's every live entry, map by map, in a stable order */
const contents = (state: WorldState): Record<string, [string, unknown][]> =>
  Object.fromEntries(
    Object.entries(state).map(([name, map]) => [
      name,
      [...(map as WorldState['accounts']).entries()].sort(([a], [b]) => a.localeCompare(b)),
    ]),
  );

describe('devnode: the state after a past block', function () {
  this.timeout(60_000);
  // no waypoints unless asked: a state read first is then replayed from genesis (the tests' oracle)
  const generate = (checkpoints: Checkpoints = { spacing: 0, kept: 0 }, waypointSpacing = 0): Chain =>
    generateChain({ generations: GENERATIONS, seed: 'state-after', checkpoints, waypointSpacing }).chain;
  /** every key block, at most 3 kept: thinned (folded, the spacing doubled) three times over 30 generations (at 4, 8
   * and 16), leaving 8, 16 and 24 */
  const CHECKPOINTED = { spacing: 1, kept: 3 };
  /**
   * the oracle, made once for the cases that only read (the fork's chains are its own): a chain without kept states
   * read newest first, so each block's state is replayed from genesis, and that state's contents by block hash
   */
  let oracle: { chain: Chain; hashes: string[]; after: Map<string, Record<string, [string, unknown][]>> };
  before(() => {
    const chain = generate();
    const hashes = blockHashes(chain);
    oracle = { chain, hashes, after: new Map(hashes.toReversed().map((h) => [h, contents(chain.stateAfter(h)!)])) };
  });

  it('read block after block (each continued from the one before) equals each replayed from genesis', () => {
    const forward = generate();
    const hashes = blockHashes(forward);
    expect(oracle.hashes).to.deep.equal(hashes);
    // every third block forward, then the ones between (a kept state above the block is of no use)
    const order = [...hashes.filter((_, i) => i % 3 === 0), ...hashes.filter((_, i) => i % 3 !== 0)];
    for (const h of order) expect(contents(forward.stateAfter(h)!), h).to.deep.equal(oracle.after.get(h));
  });

  it('read from checkpoints, thinned as the chain grew, equals each replayed from genesis in any order', () => {
    const checkpointed = generate(CHECKPOINTED);
    const hashes = blockHashes(checkpointed);
    expect(oracle.hashes).to.deep.equal(hashes);
    expect(contents(checkpointed.state)).to.deep.equal(contents(oracle.chain.state));
    // newest first (no read kept below: each from a checkpoint), then every fifth forward, then the rest
    const order = [...hashes.toReversed(), ...hashes.filter((_, i) => i % 5 === 0), ...hashes.filter((_, i) => i % 5)];
    for (const h of order) expect(contents(checkpointed.stateAfter(h)!), h).to.deep.equal(oracle.after.get(h));
  });

  it('read from waypoints a replay kept, inside ranges read before, equals each replayed from genesis', () => {
    // waypoints every 4 key blocks, over checkpoints: a bisection's reads below the last one start from a waypoint
    const waypointed = generate(CHECKPOINTED, 4);
    const hashes = blockHashes(waypointed);
    expect(oracle.hashes).to.deep.equal(hashes);
    // a bisection of the whole chain (each middle first, then its halves), then every block newest first
    const bisected = (lo: number, hi: number): number[] => {
      const mid = Math.floor((lo + hi) / 2);
      return hi - lo < 1 ? [] : [mid, ...bisected(lo, mid), ...bisected(mid + 1, hi)];
    };
    const order = [...bisected(0, hashes.length).map((i) => hashes[i]!), ...hashes.toReversed()];
    for (const h of order) expect(contents(waypointed.stateAfter(h)!), h).to.deep.equal(oracle.after.get(h));
  });

  it('an account read at a block a replay passed equals the state replayed from genesis, in any order', () => {
    // waypoints every 4 key blocks over checkpoints: a read below an earlier one is answered from the accounts the
    // replay to the earlier one wrote as it passed the block (Chain.accountAfter), no replay of its own
    const trailed = generate(CHECKPOINTED, 4);
    const hashes = blockHashes(trailed);
    expect(oracle.hashes).to.deep.equal(hashes);
    const top = oracle.chain.state;
    const ids = [...top.accounts.entries()].map(([id]) => id);
    // the contracts' accounts (their entry too) and an account no block ever wrote
    expect(ids.filter((id) => top.contracts.get(reprefix(id, 'ct')))).to.have.length.above(0);
    const unknown = encode('ak', new Uint8Array(32).fill(7));
    expect(ids).to.not.include(unknown);
    const bisected = (lo: number, hi: number): number[] => {
      const mid = Math.floor((lo + hi) / 2);
      return hi - lo < 1 ? [] : [mid, ...bisected(lo, mid), ...bisected(mid + 1, hi)];
    };
    // the last block first (one replay from the newest checkpoint below), a bisection, then every block newest first
    const order = [hashes.length - 1, ...bisected(0, hashes.length), ...[...hashes.keys()].toReversed()];
    for (const i of order) {
      const h = hashes[i]!;
      const after = oracle.after.get(h)!;
      const [accounts, contracts] = [new Map(after.accounts), new Map(after.contracts)];
      for (const id of [...ids, unknown]) {
        const expected = { account: accounts.get(id), contract: contracts.get(reprefix(id, 'ct')) };
        expect(trailed.accountAfter(h, id), `${id} after block ${i}`).to.deep.equal(expected);
      }
    }
    expect(trailed.accountAfter('kh_2gavMMrzY9kvBjroNcVtNChqdHYHjgNZMr9NeHzmpPe9k5sjsA', ids[0]!)).to.equal(undefined);
  });

  it('a fork rebuilds from the newest checkpoint below it what a replay from genesis gives', () => {
    const checkpointed = generate(CHECKPOINTED);
    const rebuilt = generate();
    // depth 1 (above the newest checkpoint), then deeper than several, then the chain grown again and forked again
    for (const depth of [1, 20, 7]) {
      checkpointed.fork(depth);
      rebuilt.fork(depth);
      expect(blockHashes(checkpointed)).to.deep.equal(blockHashes(rebuilt));
      expect(contents(checkpointed.state), `after a fork of ${depth}`).to.deep.equal(contents(rebuilt.state));
      // the same blocks on both: mined fields fixed, not drawn
      for (const chain of [checkpointed, rebuilt])
        for (let i = 0; i < 5; i++)
          chain.mineKeyBlock({ nonce: BigInt(i), pow: new Array(42).fill(i), time: chain.top.header.time + 180_000 });
    }
    for (const h of blockHashes(rebuilt).toReversed())
      expect(contents(checkpointed.stateAfter(h)!), h).to.deep.equal(contents(rebuilt.stateAfter(h)!));
  });

  it('answers for a block of the chain only', () => {
    expect(oracle.chain.stateAfter('kh_2gavMMrzY9kvBjroNcVtNChqdHYHjgNZMr9NeHzmpPe9k5sjsA')).to.equal(undefined);
  });
});
