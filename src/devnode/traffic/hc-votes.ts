/**
 * @module A hyperchain's epoch votes (HCVoteTx, node 7.3): random ones for the generator's mix, behind `hcVotes`, and
 * the votes a hyperchain's validators cast at each epoch's end (the node's aec_eoe_fork_vote: the last leader
 * proposes the block that closes the epoch, the others vote for it). A main chain never holds one.
 */
import { encode } from '../../chain/encoding.ts';
import type { KeyPair } from '../keys.ts';
import { signBytes } from '../keys.ts';
import type { TrafficKit, WeightedMaker } from './kit.ts';
import type { BuiltTx } from '../tx-codec.ts';

/** EPOCH_GENERATIONS: the generated chain's epoch length, in key blocks. */
const EPOCH_GENERATIONS = 10;

/** VoteType: aec_eoe_fork_vote's proposal and vote. */
const VoteType = { PROPOSAL: 1, VOTE: 2 } as const;

/** hcVoteTx is an HCVoteTx of `voter` (its data as texts, as the devnode keeps them). */
function hcVoteTx(voter: KeyPair, epoch: number, voteType: number, data: Record<string, string>): BuiltTx {
  return {
    tx: { type: 'HCVoteTx', version: 1, voter_id: voter.address, epoch, vote_type: voteType, data },
    signers: [voter],
  };
}

/**
 * hcVoteMakers builds votes: an epoch of ten generations, a vote type only the bytes carry (the node's JSON does not
 * show it) and data of texts, as the node keeps it.
 */
export function hcVoteMakers(kit: TrafficKit): WeightedMaker[] {
  const vote = (height: number): BuiltTx => {
    const epoch = Math.floor(height / EPOCH_GENERATIONS) + 1;
    const data = { epoch: String(epoch), fork: encode('kh', kit.rng.bytes(32)) };
    return hcVoteTx(kit.account(), epoch, kit.rng.int(0, 2), data);
  };
  return [[1, vote]];
}

/** EpochEnd is the block an epoch's last leader proposes to close it with. */
export interface EpochEnd {
  readonly epoch: number;
  readonly height: number;
  readonly blockHash: string;
  readonly leader: string;
}

/**
 * epochEndVotes are the votes on an epoch's end: the leader's proposal (with the leader and the epoch) and a vote of
 * each other validator, each naming the block by hash and height and signing that hash (`sg_…`).
 */
export function epochEndVotes(end: EpochEnd, voters: readonly KeyPair[]): BuiltTx[] {
  return voters.map((voter) => {
    const signature = encode('sg', signBytes(voter, Buffer.from(end.blockHash)));
    const fields = { block_hash: end.blockHash, block_height: String(end.height), signature };
    return voter.address === end.leader
      ? hcVoteTx(voter, end.epoch, VoteType.PROPOSAL, { ...fields, leader: end.leader, epoch: String(end.epoch) })
      : hcVoteTx(voter, end.epoch, VoteType.VOTE, fields);
  });
}
