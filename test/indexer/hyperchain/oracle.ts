/**
 * @module The hyperchain devnode's own state as the oracle of the populator's hyperchain tables: every epoch that
 * began by the node's top (the epoch as the election contract held it at key block first - 1, its schedule as the
 * devnode computes it), every key block's producer and flags, the pins the devnode's leaders made, and each epoch's
 * delegates summing to the stake locked for it, and the block rewards each validator earned in an epoch as the
 * devnode's consensus credits them (devnodeRewards). Which of the two its staking contract states depends on the record
 * its `get_validator_state` answers (`stakingRecord`): ae_mdw 1.107's the delegates and no rewards, the node's current
 * one the rewards and no delegates. Nothing else may be stored (no row of a block the node replaced).
 */
import { expect } from 'chai';
import { encode } from '../../../src/chain/encoding.ts';
import { EOE_FLAG, HOLE_FLAG, type Hyperchain } from '../../../src/devnode/index.ts';
import { isPinned } from '../../../src/devnode/hyperchain/consensus.ts';
import { entropyHeight } from '../../../src/devnode/contracts/hc-schedule.ts';
import type { FateTuple } from '../../../src/chain/fate.ts';
import { byEpochValidator, devnodeRewards, type TestHyperchain } from '../../support/hyperchain.ts';

interface EpochSql {
  epoch: number;
  first: number;
  last: number;
  length: number;
  seed: string | null;
  parent_block_hash: string | null;
  start_time_ms: string;
  pin_reward: string;
  loaded_at: number;
}

/** expectDevnodeState checks every hyperchain table of `schema` against the devnode's chain up to its top. */
export async function expectDevnodeState(hc: TestHyperchain, schema: string): Promise<void> {
  const chain = hc.devnode.chain;
  const hyperchain = chain.options.hyperchain as Hyperchain;
  const top = chain.height;
  const current = hyperchain.config.stakingRecord === 'validator';
  const { parentEpochLength, parentStartHeight } = hyperchain.config;
  const kb = (h: number): (typeof chain.keyBlocks)[number] => chain.keyBlocks[h]!;
  const q = <T extends object>(sql: string): Promise<T[]> => hc.query<T & Record<string, unknown>>(schema, sql);

  const produced = await q<{ height: number; producer: string; hole: boolean; eoe: boolean }>(
    'SELECT height, producer, hole, eoe FROM hc_produced ORDER BY height',
  );
  expect(produced).to.deep.equal(
    chain.keyBlocks.slice(0, top + 1).map((k) => ({
      height: k.header.height,
      producer: k.header.miner,
      hole: ((k.header.hcFlags ?? 0) & HOLE_FLAG) !== 0,
      eoe: ((k.header.hcFlags ?? 0) & EOE_FLAG) !== 0,
    })),
  );

  const epochs = await q<EpochSql>('SELECT * FROM hc_epochs ORDER BY epoch');
  const expected: { epoch: EpochSql; stakes: [string, string][]; schedule: string[] }[] = [];
  for (let boundary = 0; boundary <= top; boundary += hc.epochLength) {
    const state = chain.stateAfter(kb(boundary).hash)!;
    const view = hyperchain.currentEpoch(state);
    const pin = hyperchain.read(state, boundary, hyperchain.election, 'pin_reward_info', []) as FateTuple;
    const seeded = view.epoch > 2; // epochs 1 and 2 have none in the contract: the node seeds them from the parent
    expected.push({
      epoch: {
        epoch: view.epoch,
        first: view.first,
        last: view.last,
        length: view.length,
        seed: seeded ? encode('kh', view.seed) : null,
        // the block of the devnode's parent chain at the epoch's entropy height, as the node seeds the epoch
        parent_block_hash: seeded
          ? encode('kh', hyperchain.parentHash(entropyHeight(view.epoch, parentEpochLength, parentStartHeight)))
          : null,
        start_time_ms: String(kb(boundary).header.time),
        pin_reward: String(pin.items[1] as bigint),
        loaded_at: boundary,
      },
      stakes: view.validators.map(([v, s]) => [v, String(s)]),
      // an unseeded epoch's schedule is what its key blocks show, up to the top
      schedule: seeded
        ? [...view.schedule]
        : chain.keyBlocks.slice(view.first, Math.min(view.last, top) + 1).map((k) => k.header.miner),
    });
  }
  expect(epochs).to.deep.equal(expected.map((e) => e.epoch));

  for (const e of expected) {
    const n = e.epoch.epoch;
    const validators = await q<{ validator: string; stake: string; delegates: number }>(
      `SELECT validator, stake::text AS stake, delegates FROM hc_validators WHERE epoch = ${n} ORDER BY position`,
    );
    expect(validators.map((v) => [v.validator, v.stake])).to.deep.equal(e.stakes, `validators of epoch ${n}`);
    const delegates = await q<{ validator: string; n: number; sum: string }>(
      `SELECT validator, count(*)::int AS n, sum(stake)::text AS sum FROM hc_delegates WHERE epoch = ${n} GROUP BY 1`,
    );
    // the delegates as the staking contract held them when it locked the epoch's stakes: they sum to each stake; the
    // node's current record states none
    expect(new Map(delegates.map((d) => [d.validator, [d.n, d.sum]]))).to.deep.equal(
      new Map(current ? [] : validators.map((v) => [v.validator, [v.delegates, v.stake]])),
      `delegates of epoch ${n}`,
    );
    if (current) expect(validators.every((v) => v.delegates === 0)).to.equal(true);
    const schedule = await q<{ leader: string }>(`SELECT leader FROM hc_schedule WHERE epoch = ${n} ORDER BY height`);
    expect(schedule.map((s) => s.leader)).to.deep.equal(e.schedule, `schedule of epoch ${n}`);
  }
  const scheduled = await q<{ n: number }>('SELECT count(*)::int AS n FROM hc_schedule');
  expect(scheduled[0]!.n).to.equal(expected.reduce((sum, e) => sum + e.schedule.length, 0));

  const pins = await q<{ epoch: number; leader: string; height: number; reward: string }>(
    'SELECT epoch, leader, height, reward::text AS reward FROM hc_pins ORDER BY epoch',
  );
  expect(pins).to.deep.equal(
    expected
      .filter((e) => e.epoch.last <= top && isPinned(e.epoch.epoch) && e.epoch.pin_reward !== '0')
      .map((e) => ({
        epoch: e.epoch.epoch,
        leader: kb(e.epoch.last).header.miner,
        height: e.epoch.last,
        reward: e.epoch.pin_reward,
      })),
  );

  const rewards = await q<{ epoch: number; validator: string; reward: string }>(
    'SELECT epoch, validator, reward::text AS reward FROM hc_rewards',
  );
  expect(rewards.sort(byEpochValidator)).to.deep.equal(current ? devnodeRewards(hc) : [], 'rewards');
}
