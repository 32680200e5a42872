/**
 * @module The staking contract's answers read from their FATE value (indexer/contracts/fate-answers.ts): the sorted
 * validators and each one's delegates, checked against aepp-calldata's decoding by the contract's types (the
 * independent oracle) on the devnode's own answers, and an answer the FATE reading does not know read through
 * aepp-calldata as before.
 */
import { BytecodeContractCallEncoder } from '@aeternity/aepp-calldata';
import { expect } from 'chai';
import { encode } from '../../../../src/chain/encoding.ts';
import { address, decodeValue, encodeValue, fateMap, tuple } from '../../../../src/chain/fate.ts';
import { parseJson } from '../../../../src/chain/json.ts';
import { dryRun } from '../../../../src/devnode/api/dry-run.ts';
import { BYTECODE, devnodeHyperchain, EOE_FLAG, generateChain } from '../../../../src/devnode/index.ts';
import type { BytecodeEncoder } from '../../../../src/indexer/contracts/contract-decoder.ts';
import {
  readDelegates,
  readFateDelegates,
  readFateStakes,
  readStakes,
} from '../../../../src/indexer/hyperchain/epoch-rows.ts';
import { readAnswer } from '../../../../src/indexer/contracts/fate-answers.ts';
import { dryRunBody, fateCall, readResults } from '../../../../src/node/dry-run.ts';

const SEED = 'fate-answers';
const A = 'ak_2a1j2Mk9YSmC1gioUq4PWRm3bsv887MbuRVwyv4KaUGoR1eiKi';

describe("the staking contract's answers read from their FATE value", function () {
  this.timeout(60_000);
  const hc = devnodeHyperchain({ epochLength: 5, validators: 4 }, 'hc_devnet', SEED);
  const { chain } = generateChain({
    generations: 40,
    seed: SEED,
    hyperchain: hc,
    networkId: 'hc_devnet',
    microBlocksPerGeneration: 1,
    txsPerMicroBlock: 4,
  });
  const staking = hc.hyperchain.staking;
  const code = new BytecodeContractCallEncoder(BYTECODE.hc_staking as `cb_${string}`) as unknown as BytecodeEncoder;

  /** answers are the devnode's answers (`cb_…`) to calls of the staking contract at key block `height`. */
  function answers(height: number, calls: readonly (readonly [fn: string, ...args: string[]])[]): string[] {
    const top = chain.keyBlocks[height]!.hash;
    const body = dryRunBody(
      top,
      calls.map(([fn, ...args]) => fateCall(staking, code.encodeCall(fn, args))),
    );
    const results = readResults(parseJson(dryRun(chain, parseJson(body)).body), calls.length);
    return results.map((r) => {
      if (!r.ok) throw new Error(`dry-run failed: ${r.reason}`);
      return r.value;
    });
  }

  /** delegatesOf reads a get_validator_state answer as the hyperchain reader does */
  const delegatesOf = (encoder: BytecodeEncoder, answer: string): Map<string, bigint> | undefined =>
    readAnswer(encoder, 'get_validator_state', answer, readFateDelegates, readDelegates);

  it('reads the sorted validators and their delegates at every epoch boundary as aepp-calldata does, stakes exact', () => {
    const boundaries = chain.keyBlocks.filter((k) => k.header.height === 0 || (k.header.hcFlags! & EOE_FLAG) !== 0);
    expect(boundaries.length).to.be.above(5);
    let read = 0;
    let shared = 0;
    for (const { header } of boundaries) {
      const [sortedAnswer] = answers(header.height, [['sorted_validators']]);
      const sorted = readStakes(code.decodeResult('sorted_validators', sortedAnswer!, 'ok'));
      expect(readFateStakes(decodeValue(sortedAnswer!))).to.deep.equal(sorted);
      expect(readAnswer(code, 'sorted_validators', sortedAnswer!, readFateStakes, readStakes)).to.deep.equal(sorted);
      const states = answers(
        header.height,
        sorted.map(([v]) => ['get_validator_state', v]),
      );
      sorted.forEach(([validator, stake], i) => {
        const answer = states[i]!;
        const oracle = readDelegates(code.decodeResult('get_validator_state', answer, 'ok'));
        const delegates = readFateDelegates(decodeValue(answer));
        expect(delegates, `${validator} at ${header.height}`).to.deep.equal(oracle).and.not.equal(undefined);
        expect(delegatesOf(code, answer)).to.deep.equal(oracle);
        // a validator's delegates hold its stake to the aetto (10^24 aettos a validator: far past 2^53)
        expect([...delegates!.values()].reduce((sum, s) => sum + s, 0n)).to.equal(stake);
        expect(stake > 2n ** 53n).to.equal(true);
        read++;
        if (delegates!.size > 1) shared++;
      });
    }
    expect(read).to.be.above(20);
    expect(shared, 'validators with delegates besides their owner').to.be.above(0);
  });

  it('reads an answer the FATE reading does not know through aepp-calldata, as before', () => {
    const sorted = answers(0, [['sorted_validators']])[0]!;
    const [owner] = readStakes(code.decodeResult('sorted_validators', sorted, 'ok'))[0]!;
    const real = answers(0, [['get_validator_state', owner]])[0]!;
    const decoded: string[] = [];
    /** the staking contract's decoding as aepp-calldata gives it, asked for `answer` */
    const oracle = (answer: unknown): BytecodeEncoder => ({
      ...code,
      decodeResult(fn, data) {
        decoded.push(data);
        return answer;
      },
    });

    // a FATE kind chain/fate.ts does not read (bits) in the validator's state: aepp-calldata reads it
    const bits = encode('cb', Uint8Array.of(0x1b, 0x4f, 0x05));
    const expected = readDelegates(code.decodeResult('get_validator_state', real, 'ok'));
    expect(delegatesOf(oracle(code.decodeResult('get_validator_state', real, 'ok')), bits)).to.deep.equal(expected);
    expect(decoded).to.deep.equal([bits]);

    // the node's newer MainStaking: a validator record of six fields, no delegates, in either reading
    const newer = encodeValue(tuple(address(A), address(A), 2n ** 70n, 2n ** 70n, 1n, true));
    expect(delegatesOf(oracle([A, A, 2n ** 70n, 2n ** 70n, 1n, true]), newer)).to.equal(undefined);
    expect(decoded).to.deep.equal([bits, newer]);

    // delegates keyed by something else than addresses, stakes that are no list of (address, int): not misread
    const state = tuple(address(A), 0n, 0n, fateMap([]), '', '', '', fateMap([[1n, 2n]]), 0n);
    const otherKeys = encodeValue(tuple(address(A), address(A), 0n, 0n, 0n, 0n, true, state));
    expect(readFateDelegates(decodeValue(otherKeys))).to.equal(undefined);
    expect(readFateStakes(decodeValue(real))).to.equal(undefined);
    // and aepp-calldata's reading of them fails as it did (sorted_validators answered no list)
    expect(() => readAnswer(oracle(undefined), 'sorted_validators', real, readFateStakes, readStakes)).to.throw(
      TypeError,
    );

    // bytes that are no answer at all fail in aepp-calldata, as they did
    expect(() => delegatesOf(code, 'cb_AAAA')).to.throw();
  });
});
