/** @module The pure reading of a hyperchain's key block flags and consensus answers (indexer/hyperchain/epoch-rows.ts). */
import { expect } from 'chai';
import { encode } from '../../../../src/chain/encoding.ts';
import { address, fateMap, tuple, type FateTuple, type FateValue } from '../../../../src/chain/fate.ts';
import { keyFlags } from '../../../../src/chain/hyperchain-flags.ts';
import {
  encodeSeed,
  isEpochBoundary,
  lockedEpochs,
  pinOf,
  producedRow,
  readDelegates,
  readEpochInfo,
  readFateDelegates,
  readFateStakes,
  readPinRewardInfo,
  readSchedule,
  readStakes,
} from '../../../../src/indexer/hyperchain/epoch-rows.ts';
import type { FetchedGeneration } from '../../../../src/indexer/rows/rows.ts';

const flagsWord = (word: number): string => {
  const bytes = Buffer.alloc(4);
  bytes.writeUInt32BE(word);
  return encode('ba', bytes);
};
const LEADER = 'ak_2j66dAmA7SuaQMMF5oxxW5Awa59kBtpqAqqwfRkr8QtCJosdDx';
const gen = (height: number, flags?: number, continuesAt?: number): FetchedGeneration =>
  ({
    height,
    keyBlock: { miner: LEADER, ...(flags === undefined ? {} : { flags: flagsWord(flags) }) },
    microBlocks: [],
    callInfos: new Map(),
    decodedCalls: new Map(),
    ...(continuesAt === undefined ? {} : { continuesAt }),
  }) as unknown as FetchedGeneration;

describe('hyperchain key flags and epoch rows', () => {
  it('reads HOLE (bit 29) and EOE (bit 28) of the flags word, and nothing of a key block without flags', () => {
    expect(keyFlags({ flags: flagsWord(0x20000000) })).to.deep.equal({ hole: true, eoe: false });
    expect(keyFlags({ flags: flagsWord(0x10000000) })).to.deep.equal({ hole: false, eoe: true });
    expect(keyFlags({ flags: flagsWord(0) })).to.deep.equal({ hole: false, eoe: false });
    expect(keyFlags({})).to.equal(undefined);
    expect(producedRow(gen(5))).to.equal(undefined);
    expect(producedRow(gen(5, 0x20000000))).to.deep.equal({ height: 5, producer: LEADER, hole: true, eoe: false });
  });

  it('takes genesis and every end of epoch as a boundary, never an append of micro blocks', () => {
    expect([gen(0, 0), gen(10, 0x10000000), gen(9, 0), gen(10, 0x10000000, 2)].map(isEpochBoundary)).to.deep.equal([
      true,
      true,
      false,
      false,
    ]);
  });

  it('reads epoch_info with and without a seed, stakes exact past 2^53', () => {
    const seed = new Uint8Array(32).fill(7);
    const stake = 3_000_000_000_000_000_000_000_001n;
    const info = readEpochInfo([5n, [41n, 10n, { 1: [seed] }, { 1: [[[LEADER, stake]]] }]]);
    expect(info).to.deep.equal({ epoch: 5, start: 41, length: 10, seed, stakes: [[LEADER, stake]] });
    expect(encodeSeed(info.seed)).to.equal(encode('kh', seed));
    expect(readEpochInfo([1n, [1n, 10n, { 0: [] }, { 0: [] }]])).to.deep.equal({
      epoch: 1,
      start: 1,
      length: 10,
      seed: undefined,
      stakes: [],
    });
    expect(() => readEpochInfo([1n])).to.throw(TypeError);
  });

  it('sees a pin of the ended epoch when the next one carries no pin reward over', () => {
    const next = readPinRewardInfo([10n ** 18n, 10n ** 18n, 0n]);
    expect(pinOf(gen(20, 0x10000000), next, 2)).to.deep.equal({ epoch: 2, leader: LEADER, height: 20 });
    expect(pinOf(gen(20, 0x10000000), { ...next, carryOver: 1n }, 2)).to.equal(undefined);
    expect(pinOf(gen(0, 0), next, 0)).to.equal(undefined);
  });

  it('reads sorted_validators, and the epochs a boundary locks: e + 3, or 1-4 at genesis', () => {
    expect(readStakes([[LEADER, 2n ** 80n]])).to.deep.equal([[LEADER, 2n ** 80n]]);
    expect(() => readStakes(undefined)).to.throw(TypeError);
    expect(readFateStakes([tuple(address(LEADER), 2n ** 80n)])).to.deep.equal([[LEADER, 2n ** 80n]]);
    expect(readFateStakes([])).to.deep.equal([]);
    for (const other of [tuple(), [tuple(address(LEADER), true)], [tuple(1n, 2n)], [tuple(address(LEADER), 1n, 2n)]])
      expect(readFateStakes(other)).to.equal(undefined);
    expect(lockedEpochs(0, 1)).to.deep.equal([1, 2, 3, 4]);
    expect(lockedEpochs(40, 5)).to.deep.equal([8]);
  });

  it('reads the delegates of a validator state and a schedule of the epoch length', () => {
    const delegates = new Map([[LEADER, 2n ** 70n]]);
    const state = ['ct_x', 0n, 0n, new Map(), '', '', '', delegates, 0n];
    expect(readDelegates(['ct_x', LEADER, 0n, 1n, 0n, 0n, true, state])).to.deep.equal(delegates);
    // the node's newer MainStaking answers a validator record of six fields, without delegates: nothing to read,
    // which leaves the validator's delegates out instead of failing the batch (and the chain's loading) each time
    expect(readDelegates([LEADER, 'ak_sign', 2n ** 70n, 2n ** 70n, 1n, true])).to.equal(undefined);
    expect(readDelegates(['ct_x', LEADER, 0n, 1n, 0n, 0n, true, ['ct_x', 0n]])).to.equal(undefined);
    expect(readSchedule([LEADER, LEADER], 2)).to.deep.equal([LEADER, LEADER]);
    expect(() => readSchedule([LEADER], 2)).to.throw(TypeError);
  });

  it("reads the delegates of a validator state's FATE value, stakes exact past 2^53, and nothing of another shape", () => {
    const stake = 2n ** 53n + 1n;
    const stateWith = (delegates: FateValue): FateTuple =>
      tuple(address(LEADER), 0n, 0n, fateMap([]), '', '', '', delegates, stake);
    const answer = (state: FateValue): FateTuple =>
      tuple(address(LEADER), address(LEADER), 0n, stake, 0n, stake, true, state);
    expect(readFateDelegates(answer(stateWith(fateMap([[address(LEADER), stake]]))))).to.deep.equal(
      new Map([[LEADER, stake]]),
    );
    expect(readFateDelegates(answer(stateWith(fateMap([]))))).to.deep.equal(new Map());
    // the node's newer MainStaking's six-field record, a state of another size, delegates that are not address → int
    expect(readFateDelegates(tuple(address(LEADER), address(LEADER), stake, stake, 1n, true))).to.equal(undefined);
    expect(readFateDelegates(answer(tuple(address(LEADER), 0n)))).to.equal(undefined);
    expect(readFateDelegates(answer(stateWith(fateMap([[1n, stake]]))))).to.equal(undefined);
    expect(readFateDelegates(answer(stateWith(fateMap([[address(LEADER), true]]))))).to.equal(undefined);
    expect(readFateDelegates(answer(stateWith([])))).to.equal(undefined);
  });
});
