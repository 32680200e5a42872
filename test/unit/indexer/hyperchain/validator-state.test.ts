/**
 * @module Which record a `get_validator_state` answer is (indexer/hyperchain/validator-state.ts): the node's current
 * `validator` record (6 fields, and 5 without `sign_key`) states `total_balance`, ae_mdw 1.107's
 * `get_validator_response` the delegates and never a balance; checked on literal values in both readings and on the
 * devnode's own answers in both of its modes against aepp-calldata's decoding by the contract's types.
 */
import { BytecodeContractCallEncoder } from '@aeternity/aepp-calldata';
import { expect } from 'chai';
import { address, decodeValue, encodeValue, fateMap, tuple, type FateValue } from '../../../../src/chain/fate.ts';
import { parseJson } from '../../../../src/chain/json.ts';
import { dryRun } from '../../../../src/devnode/api/dry-run.ts';
import { BYTECODE, devnodeHyperchain, EOE_FLAG, generateChain } from '../../../../src/devnode/index.ts';
import type { BytecodeEncoder } from '../../../../src/indexer/contracts/contract-decoder.ts';
import { readStakes } from '../../../../src/indexer/hyperchain/epoch-rows.ts';
import {
  readFateValidatorState,
  readState,
  readValidatorState,
  recordOf,
} from '../../../../src/indexer/hyperchain/validator-state.ts';
import { dryRunBody, fateCall, readResults } from '../../../../src/node/dry-run.ts';

const A = 'ak_2a1j2Mk9YSmC1gioUq4PWRm3bsv887MbuRVwyv4KaUGoR1eiKi';
const B = 'ak_2j66dAmA7SuaQMMF5oxxW5Awa59kBtpqAqqwfRkr8QtCJosdDx';
const CT = 'ct_2a1j2Mk9YSmC1gioUq4PWRm3bsv887MbuRVwyv4KaUGoR1eiKi';
const BIG = 2n ** 70n + 1n;

/** A value in both readings: its FATE value, and as aepp-calldata decodes it by the contract's types. */
interface Both {
  readonly fate: FateValue;
  readonly decoded: unknown;
}
const staked = (entries: [FateValue, FateValue][]): Both => ({
  fate: fateMap(entries),
  decoded: new Map(entries as [unknown, unknown][]),
});
const record = (...fields: (Both | string | bigint | boolean)[]): Both => {
  const both = fields.map((f): Both => {
    if (typeof f === 'string') return { fate: address(f), decoded: f };
    if (typeof f === 'object') return f;
    return { fate: f, decoded: f };
  });
  return { fate: tuple(...both.map((b) => b.fate)), decoded: both.map((b) => b.decoded) };
};
const epochs = staked([
  [3n, BIG],
  [4n, 5n],
]);

describe('validator-state: the record get_validator_state answered', () => {
  it("reads the node's validator record's total_balance, with and without sign_key, exact past 2^53", () => {
    for (const r of [record(A, B, BIG, 7n, epochs, true), record(A, BIG, 7n, staked([]), false)]) {
      expect(readFateValidatorState(r.fate)).to.deep.equal({ record: 'validator', totalBalance: BIG });
      expect(readValidatorState(r.decoded)).to.deep.equal({ record: 'validator', totalBalance: BIG });
    }
  });

  it('reads nothing of a record whose fields are not those kinds', () => {
    const others: [string, Both][] = [
      ['a contract as owner', record(CT, B, BIG, 7n, epochs, true)],
      ['a balance that is no int', record(A, B, true, 7n, epochs, true)],
      ['stakes keyed by addresses', record(A, B, BIG, 7n, staked([[address(A), 1n]]), true)],
      ['restake that is no bool', record(A, B, BIG, 7n, epochs, 1n)],
      ['seven fields', record(A, B, BIG, 7n, epochs, true, 1n)],
      ['four fields', record(A, BIG, 7n, true)],
    ];
    for (const [what, r] of others) {
      expect(readFateValidatorState(r.fate), what).to.equal(undefined);
      expect(readValidatorState(r.decoded), what).to.equal(undefined);
    }
  });

  it("reads get_validator_response's delegates, never its sixth field as a balance", () => {
    const delegates = fateMap([[address(A), BIG]]);
    const state = tuple(address(CT), 0n, 0n, fateMap([]), '', '', '', delegates, 0n);
    // the sixth field, `stake_limit` on the node's older contracts (the devnode puts its total_balance there)
    const response = tuple(address(CT), address(A), 1n, BIG, 0n, BIG + 1n, true, state);
    expect(readFateValidatorState(response)).to.deep.equal({
      record: 'get_validator_response',
      delegates: new Map([[A, BIG]]),
    });
    // with a state this version does not read: no record it knows, not a balance either
    const unknown = tuple(address(CT), address(A), 1n, BIG, 0n, BIG + 1n, true, tuple());
    expect(readFateValidatorState(unknown)).to.equal(undefined);
    expect(readValidatorState([CT, A, 1n, BIG, 0n, BIG + 1n, true, []])).to.equal(undefined);
  });

  it('reads a dry-run: undefined when the call failed, null for a record it does not know', () => {
    const code = { decodeResult: () => [] } as unknown as BytecodeEncoder;
    expect(readState(code, { ok: false, reason: 'Not a registered validator owner' })).to.equal(undefined);
    expect(readState(code, undefined)).to.equal(undefined);
    expect(readState(code, { ok: true, value: encodeValue(tuple(address(A), 1n)) })).to.equal(null);
    const current = encodeValue(record(A, B, BIG, 7n, epochs, true).fate);
    expect(readState(code, { ok: true, value: current })).to.deep.equal({ record: 'validator', totalBalance: BIG });
  });

  it("tells a boundary's record when every answer read is the same one, failed calls aside", () => {
    const current = { record: 'validator', totalBalance: 1n } as const;
    const older = { record: 'get_validator_response', delegates: new Map() } as const;
    expect(recordOf([current, undefined, current])).to.equal('validator');
    expect(recordOf([older])).to.equal('get_validator_response');
    expect(recordOf([current, older])).to.equal(null);
    expect(recordOf([current, null])).to.equal(null);
    expect(recordOf([undefined])).to.equal(undefined);
    expect(recordOf([])).to.equal(undefined);
  });

  for (const [mode, kind, expected] of [
    ['response', 'hc_staking', 'get_validator_response'],
    ['validator', 'hc_staking_validator', 'validator'],
  ] as const) {
    it(`reads the devnode's answers with stakingRecord '${mode}' as aepp-calldata does: ${expected}`, function () {
      this.timeout(60_000);
      const hc = devnodeHyperchain({ epochLength: 5, stakingRecord: mode }, 'hc_devnet', 'vs');
      const { chain } = generateChain({ generations: 25, seed: 'vs', hyperchain: hc, networkId: 'hc_devnet' });
      const code = new BytecodeContractCallEncoder(BYTECODE[kind] as `cb_${string}`) as unknown as BytecodeEncoder;
      const ask = (top: string, calls: string[][]): string[] => {
        const body = dryRunBody(
          top,
          calls.map(([fn, ...args]) => fateCall(hc.hyperchain.staking, code.encodeCall(fn!, args))),
        );
        return readResults(parseJson(dryRun(chain, parseJson(body)).body), calls.length).map((r) => {
          if (!r.ok) throw new Error(`dry-run failed: ${r.reason}`);
          return r.value;
        });
      };
      let read = 0;
      for (const k of chain.keyBlocks.filter((b) => (b.header.hcFlags! & EOE_FLAG) !== 0)) {
        // asked by owner: the sorted validators' signing keys are no owners where they differ ('validator' mode)
        const [sorted] = ask(k.hash, [[mode === 'validator' ? 'get_state' : 'sorted_validators']]);
        const validators =
          mode === 'validator'
            ? [...(code.decodeResult('get_state', sorted!, 'ok') as Map<string, string>[])[1]!.keys()]
            : readStakes(code.decodeResult('sorted_validators', sorted!, 'ok')).map(([v]) => v);
        for (const answer of ask(
          k.hash,
          validators.map((v) => ['get_validator_state', v]),
        )) {
          const state = readFateValidatorState(decodeValue(answer));
          expect(state?.record).to.equal(expected);
          expect(readValidatorState(code.decodeResult('get_validator_state', answer, 'ok'))).to.deep.equal(state);
          if (state?.record === 'validator') expect(state.totalBalance > 2n ** 53n).to.equal(true);
          read++;
        }
      }
      expect(read).to.be.above(5);
    });
  }
});
