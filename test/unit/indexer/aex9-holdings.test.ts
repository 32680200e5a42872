/**
 * @module An AEX-9 token's `balances()` answer read in one pass from its FATE value (indexer/contracts/aex9-holdings.ts),
 * checked against aepp-calldata's decoding by the token's types (the independent oracle): on the devnode's own
 * answers for every token of a generated chain, on a map of thousands of holders with amounts past 2^53, and on
 * answers of another shape, which are read as no holdings, never misread.
 */
import { BytecodeContractCallEncoder } from '@aeternity/aepp-calldata';
import { expect } from 'chai';
import { encode } from '../../../src/chain/encoding.ts';
import { address, decodeValue, encodeValue, fateMap, tuple, type FateValue } from '../../../src/chain/fate.ts';
import { parseJson } from '../../../src/chain/json.ts';
import { BYTECODE } from '../../../src/devnode/contracts/standards.ts';
import { callData } from '../../../src/devnode/contracts/txs.ts';
import { dryRun } from '../../../src/devnode/api/dry-run.ts';
import { generateChain } from '../../../src/devnode/generator.ts';
import { readDecodedHoldings, readFateHoldings, readHoldings } from '../../../src/indexer/contracts/aex9-holdings.ts';
import type { BytecodeEncoder } from '../../../src/indexer/contracts/contract-decoder.ts';

const code = new BytecodeContractCallEncoder(BYTECODE.aex9 as `cb_${string}`) as unknown as BytecodeEncoder;
/** oracle is aepp-calldata's decoding of a `balances()` answer by the token's types */
const oracle = (answer: string): unknown => code.decodeResult('balances', answer, 'ok');
/** noTypes is an encoder whose decoding always fails: what reads through it was read from the FATE value alone */
const noTypes = {
  decodeResult: () => {
    throw new Error('decoded by the types');
  },
} as unknown as BytecodeEncoder;

/** account is the i-th of a set of distinct account ids. */
const account = (i: number, prefix: 'ak' | 'ct' = 'ak'): string => {
  const bytes = new Uint8Array(32);
  new DataView(bytes.buffer).setUint32(0, i * 2_654_435_761);
  bytes[31] = i & 0xff;
  return encode(prefix, bytes);
};

describe('aex9-holdings: a token balances() answer', function () {
  this.timeout(60_000);

  it("reads the devnode's answer of every token of a generated chain as aepp-calldata does, from the FATE value", () => {
    // 90 generations: the first in which every kind has holders, the DEX's pairs too (asserted below)
    const { chain } = generateChain({ generations: 90, seed: 'aex9-holdings' });
    const tokens = [...chain.state.contracts.entries()].filter(([, c]) =>
      [BYTECODE.aex9, BYTECODE.wae, BYTECODE.pair].includes(c.code),
    );
    let holders = 0;
    const heldKinds = new Set<string>();
    for (const [token, { code: bytecode }] of tokens) {
      const body = { txs: [{ call_req: { contract: token, calldata: callData('balances', []), abi_version: 3 } }] };
      const reply = parseJson(dryRun(chain, body).body) as { results: { call_obj: { return_value: string } }[] };
      const answer = reply.results[0]!.call_obj.return_value;
      const expected = oracle(answer);
      expect(readHoldings(noTypes, answer), token).to.deep.equal(expected);
      expect(readHoldings(code, answer), token).to.deep.equal(expected);
      holders += (expected as Map<string, bigint>).size;
      if ((expected as Map<string, bigint>).size > 0) heldKinds.add(bytecode);
    }
    expect(tokens.length).to.be.above(3);
    expect(heldKinds, 'tokens, wrapped AE and pairs with holders').to.have.property('size', 3);
    expect(holders, 'the tokens have holders').to.be.above(10);
  });

  it('reads thousands of holders, amounts past 2^53 and zero or below exact, keys of contracts as addresses', () => {
    const entries: [FateValue, FateValue][] = Array.from({ length: 3_000 }, (_, i) => [
      address(account(i)),
      2n ** 70n + BigInt(i) * 1_000_000_007n,
    ]);
    entries.push([address(account(1, 'ct')), 0n], [address(account(2, 'ct')), -5n]);
    const answer = encodeValue(fateMap(entries));
    const expected = oracle(answer) as Map<string, bigint>;
    expect(expected.size).to.equal(3_002);
    expect(readHoldings(noTypes, answer)).to.deep.equal(expected);
    expect(expected.get(account(7))).to.equal(2n ** 70n + 7_000_000_049n);
    expect(readFateHoldings(decodeValue(encodeValue(fateMap([]))))).to.deep.equal(new Map());
  });

  it('reads no holdings from an answer of another shape or one that does not decode, and never throws', () => {
    const others: [string, FateValue][] = [
      ['an int', 5n],
      ['a map of string keys', fateMap([['alice', 5n]])],
      ['a map of string amounts', fateMap([[address(account(1)), 'five']])],
      ['a tuple', tuple(address(account(1)), 5n)],
    ];
    for (const [what, value] of others) {
      expect(readFateHoldings(value), what).to.equal(undefined);
      expect(readHoldings(code, encodeValue(value)), what).to.equal(undefined);
    }
    expect(readHoldings(code, 'cb_Xfbg4g=='), 'not a FATE value').to.equal(undefined);
    expect(readDecodedHoldings(new Map([['ak_x', 5]])), 'a number, not a bigint').to.equal(undefined);
    expect(readDecodedHoldings([]), 'no map').to.equal(undefined);
    const holders = new Map([
      [account(1), 5n],
      [account(2, 'ct'), 7n],
    ]);
    expect(readDecodedHoldings(holders), 'an account and a contract').to.deep.equal(holders);
  });
});
