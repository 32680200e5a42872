/**
 * @module A hyperchain's staking traffic for the generator's mix: accounts register as validators, delegate stake to
 * validators and withdraw part of what they staked, each a ContractCallTx of MainStaking, so that the validator set
 * and its stakes change from epoch to epoch (each change weighs in the schedule four epochs later).
 */
import { callTx } from '../contracts/txs.ts';
import { address, type FateMap, type FateTuple, type FateValue } from '../../chain/fate.ts';
import type { TrafficKit, WeightedMaker } from './kit.ts';
import type { Hyperchain } from '../hyperchain/consensus.ts';
import { MIN_STAKE } from '../hyperchain/setup.ts';

const id = (v: FateValue | undefined): string => (v as { id: string }).id;

/** hyperchainStakingMakers builds the staking calls over the pending state of `hyperchain`'s MainStaking. */
export function hyperchainStakingMakers(kit: TrafficKit, hyperchain: Hyperchain): WeightedMaker[] {
  const store = (slot: string): FateValue | undefined =>
    kit.chain.pending.contractStore.get(`${hyperchain.staking}/${slot}`);
  const owners = (): string[] => ((store('owners') as FateValue[] | undefined) ?? []).map(id);
  const delegates = (owner: string): [string, bigint][] =>
    ((store(`v:${owner}`) as FateTuple).items[7] as FateMap).entries.map(([k, s]) => [id(k), s as bigint]);

  // the node's current MainStaking names validators by signing key: there half of those registered sign with another
  // funded account's key (one that signs for no validator yet), which the generator holds to vote with
  const distinctKeys = hyperchain.config.stakingRecord === 'validator';
  const register = (): ReturnType<typeof callTx> | undefined => {
    const k = kit.account();
    if (store(`v:${k.address}`) !== undefined) return undefined;
    const stake = MIN_STAKE * BigInt(kit.rng.int(1, 400));
    const signKey = distinctKeys && kit.rng.chance(0.5) ? kit.other(k).address : k.address;
    if (distinctKeys && store(`s:${signKey}`) !== undefined) return undefined;
    return callTx(
      k,
      kit.nonce(k),
      hyperchain.staking,
      'new_validator',
      [address(k.address), address(signKey), kit.rng.chance(0.5)],
      stake,
    );
  };
  const delegate = (): ReturnType<typeof callTx> | undefined => {
    const all = owners();
    if (all.length === 0) return undefined;
    const k = kit.account();
    const amount = MIN_STAKE * BigInt(kit.rng.int(1, 200));
    return callTx(k, kit.nonce(k), hyperchain.staking, 'stake', [address(kit.rng.pick(all))], amount);
  };
  const withdraw = (): ReturnType<typeof callTx> | undefined => {
    const all = owners();
    if (all.length === 0) return undefined;
    const owner = kit.rng.pick(all);
    const movable = delegates(owner).filter(([d]) => kit.keyOf(d) !== undefined);
    if (movable.length === 0) return undefined;
    const [who, stake] = kit.rng.pick(movable);
    const amount = kit.rng.chance(0.3) ? stake : stake / 2n;
    const k = kit.keyOf(who)!;
    return amount > 0n ? callTx(k, kit.nonce(k), hyperchain.staking, 'withdraw', [address(owner), amount]) : undefined;
  };
  return [
    [2, register],
    [6, delegate],
    [4, withdraw],
  ];
}
