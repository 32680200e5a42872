import { expect } from 'chai';
import {
  blockRewards,
  DEVNODE_KEY_BLOCK_REWARD,
  REWARD_RULES,
  rewardedGeneration,
  type RewardedBlock,
} from '../../../src/chain/block-rewards.ts';
import { coinbaseAt } from '../../../src/chain/coinbase.ts';
import { KEY_BLOCK_REWARD } from '../../../src/devnode/rules/fees.ts';

const A = 'ak_opener';
const B = 'ak_closer';
const block = (height: number, beneficiary: string, version: number): RewardedBlock => ({
  height,
  beneficiary,
  version,
});
const { mainnet, testnet, devnode, hyperchain } = REWARD_RULES;
const MAINNET_DEV = mainnet.devShares[0]!.account;

describe('blockRewards (the node grant_fees split)', () => {
  it('pays 40 % of the fees to the opener and 60 % plus the coinbase to the closer, before Fortuna', () => {
    expect(blockRewards(mainnet, block(99, A, 2), block(100, B, 2), 1001n)).to.deep.equal([
      { kind: 'reward_block', account: A, amount: 400n },
      { kind: 'reward_block', account: B, amount: 601n + coinbaseAt(100) },
    ]);
  });

  it('sums what one account gets twice and pays nothing where the amount is 0', () => {
    expect(blockRewards(mainnet, block(99, A, 2), block(100, A, 2), 10n)).to.deep.equal([
      { kind: 'reward_block', account: A, amount: 10n + coinbaseAt(100) },
    ]);
    // the genesis key block opens the first generation but earns nothing
    expect(blockRewards(mainnet, block(0, A, 1), block(1, B, 1), 10n)).to.deep.equal([
      { kind: 'reward_block', account: B, amount: 6n + coinbaseAt(1) },
    ]);
  });

  it("gives the dev fund 109 ‰ of both parts from Fortuna through Iris, by the opener's protocol", () => {
    const cb = coinbaseAt(100_000);
    const closerPart = 600n + cb;
    const openerDev = (400n * 109n) / 1000n;
    const closerDev = (closerPart * 109n) / 1000n;
    expect(blockRewards(mainnet, block(99_999, A, 3), block(100_000, B, 3), 1000n)).to.deep.equal([
      { kind: 'reward_block', account: A, amount: 400n - openerDev },
      { kind: 'reward_block', account: B, amount: closerPart - closerDev },
      { kind: 'reward_dev', account: MAINNET_DEV, amount: openerDev + closerDev },
    ]);
    expect(blockRewards(testnet, block(99_999, A, 5), block(100_000, B, 6), 0n).map((t) => t.account)).to.deep.equal([
      B,
      testnet.devShares[0]!.account,
    ]);
    // Ceres (6) pays no dev reward
    expect(blockRewards(mainnet, block(99_999, A, 6), block(100_000, B, 6), 0n)).to.deep.equal([
      { kind: 'reward_block', account: B, amount: cb },
    ]);
  });

  it('names the dev fund accounts the node lists', () => {
    expect(MAINNET_DEV).to.equal('ak_2KAcA2Pp1nrR8Wkt3FtCkReGzAi8vJ9Snxa4PcmrthVx8AhPe8');
  });

  it("pays the devnode's fixed reward to the closer at once and burns fees", () => {
    expect(DEVNODE_KEY_BLOCK_REWARD).to.equal(KEY_BLOCK_REWARD);
    expect(blockRewards(devnode, block(4, A, 6), block(5, B, 6), 999n)).to.deep.equal([
      { kind: 'reward_block', account: B, amount: KEY_BLOCK_REWARD },
    ]);
  });

  it('rewards a generation `delay` key blocks later, never the genesis', () => {
    expect(rewardedGeneration(mainnet, 180)).to.equal(undefined);
    expect(rewardedGeneration(mainnet, 181)).to.equal(1);
    expect(rewardedGeneration(devnode, 0)).to.equal(undefined);
    expect(rewardedGeneration(devnode, 7)).to.equal(7);
  });

  it("pays no beneficiary and no dev fund on a hyperchain: its node pays the rewards into the contracts' stakes", () => {
    for (const height of [0, 1, 181, 10_000]) expect(rewardedGeneration(hyperchain, height)).to.equal(undefined);
    expect(blockRewards(hyperchain, block(99, A, 6), block(100, B, 6), 1001n)).to.deep.equal([]);
  });
});
