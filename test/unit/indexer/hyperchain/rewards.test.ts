/**
 * @module What an end of epoch paid (indexer/hyperchain/rewards.ts): the epoch it pays, the block before it, the rows
 * of `total_balance`'s difference, and the reads over a fake node: the paid epoch's validators that left the sorted
 * ones asked at both blocks, an election contract that does not tell them, a state of another record.
 */
import { expect } from 'chai';
import { address, encodeValue, fateMap, tuple } from '../../../../src/chain/fate.ts';
import { fateCall, type DryRunCall, type DryRunResult } from '../../../../src/node/dry-run.ts';
import type { BytecodeEncoder } from '../../../../src/indexer/contracts/contract-decoder.ts';
import type { GenerationHead } from '../../../../src/indexer/hyperchain/epoch-rows.ts';
import {
  previousBlock,
  readRewards,
  rewardedEpoch,
  rewardRows,
  type PaidBoundary,
  type RewardsAsk,
} from '../../../../src/indexer/hyperchain/rewards.ts';

const [A, B] = [
  'ak_2a1j2Mk9YSmC1gioUq4PWRm3bsv887MbuRVwyv4KaUGoR1eiKi',
  'ak_2j66dAmA7SuaQMMF5oxxW5Awa59kBtpqAqqwfRkr8QtCJosdDx',
];
const BIG = 2n ** 70n;
const state = (who: string, balance: bigint): DryRunResult => ({
  ok: true,
  value: encodeValue(tuple(address(who), address(who), balance, balance, fateMap([]), true)),
});

describe('rewards: what an end of epoch paid', () => {
  it('pays at the end of epoch e - 1 the rewards of e - 2: none at genesis or the end of epoch 1', () => {
    expect(rewardedEpoch(0, 1)).to.equal(undefined);
    expect(rewardedEpoch(10, 2)).to.equal(undefined);
    expect(rewardedEpoch(20, 3)).to.equal(1);
    expect(rewardedEpoch(40, 5)).to.equal(3);
    const before = 'mh_2hpUdwWrkLFtkiTQ5gHgCvHJWNrRcYiSR58qsjtJHQ5AaVS4Tv';
    const gen = (keyBlock: object): GenerationHead => ({ height: 40, keyBlock }) as unknown as GenerationHead;
    expect(previousBlock(gen({ prev_hash: before }))).to.equal(before);
    expect(previousBlock(gen({}))).to.equal(undefined);
  });

  it('gives each validator whose total_balance the boundary moved a row of the difference, exact past 2^53', () => {
    const [a, b, c, d] = ['ak_a', 'ak_b', 'ak_c', 'ak_d'];
    // a earned, b earned nothing (no row: the API shows 0), c's call failed, d lost (a penalty: kept as it is)
    expect(rewardRows(7, [a, b, c, d], [BIG, 5n, undefined, 9n], [BIG + 2n ** 60n + 1n, 5n, 3n, 4n])).to.deep.equal([
      { epoch: 7, validator: a, reward: 2n ** 60n + 1n },
      { epoch: 7, validator: d, reward: -5n },
    ]);
    // one answer of another record, before or after: no row at all
    expect(rewardRows(7, [a, b], [1n, null], [2n, 3n])).to.equal(undefined);
    expect(rewardRows(7, [a, b], [1n, 2n], [null, 3n])).to.equal(undefined);
  });

  /** a boundary at `kh_at` (block before `mh_before`) paying epoch 3, A sorted there; the election tells `paid` */
  function fake(paid: unknown, states: Record<string, Record<string, DryRunResult>>) {
    const asked: string[] = [];
    const ask: RewardsAsk = {
      call: (contract, _code, fn, arg) => {
        if (fn === 'epoch_info_epoch' && paid === 'none') throw new Error('no such function');
        return fateCall(contract, `${fn} ${String(arg)}`);
      },
      dryRun: async (block: string, calls: readonly DryRunCall[]) => {
        asked.push(`${block}: ${calls.map((c) => c.calldata).join(', ')}`);
        return calls.map((c) => {
          const [fn, arg] = c.calldata.split(' ') as [string, string];
          return fn === 'epoch_info_epoch' ? { ok: true, value: 'cb_epoch' } : states[block]![arg]!;
        });
      },
    };
    const code = { decodeResult: () => paid } as unknown as BytecodeEncoder;
    const boundary: PaidBoundary = {
      staking: 'ct_staking',
      stakingCode: code,
      election: 'ct_election',
      electionCode: code,
      at: 'kh_at',
      before: 'mh_before',
      epoch: 3,
      validators: [A],
      after: [{ record: 'validator', totalBalance: BIG + 100n }],
    };
    return { ask, boundary, asked };
  }
  const epochRecord = (stakes: string[]): unknown => [11n, 5n, { 0: [] }, { 1: [stakes.map((v) => [v, 1n])] }];

  it("asks the paid epoch's validators that left the sorted ones at both blocks", async () => {
    const { ask, boundary, asked } = fake(epochRecord([B, A]), {
      mh_before: { [A]: state(A, BIG), [B]: state(B, 7n) },
      kh_at: { [B]: state(B, 7n + BIG) },
    });
    expect(await readRewards(ask, boundary)).to.deep.equal([
      { epoch: 3, validator: A, reward: 100n },
      { epoch: 3, validator: B, reward: BIG },
    ]);
    expect(asked.sort()).to.deep.equal([
      `kh_at: get_validator_state ${B}`,
      `mh_before: get_validator_state ${A}, epoch_info_epoch 3`,
      `mh_before: get_validator_state ${B}`,
    ]);
  });

  it('reads none when the election contract does not tell the paid epoch, or a state is another record', async () => {
    expect(await readRewards(fake('none', {}).ask, fake('none', {}).boundary)).to.equal('paid epoch');
    const unanswered = fake(undefined, { mh_before: { [A]: state(A, BIG) } });
    expect(await readRewards(unanswered.ask, unanswered.boundary)).to.equal('paid epoch');
    const older = { ok: true, value: encodeValue(tuple(address(A), 1n)) } as const;
    const other = fake(epochRecord([A]), { mh_before: { [A]: older } });
    expect(await readRewards(other.ask, other.boundary)).to.equal('record');
  });
});
