/**
 * @module What a key block pays its miners and the dev fund: the node's reward rules as one pure
 * function, for the populator's `reward_block`/`reward_dev` transfers and for statistics. Pure.
 *
 * The node (aec_chain_state:grant_fees) pays, at key block H > delay, for the generation closed by
 * key block g = H − delay: the fees of generation g − 1 (its transactions' fees, inner ones
 * included, and its contracts' gas) go 40 % to the beneficiary of key block g − 1 (nothing when
 * that is genesis) and 60 % to the beneficiary of key block g, who also gets the coinbase of g.
 * From Fortuna to Iris (protocols 3..5) the dev fund takes 109 of every 1000 shares of both parts
 * (aec_dev_reward:split, by the protocol of key block g − 1). Rewards to one account are summed;
 * nothing is paid where the amount is 0. Fraud reports, which change the split, are not modelled.
 * A hyperchain pays no beneficiary: its node hands each key block's reward to the election contract, and the
 * staking contract adds the sums to the validators' stakes at an epoch's end (docs/api-v3.md, "Hyperchains").
 */
import { coinbaseAt } from './coinbase.ts';
import { encode } from './encoding.ts';

/** A dev fund account's shares (of 1000) over a range of protocols. */
export interface DevShare {
  readonly account: string;
  readonly shares: bigint;
  readonly fromProtocol: number;
  readonly toProtocol: number;
}

/** RewardRules: how a chain pays for its generations. */
export interface RewardRules {
  readonly name: RewardRulesName;
  /** whether key blocks pay their beneficiaries and the dev fund at all (a hyperchain's go to its contracts) */
  readonly paysBeneficiaries: boolean;
  /** a key block at H pays for the generation closed by key block H − delay */
  readonly delay: number;
  readonly coinbase: (height: number) => bigint;
  /** whether fees are paid to the miners (the node) or go nowhere (the devnode burns them) */
  readonly paysFees: boolean;
  readonly devShares: readonly DevShare[];
}

export type RewardRulesName = 'mainnet' | 'testnet' | 'devnode' | 'hyperchain';

const TOTAL_SHARES = 1000n;
const FORTUNA = 3;
const IRIS = 5;

// aec_dev_reward's MAINNET_BENEFICIARIES and TESTNET_BENEFICIARIES (public keys, as the node lists them)
const MAINNET_DEV = Uint8Array.from([
  172, 241, 128, 85, 116, 104, 119, 143, 197, 105, 4, 192, 224, 207, 200, 138, 230, 84, 111, 38, 89, 33, 239, 21, 201,
  183, 185, 209, 19, 60, 109, 136,
]);
const TESTNET_DEV = Uint8Array.from([
  152, 57, 168, 5, 218, 153, 177, 254, 226, 207, 243, 133, 11, 50, 143, 68, 121, 242, 94, 41, 187, 198, 158, 67, 133,
  88, 6, 71, 55, 26, 85, 54,
]);

const devShare = (key: Uint8Array): DevShare => ({
  account: encode('ak', key),
  shares: 109n,
  fromProtocol: FORTUNA,
  toProtocol: IRIS,
});

/** The devnode pays a fixed 100 AE to the beneficiary of each key block at once and burns fees. */
export const DEVNODE_KEY_BLOCK_REWARD = 100_000_000_000_000_000_000n;

const bitcoinNg = (name: 'mainnet' | 'testnet', dev: Uint8Array): RewardRules => ({
  name,
  paysBeneficiaries: true,
  delay: 180,
  coinbase: coinbaseAt,
  paysFees: true,
  devShares: [devShare(dev)],
});

/**
 * REWARD_RULES by name: the node's (mainnet, testnet: delay 180, coinbase schedule, fee split, dev fund), the
 * devnode's, and a hyperchain's, which pays no beneficiary (its delay, coinbase and fees never come into play).
 */
export const REWARD_RULES: Readonly<Record<RewardRulesName, RewardRules>> = {
  mainnet: bitcoinNg('mainnet', MAINNET_DEV),
  testnet: bitcoinNg('testnet', TESTNET_DEV),
  devnode: {
    name: 'devnode',
    paysBeneficiaries: true,
    delay: 0,
    coinbase: () => DEVNODE_KEY_BLOCK_REWARD,
    paysFees: false,
    devShares: [],
  },
  hyperchain: {
    name: 'hyperchain',
    paysBeneficiaries: false,
    delay: 0,
    coinbase: () => 0n,
    paysFees: false,
    devShares: [],
  },
};

/** A key block as the rewards need it. */
export interface RewardedBlock {
  readonly height: number;
  readonly beneficiary: string;
  /** the key block's protocol version */
  readonly version: number;
}

/** One payment: `reward_block` to a miner, `reward_dev` to the dev fund. */
export interface RewardTransfer {
  readonly kind: 'reward_block' | 'reward_dev';
  readonly account: string;
  readonly amount: bigint;
}

/** rewardedGeneration is the key block whose generation the key block at `height` pays for (undefined: none). */
export function rewardedGeneration(rules: RewardRules, height: number): number | undefined {
  return rules.paysBeneficiaries && height > rules.delay ? height - rules.delay : undefined;
}

/**
 * blockRewards is what the key block that pays for `closer`'s generation transfers. `opener` is key
 * block closer − 1 and `fees` the fees and gas of its generation (the micro blocks between the two).
 */
export function blockRewards(
  rules: RewardRules,
  opener: RewardedBlock,
  closer: RewardedBlock,
  fees: bigint,
): RewardTransfer[] {
  if (!rules.paysBeneficiaries) return [];
  const paid = rules.paysFees ? fees : 0n;
  const openerPart = opener.height === 0 ? 0n : (paid * 4n) / 10n;
  const closerPart = paid - (paid * 4n) / 10n + (closer.height === 0 ? 0n : rules.coinbase(closer.height));
  const devs = rules.devShares.filter((d) => d.fromProtocol <= opener.version && opener.version <= d.toProtocol);
  const allocated = devs.reduce((sum, d) => sum + d.shares, 0n);
  const openerDev = devs.length === 0 ? 0n : (openerPart * allocated) / TOTAL_SHARES;
  const closerDev = devs.length === 0 ? 0n : (closerPart * allocated) / TOTAL_SHARES;
  const toMiners = new Map<string, bigint>();
  const add = (account: string, amount: bigint): void => {
    toMiners.set(account, (toMiners.get(account) ?? 0n) + amount);
  };
  add(opener.beneficiary, openerPart - openerDev);
  add(closer.beneficiary, closerPart - closerDev);
  const out: RewardTransfer[] = [...toMiners].map(([account, amount]) => ({ kind: 'reward_block', account, amount }));
  // each dev account gets its shares, rounded down; the last listed also gets what rounding left
  const devTotal = openerDev + closerDev;
  const devAmounts = devs.map((d) => (devTotal * d.shares) / allocated);
  const leftover = devTotal - devAmounts.reduce((a, b) => a + b, 0n);
  devs.forEach((d, i) =>
    out.push({
      kind: 'reward_dev',
      account: d.account,
      amount: devAmounts[i]! + (i === devs.length - 1 ? leftover : 0n),
    }),
  );
  return out.filter((t) => t.amount > 0n);
}
