/**
 * @module The balances in a `get_state()` answer (indexer/hyperchain/staking-state.ts), by signing key, in both
 * readings, exact past 2^53; shapes it does not know (the reader then asks `get_validator_state` per validator); the
 * devnode's own answers against aepp-calldata's decoding; and the rewards read from it (rewards.ts): one request.
 */
import { BytecodeContractCallEncoder } from '@aeternity/aepp-calldata';
import { expect } from 'chai';
import { address, decodeValue, encodeValue, fateMap, tuple, type FateValue } from '../../../../src/chain/fate.ts';
import { parseJson } from '../../../../src/chain/json.ts';
import { dryRun } from '../../../../src/devnode/api/dry-run.ts';
import { BYTECODE, devnodeHyperchain, EOE_FLAG, generateChain } from '../../../../src/devnode/index.ts';
import type { BytecodeEncoder } from '../../../../src/indexer/contracts/contract-decoder.ts';
import { readStateRewards, type RewardsAsk } from '../../../../src/indexer/hyperchain/rewards.ts';
import {
  readBalances,
  readDecodedBalances,
  readFateBalances,
} from '../../../../src/indexer/hyperchain/staking-state.ts';
import { dryRunBody, fateCall, readResults } from '../../../../src/node/dry-run.ts';

const [OWNER, SIGNER, CT_KEY] = [
  'ak_2a1j2Mk9YSmC1gioUq4PWRm3bsv887MbuRVwyv4KaUGoR1eiKi',
  'ak_2j66dAmA7SuaQMMF5oxxW5Awa59kBtpqAqqwfRkr8QtCJosdDx',
  'ak_11111111111111111111111111111111273Yts',
];
const BIG = 2n ** 70n + 1n;

/** A value in both readings: its FATE value, and as aepp-calldata decodes it by the contract's types. */
interface Both {
  readonly fate: FateValue;
  readonly decoded: unknown;
}
const both = (f: Both | string | bigint | boolean): Both =>
  typeof f === 'object' ? f : typeof f === 'string' ? { fate: address(f), decoded: f } : { fate: f, decoded: f };
const rec = (...fields: (Both | string | bigint | boolean)[]): Both => {
  const all = fields.map(both);
  return { fate: tuple(...all.map((b) => b.fate)), decoded: all.map((b) => b.decoded) };
};
const map = (...entries: [Both | string, Both | string][]): Both => ({
  fate: fateMap(entries.map(([k, v]) => [both(k).fate, both(v).fate] as const)),
  decoded: new Map(entries.map(([k, v]) => [both(k).decoded, both(v).decoded])),
});
const validator = (signKey: string, balance: bigint): Both => rec(OWNER, signKey, balance, 7n, map(), true);
const state = (validators: Both): Both => rec(validators, map([OWNER, CT_KEY]), map([SIGNER, CT_KEY]), 1n, 4n);

describe('staking-state: the balances get_state answered', () => {
  it('reads each validator record total_balance by its signing key, exact past 2^53; by owner without sign_key', () => {
    const s = state(map([CT_KEY, validator(SIGNER, BIG)]));
    expect(readFateBalances(s.fate)).to.deep.equal(new Map([[SIGNER, BIG]]));
    expect(readDecodedBalances(s.decoded)).to.deep.equal(new Map([[SIGNER, BIG]]));
    const noSignKey = state(map([CT_KEY, rec(OWNER, BIG, 7n, map(), false)]));
    expect(readFateBalances(noSignKey.fate)).to.deep.equal(new Map([[OWNER, BIG]]));
    expect(readDecodedBalances(noSignKey.decoded)).to.deep.equal(new Map([[OWNER, BIG]]));
  });

  it('reads nothing of another shape, which leaves the per-validator calls to the reader', () => {
    const others: [string, Both][] = [
      ['a state of four fields', rec(map(), map(), map(), 1n)],
      ['get_validator_response as a validator', state(map([CT_KEY, rec(OWNER, OWNER, 1n, 2n, 3n, 4n, true, 5n)]))],
      ['an int key', state(map([{ fate: 1n, decoded: 1n }, validator(SIGNER, BIG)]))],
      ['an int as current_epoch', rec(map(), map(), map(), 1n, true)],
    ];
    for (const [what, s] of others) {
      expect(readFateBalances(s.fate), what).to.equal(undefined);
      expect(readDecodedBalances(s.decoded), what).to.equal(undefined);
    }
    const code = { decodeResult: () => ({}) } as unknown as BytecodeEncoder;
    expect(readBalances(code, { ok: true, value: encodeValue(others[0]![1].fate) })).to.equal(null);
    expect(readBalances(code, { ok: false, reason: 'abort' })).to.equal(undefined);
  });

  it("reads the devnode's answers as aepp-calldata does, some validators signing with a key not their owner's", function () {
    this.timeout(60_000);
    const hc = devnodeHyperchain({ epochLength: 5, stakingRecord: 'validator' }, 'hc_devnet', 'ss');
    const { chain } = generateChain({ generations: 15, seed: 'ss', hyperchain: hc, networkId: 'hc_devnet' });
    const code = new BytecodeContractCallEncoder(
      BYTECODE.hc_staking_validator as `cb_${string}`,
    ) as unknown as BytecodeEncoder;
    for (const k of chain.keyBlocks.filter((b) => (b.header.hcFlags! & EOE_FLAG) !== 0)) {
      const body = dryRunBody(k.hash, [fateCall(hc.hyperchain.staking, code.encodeCall('get_state', []))]);
      const result = readResults(parseJson(dryRun(chain, parseJson(body)).body), 1)[0]!;
      const value = result.ok ? result.value : '';
      const balances = readBalances(code, result);
      const decoded = code.decodeResult('get_state', value, 'ok') as Map<string, string>[];
      expect(readDecodedBalances(decoded)).to.deep.equal(balances);
      expect(readFateBalances(decodeValue(value))).to.deep.equal(balances);
      expect([...balances!.values()].every((b) => b > 2n ** 53n)).to.equal(true);
      // signing keys that are no owner's (decoded[1]: owners)
      expect([...balances!.keys()].filter((signKey) => !decoded[1]!.has(signKey))).to.not.deep.equal([]);
    }
  });

  it('reads the rewards of an end of epoch from one get_state at the block before it, by signing key', async () => {
    const asked: string[] = [];
    const answer = (s: Both): string => encodeValue(s.fate);
    let before = answer(state(map([CT_KEY, validator(SIGNER, 5n)])));
    const ask: RewardsAsk = {
      call: (contract, _code, fn) => fateCall(contract, fn),
      dryRun: async (block, calls) => {
        asked.push(`${block}: ${calls.map((c) => c.calldata).join(', ')}`);
        return [{ ok: true, value: before }];
      },
    };
    const code = { decodeResult: () => ({}) } as unknown as BytecodeEncoder;
    const boundary = {
      staking: 'ct_s',
      stakingCode: code,
      at: 'kh_at',
      before: 'mh_b',
      epoch: 3,
      after: new Map([[SIGNER, BIG]]),
    };
    expect(await readStateRewards(ask, boundary)).to.deep.equal([{ epoch: 3, validator: SIGNER, reward: BIG - 5n }]);
    expect(asked).to.deep.equal(['mh_b: get_state']);
    before = answer(rec(map(), map(), map(), 1n));
    expect(await readStateRewards(ask, boundary)).to.equal('record');
  });
});
