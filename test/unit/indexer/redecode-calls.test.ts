import { expect } from 'chai';
import { isTransientDecodeError } from '../../../src/indexer/contracts/contract-decoder.ts';
import { undecodedForNow } from '../../../src/indexer/derived/redecode-calls.ts';
import { undecodedCalls } from '../../../src/indexer/maintenance/verify.ts';
import type { DecodedCall, FetchedGeneration } from '../../../src/indexer/rows/rows.ts';

const failed = (decodeError: string | null): DecodedCall => ({
  function: decodeError === null ? 'f' : null,
  arguments: null,
  result: null,
  decodeError,
});
const generation = (height: number, calls: [string, DecodedCall][]): FetchedGeneration => ({
  height,
  keyBlock: { height },
  microBlocks: [],
  callInfos: new Map(),
  decodedCalls: new Map(calls),
});

describe('contract calls undecoded for now', () => {
  it('tells a decoding that waits for what decodes it from one the call itself fails', () => {
    for (const transient of [
      'contract bytecode unknown',
      'compiler unavailable: the compiler is unreachable',
      'compiler unavailable: compiler /decode-calldata/bytecode: 503 busy',
      'return value: compiler unavailable: the compiler is unreachable',
      // the compiler away and the in-process decoder failing: the compiler may decode it once back
      'compiler unavailable: the compiler is unreachable; in-process: bad calldata',
    ])
      expect(isTransientDecodeError(transient), transient).to.equal(true);
    for (const genuine of [
      null,
      'AEVM calls need COMPILER_URL',
      'compiler sent no function; in-process: bad calldata',
      'compiler /decode-calldata/bytecode: 400 [{"type":"data_error"}]',
      'return value: Invalid FATE data',
      'not decoded',
    ])
      expect(isTransientDecodeError(genuine), String(genuine)).to.equal(false);
  });

  it("names a batch's first call undecoded for now, none when every failure is the call's own", () => {
    const gens = [
      generation(5, [
        ['th_a', failed(null)],
        ['th_b', failed('AEVM calls need COMPILER_URL')],
      ]),
      generation(6, [
        ['th_c', failed('contract bytecode unknown')],
        ['th_d', failed('compiler unavailable: timeout')],
      ]),
    ];
    expect(undecodedForNow(gens)).to.equal('contract call th_c stored undecoded: contract bytecode unknown');
    expect(undecodedForNow(gens.slice(0, 1))).to.equal(undefined);
  });

  it('are differences for mdw -v, saying what repairs them', () => {
    const stored = [
      { txHash: 'th_a', callInfo: null, pruned: false, decodeError: null },
      { txHash: 'th_b', callInfo: null, pruned: false, decodeError: 'contract bytecode unknown' },
      { txHash: 'th_c', callInfo: null, pruned: false, decodeError: 'return value: Invalid FATE data' },
    ];
    expect(undecodedCalls(9, stored, false)).to.deep.equal([
      'height 9: contract call th_b stored undecoded (contract bytecode unknown): mdw -H 9 decodes it again',
    ]);
    expect(undecodedCalls(9, stored, true)).to.deep.equal([
      'height 9: contract call th_b stored undecoded (contract bytecode unknown): the populator decodes it again once it can',
    ]);
  });
});
