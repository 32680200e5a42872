/**
 * @module A hyperchain's consensus over the devnode's world state (aec_consensus_hc): the staking and election
 * contracts created at genesis with the initial validators, each key block's protocol calls (the leader's block
 * reward held in the election contract, the end of an epoch: pin reward, rewards paid to the stakes, the seed of
 * epoch + 2, the stake of epoch + 4 locked), and the leader the schedule names for a height. Pure over the state.
 */
import { decode, encode, hash } from '../../chain/encoding.ts';
import { FATE_ABI_VERSION, FATE_VM_VERSION } from '../contracts/fate-contract.ts';
import { contractId } from '../ids.ts';
import { newState, type WorldState } from '../store/state.ts';
import { functionId } from '../contracts/bytecode.ts';
import { runNative, type NativeCall } from '../contracts/engine.ts';
import { address, decodeValue, encodeCallData, fateBytes, type FateTuple, type FateValue } from '../../chain/fate.ts';
import { BYTECODE } from '../contracts/standards.ts';
import type { StakingRecord } from '../contracts/hc-types.ts';
import { entropyHeight, validatorSchedule, type Stake } from '../contracts/hc-schedule.ts';

/** HC_CONTRACT_OWNER creates the consensus contracts at genesis (the owner of the node's hyperchain contracts files). */
export const HC_CONTRACT_OWNER = 'ak_11111111111111111111111111111115rHyByZ';

/** HyperchainConfig is the consensus configuration (`chain.consensus."0".config` of a node). */
export interface HyperchainConfig {
  /** `child_epoch_length`: key blocks per epoch */
  readonly epochLength: number;
  /** `fixed_coinbase`: each produced key block's reward, in aettos */
  readonly fixedCoinbase: bigint;
  /** `pinning_reward_value`: the base reward of a pin */
  readonly pinningReward: bigint;
  /** MainStaking's `validator_min_stake` */
  readonly minStake: bigint;
  /** `parent_chain.parent_epoch_length` and `start_height` of the (simulated) parent chain */
  readonly parentEpochLength: number;
  readonly parentStartHeight: number;
  /** the parent chain's network id */
  readonly parentNetworkId: string;
  /** the validators staked at genesis (`initial_validators`): owner, signing key (the owner when absent) and stake */
  readonly initialValidators: readonly { readonly owner: string; readonly signKey?: string; readonly stake: bigint }[];
  /** what MainStaking's `get_validator_state` answers (types.ts) */
  readonly stakingRecord: StakingRecord;
}

/** EpochView is an epoch as the election contract holds it, with its seed and leader schedule resolved. */
export interface EpochView {
  readonly epoch: number;
  readonly first: number;
  readonly last: number;
  readonly length: number;
  readonly seed: Uint8Array;
  readonly validators: readonly Stake[];
  readonly schedule: readonly string[];
}

const CALL_GAS = 100_000_000;

/** KeyBlockStep is what the protocol needs of a new key block. */
export interface KeyBlockStep {
  readonly height: number;
  readonly prevKeyHash: string;
  /** the block's producer: the scheduled leader, or for a hole the validator that made it */
  readonly leader: string;
  readonly hole: boolean;
  /** the fees of the micro blocks of the block's height (on a hyperchain they come before it) */
  readonly fees: bigint;
}

/**
 * isPinned: whether the devnode's leaders pin epoch `epoch` to the parent chain (two epochs in three, fixed by the
 * epoch number), so that chains have pins, pin rewards and carried-over rewards.
 */
export function isPinned(epoch: number): boolean {
  return hash(Buffer.from(`pin epoch ${epoch}`))[0]! % 3 !== 0;
}

/**
 * A protocol call of a consensus contract: by the contracts' creator unless `caller` says (the leader), with no AE unless
 * `amount` says, a creation only with `isCreate`.
 */
interface ProtocolCall {
  readonly contract: string;
  readonly fn: string;
  readonly args: readonly FateValue[];
  readonly amount?: bigint;
  readonly isCreate?: boolean;
  readonly caller?: string;
}

/** Hyperchain runs the consensus calls of one hyperchain's devnode. */
export class Hyperchain {
  readonly config: HyperchainConfig;
  readonly networkId: string;
  readonly staking = contractId(HC_CONTRACT_OWNER, 1);
  readonly election = contractId(HC_CONTRACT_OWNER, 2);
  /** the native kind of the staking contract: its code says which record `get_validator_state` answers */
  readonly #stakingKind: 'hc_staking' | 'hc_staking_validator';

  constructor(config: HyperchainConfig, networkId: string) {
    if (!(config.epochLength >= 2)) throw new RangeError('a hyperchain epoch has at least 2 key blocks');
    if (config.initialValidators.length === 0) throw new RangeError('a hyperchain needs an initial validator');
    this.config = config;
    this.networkId = networkId;
    this.#stakingKind = config.stakingRecord === 'validator' ? 'hc_staking_validator' : 'hc_staking';
  }

  /** parentHash is the block hash of the simulated parent chain at a height (the source of the epochs' seeds). */
  parentHash(height: number): Uint8Array {
    return hash(Buffer.from(`devnode parent chain:${this.networkId}:${height}`, 'utf8'));
  }

  /** genesis creates the two contracts, stakes the initial validators and sets the first epochs up (height 0). */
  genesis(state: WorldState): void {
    state.accounts.set(HC_CONTRACT_OWNER, { balance: 0n, nonce: 2 });
    for (const [ct, kind] of [
      [this.staking, this.#stakingKind],
      [this.election, 'hc_election'],
    ] as const) {
      const code = BYTECODE[kind];
      state.contracts.set(ct, {
        id: ct,
        ownerId: HC_CONTRACT_OWNER,
        vmVersion: FATE_VM_VERSION,
        abiVersion: FATE_ABI_VERSION,
        deposit: 0n,
        code,
      });
    }
    this.#call(state, 0, { contract: this.staking, fn: 'init', args: [this.config.minStake], isCreate: true });
    this.#call(state, 0, { contract: this.election, fn: 'init', args: [address(this.staking)], isCreate: true });
    for (const v of this.config.initialValidators) {
      const signKey = address(v.signKey ?? v.owner);
      const args = [address(v.owner), signKey, true];
      this.#call(state, 0, { contract: this.staking, fn: 'new_validator', args, amount: v.stake });
    }
    const epochs = [BigInt(this.config.epochLength), this.config.pinningReward];
    this.#call(state, 0, { contract: this.election, fn: 'init_epochs', args: epochs });
  }

  /**
   * keyBlock is the protocol's work in key block `height` by `leader` (before the block's own effects): the leader
   * steps in; a produced block's reward (coinbase and the fees of its micro blocks) is held for its epoch; at the
   * epoch's last block the leader finalises the epoch (`fork`: the previous key block) and, in `pinned` epochs, posts
   * a pin, whose reward it gets; then `step_eoe` seeds epoch + 2 from the parent chain. Returns whether the block
   * ends its epoch.
   */
  keyBlock(state: WorldState, block: KeyBlockStep): boolean {
    const { height, leader, hole } = block;
    const epoch = this.currentEpoch(state);
    this.#call(state, height, { contract: this.election, fn: 'step', args: [address(leader)] });
    if (!hole) this.#reward(state, height, leader, this.config.fixedCoinbase + block.fees);
    if (height !== epoch.last) return false;
    const parentHash = this.parentHash(
      entropyHeight(epoch.epoch + 2, this.config.parentEpochLength, this.config.parentStartHeight),
    );
    this.#call(state, height, {
      contract: this.election,
      fn: 'finalize_epoch',
      args: [
        BigInt(epoch.epoch),
        fateBytes(decode(block.prevKeyHash, ['kh']).bytes),
        fateBytes(parentHash),
        address(leader),
        [],
      ],
      caller: leader,
    });
    const pinned = isPinned(epoch.epoch);
    if (pinned) {
      const pin = fateBytes(hash(Buffer.from(`pin:${block.prevKeyHash}`)));
      this.#call(state, height, { contract: this.election, fn: 'pin', args: [pin], caller: leader });
      const reward = this.read(state, height, this.election, 'pin_reward_info', []) as FateTuple;
      this.#reward(state, height, leader, reward.items[1] as bigint);
    }
    const eoe = [address(leader), fateBytes(parentHash), -1n, !pinned];
    this.#call(state, height, { contract: this.election, fn: 'step_eoe', args: eoe });
    return true;
  }

  /** currentEpoch is the election contract's current epoch with its seed and schedule. */
  currentEpoch(state: WorldState): EpochView {
    const [epoch, info] = (this.read(state, 0, this.election, 'epoch_info', []) as FateTuple).items;
    return this.#view(Number(epoch as bigint), info as FateTuple);
  }

  #view(epoch: number, info: FateTuple): EpochView {
    const [start, length, seed, distribution] = info.items as [
      bigint,
      bigint,
      { tag: number; values: FateValue[] },
      { tag: number; values: FateValue[] },
    ];
    // the node seeds epochs 1 and 2, which have none in the contract, from the parent chain (get_seed/1)
    const seedBytes =
      seed.tag === 1
        ? (seed.values[0] as { bytes: Uint8Array }).bytes
        : this.parentHash(entropyHeight(epoch, this.config.parentEpochLength, this.config.parentStartHeight));
    const validators = (distribution.tag === 1 ? (distribution.values[0] as FateTuple[]) : []).map((t): Stake => [
      (t.items[0] as { id: string }).id,
      t.items[1] as bigint,
    ]);
    const n = Number(length);
    return {
      epoch,
      first: Number(start),
      last: Number(start) + n - 1,
      length: n,
      seed: seedBytes,
      validators,
      schedule: validators.length > 0 ? validatorSchedule(seedBytes, validators, n) : [],
    };
  }

  /** leaderAt is the scheduled leader of `height` in the current epoch (undefined outside it). */
  leaderAt(state: WorldState, height: number): string | undefined {
    const epoch = this.currentEpoch(state);
    return epoch.schedule[height - epoch.first];
  }

  /** read dry-runs a function of a consensus contract on the state (no change) and decodes its result. */
  read(state: WorldState, height: number, contract: string, fn: string, args: readonly FateValue[]): FateValue {
    const outcome = runNative(newState(state), this.#nativeCall(height, { contract, fn, args }));
    if (!outcome || outcome.returnType !== 'ok') throw new Error(`hyperchain ${fn} failed: ${outcome?.returnValue}`);
    return decodeValue(outcome.returnValue);
  }

  #reward(state: WorldState, height: number, leader: string, amount: bigint): void {
    const args = [BigInt(height), address(leader)];
    this.#call(state, height, { contract: this.election, fn: 'add_reward', args, amount });
  }

  /** #call runs a protocol call on the state; its `amount` is minted into the callee first. */
  #call(state: WorldState, height: number, call: ProtocolCall): void {
    const { contract, fn, amount = 0n } = call;
    if (amount > 0n) {
      const account = encode('ak', decode(contract, ['ct']).bytes);
      const held = state.accounts.get(account) ?? { balance: 0n, nonce: 0 };
      state.accounts.set(account, { ...held, balance: held.balance + amount });
    }
    const outcome = runNative(state, this.#nativeCall(height, call));
    if (!outcome || outcome.returnType !== 'ok')
      throw new Error(`hyperchain protocol call ${fn} failed: ${outcome?.returnValue}`);
  }

  #nativeCall(height: number, call: ProtocolCall): NativeCall {
    const { contract, fn, args, amount = 0n, isCreate = false, caller = HC_CONTRACT_OWNER } = call;
    const kind = contract === this.staking ? this.#stakingKind : 'hc_election';
    return {
      height,
      caller,
      contract,
      code: BYTECODE[kind],
      callData: encodeCallData(functionId(fn), args),
      amount,
      gasLimit: CALL_GAS,
      isCreate,
    };
  }
}
