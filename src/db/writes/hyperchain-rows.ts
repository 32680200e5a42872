/**
 * @module The rows a batch of a hyperchain's heights writes about its consensus (db/writes/hyperchain.ts), as the
 * populator reads them from the node (indexer/hyperchain/). Types only.
 */
import type { HyperchainRecord } from '../queries/hyperchain.ts';

/** What a loaded key block shows. */
export interface ProducedRow {
  readonly height: number;
  readonly producer: string;
  readonly hole: boolean;
  readonly eoe: boolean;
}

/** A validator of an epoch with its locked stake. */
export interface ValidatorLoad {
  readonly validator: string;
  readonly stake: bigint;
}

/** A validator's delegates (the owner among them) in an epoch, as the staking contract held them when it locked it. */
export interface DelegatesLoad {
  readonly epoch: number;
  readonly validator: string;
  readonly delegates: ReadonlyMap<string, bigint>;
}

/** The block rewards a validator earned in an epoch, as the boundary that pays them shows them. */
export interface RewardLoad {
  readonly epoch: number;
  readonly validator: string;
  readonly reward: bigint;
}

/** An epoch as the key block before its first height fixes it. */
export interface EpochLoad {
  /** the key block whose batch writes it: first - 1 */
  readonly loadedAt: number;
  readonly epoch: number;
  readonly first: number;
  readonly length: number;
  /** `kh_`-encoded seed; null when the contract holds none (epochs 1 and 2) */
  readonly seed: string | null;
  /**
   * the parent chain's block the seed is (the node seeds epoch e + 2 with that block's hash, `get_entropy_hash`):
   * `kh_`-encoded as an æternity parent's hashes are; null with the seed
   */
  readonly parentBlockHash: string | null;
  readonly startTimeMs: number;
  readonly pinReward: bigint;
  readonly validators: readonly ValidatorLoad[];
  /** the leaders of first..last; empty without a seed (each height's is its key block's then) */
  readonly schedule: readonly string[];
  /** the delegates of the epochs whose stakes this boundary locked (e + 3; epochs 1-4 at genesis) */
  readonly locked: readonly DelegatesLoad[];
  /** the rewards this boundary paid into the stakes: of epoch - 2, the one before the epoch it ends; none at genesis */
  readonly rewards: readonly RewardLoad[];
}

/** An epoch's pin, seen at its last key block: the reward is the epoch's `pinReward`. */
export interface PinLoad {
  readonly epoch: number;
  readonly leader: string;
  readonly height: number;
}

/** Everything a batch writes about the hyperchain. */
export interface HyperchainBatch {
  readonly record: HyperchainRecord;
  readonly produced: readonly ProducedRow[];
  readonly epochs: readonly EpochLoad[];
  readonly pins: readonly PinLoad[];
}
