/**
 * @module The devnode's hyperchain (`mdw devnode --hyperchain`): its consensus configuration, after ae_mdw's local
 * `hc_devnet` and the node's hyperchain tests, and its validators' keys (the devnode produces their blocks).
 */
import { deriveKey } from '../keys.ts';
import type { KeyPair } from '../keys.ts';
import { Hyperchain, type HyperchainConfig } from './consensus.ts';
import type { StakingRecord } from '../contracts/hc-types.ts';

/** HYPERCHAIN_NETWORK_ID: a network id the SDK does not know, so that it asks the node whether it is a hyperchain. */
export const HYPERCHAIN_NETWORK_ID = 'hc_devnet';

/** HyperchainOptions are what `--hyperchain` lets a user choose. */
export interface HyperchainOptions {
  /** key blocks per epoch (default 10, the node's hyperchain tests') */
  readonly epochLength?: number;
  /** initial validators (default 3) */
  readonly validators?: number;
  /** the record MainStaking's `get_validator_state` answers (types.ts; default `response`) */
  readonly stakingRecord?: StakingRecord;
}

/** INITIAL_STAKE of each initial validator: 10^24 aettos, as ae_mdw's hc_devnet stakes. */
const INITIAL_STAKE = 10n ** 24n;
/** MIN_STAKE: MainStaking's `validator_min_stake`. */
export const MIN_STAKE = 10n ** 21n;
/** The node's defaults: `fixed_coinbase` 100 AE here, `pinning_reward_value` 1 AE. */
const FIXED_COINBASE = 100n * 10n ** 18n;
const PINNING_REWARD = 10n ** 18n;

/**
 * DevnodeHyperchain is the consensus and the keys of its initial validators: their owners' and, where they differ,
 * their signing keys (the devnode produces and votes with those).
 */
export interface DevnodeHyperchain {
  readonly hyperchain: Hyperchain;
  readonly validators: readonly KeyPair[];
}

/** devnodeHyperchain makes the consensus of a devnode hyperchain whose validators' keys derive from `seed`. */
export function devnodeHyperchain(opts: HyperchainOptions, networkId: string, seed: string): DevnodeHyperchain {
  const stakingRecord = opts.stakingRecord ?? 'response';
  const owners = Array.from({ length: opts.validators ?? 3 }, (_, i) => deriveKey(seed, `validator${i}`));
  // the node's current MainStaking names validators by signing key, not owner: there every second one signs with a
  // key of its own, so that what reads it must tell the two apart
  const signKeys = owners.map((k, i) =>
    stakingRecord === 'validator' && i % 2 === 1 ? deriveKey(seed, `validator${i} signing`) : k,
  );
  const config: HyperchainConfig = {
    epochLength: opts.epochLength ?? 10,
    fixedCoinbase: FIXED_COINBASE,
    pinningReward: PINNING_REWARD,
    minStake: MIN_STAKE,
    parentEpochLength: 10,
    parentStartHeight: 10,
    parentNetworkId: 'ae_devnet',
    initialValidators: owners.map((k, i) => ({
      owner: k.address,
      ...(signKeys[i] !== k ? { signKey: signKeys[i]!.address } : {}),
      stake: INITIAL_STAKE * BigInt(i + 1),
    })),
    stakingRecord,
  };
  const validators = [...owners, ...signKeys.filter((k, i) => k !== owners[i])];
  return { hyperchain: new Hyperchain(config, networkId), validators };
}
