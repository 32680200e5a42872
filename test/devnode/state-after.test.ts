/**
 * @module The devnode's state after a past block (`/v2/accounts/{id}/hash/{hash}` and every read at a block): rebuilt
 * from the nearest kept state below the block, it equals the state replayed from genesis, whatever order the blocks
 * are read in.
 */
import { expect } from 'chai';
import { generateChain, type Chain } from '../../src/devnode/index.ts';
import type { WorldState } from '../../src/devnode/state.ts';

const GENERATIONS = 60;

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
  const generate = (): Chain => generateChain({ generations: GENERATIONS, seed: 'state-after' }).chain;

  it('read block after block (each continued from the one before) equals each replayed from genesis', () => {
    const forward = generate();
    // read newest first, a state below each block is never kept: each is replayed from genesis
    const backward = generate();
    const hashes = blockHashes(forward);
    expect(blockHashes(backward)).to.deep.equal(hashes);
    const fromGenesis = new Map(hashes.toReversed().map((h) => [h, contents(backward.stateAfter(h)!)]));
    // every third block forward, then the ones between (a kept state above the block is of no use)
    const order = [...hashes.filter((_, i) => i % 3 === 0), ...hashes.filter((_, i) => i % 3 !== 0)];
    for (const h of order) expect(contents(forward.stateAfter(h)!), h).to.deep.equal(fromGenesis.get(h));
  });

  it('answers for a block of the chain only', () => {
    expect(generate().stateAfter('kh_2gavMMrzY9kvBjroNcVtNChqdHYHjgNZMr9NeHzmpPe9k5sjsA')).to.equal(undefined);
  });
});
