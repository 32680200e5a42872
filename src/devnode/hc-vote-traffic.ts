/**
 * @module A hyperchain's epoch votes (HCVoteTx, node 7.3) for the generator's mix, behind `hcVotes`: a hyperchain's
 * validators vote on each epoch's end, a main chain never holds one (so a chain generated as mainnet's has none).
 */
import { encode } from '../chain/encoding.ts';
import type { BuiltTx, TrafficKit, WeightedMaker } from './traffic-kit.ts';

/** EPOCH_GENERATIONS: the generated chain's epoch length, in key blocks. */
const EPOCH_GENERATIONS = 10;

/**
 * hcVoteMakers builds votes: an epoch of ten generations, a vote type only the bytes carry (the node's JSON does not
 * show it) and data of texts, as the node keeps it.
 */
export function hcVoteMakers(kit: TrafficKit): WeightedMaker[] {
  const vote = (height: number): BuiltTx => {
    const voter = kit.account();
    const epoch = Math.floor(height / EPOCH_GENERATIONS) + 1;
    const data = { epoch: String(epoch), fork: encode('kh', kit.rng.bytes(32)) };
    return {
      tx: { type: 'HCVoteTx', version: 1, voter_id: voter.address, epoch, vote_type: kit.rng.int(0, 2), data },
      signers: [voter],
    };
  };
  return [[1, vote]];
}
