/** @module The call outcome the devnode records: every return value decodes with the called function's declared type. */
import { expect } from 'chai';
import { BytecodeContractCallEncoder, ContractByteArrayEncoder } from '@aeternity/aepp-calldata';
import {
  contractCallData,
  contractCallResult,
  DEVNODE_CONTRACT_BYTECODE,
  fateBytecode,
} from '../../src/devnode/fate-contract.ts';

/** FATE bytes: RETURNR with an immediate operand; types integer, empty tuple (unit). */
const RETURNR_IMMEDIATE = [0x01, 0b11];
const INTEGER = 0x07;
const UNIT_TYPE = [0x37, 0];
const UNIT = 0x3f;

/** A contract the devnode did not write: `ping(): unit` and `count(): int`. */
const FOREIGN = fateBytecode(
  [
    { name: 'ping', args: [], ret: UNIT_TYPE, body: [...RETURNR_IMMEDIATE, UNIT] },
    { name: 'count', args: [], ret: [INTEGER], body: [...RETURNR_IMMEDIATE, 7 << 1] },
  ],
  'foreign contract',
) as `cb_${string}`;

const values = new ContractByteArrayEncoder();

/** revertReason decodes a revert value, a FATE string (the library's decodeResult drops its result-type argument). */
const revertReason = (value: string): unknown => values.decodeWithType(value as `cb_${string}`, { name: 'string' });

/** decoded calls `fn` and decodes the outcome: an ok value with the function's return type, a revert reason as a string. */
function decoded(code: `cb_${string}`, fn: string, args: unknown[] = []): { type: string; value: unknown } {
  const encoder = new BytecodeContractCallEncoder(code);
  const result = contractCallResult(code, encoder.encodeCall(fn, args), fn === 'init');
  const value =
    result.returnType === 'ok'
      ? encoder.decodeResult(fn, result.returnValue as `cb_${string}`)
      : revertReason(result.returnValue);
  return { type: result.returnType, value };
}

describe('devnode contract call outcomes', () => {
  it('gives its own contract real results: unit from init, 42 from get, the argument from set and note', () => {
    expect(decoded(DEVNODE_CONTRACT_BYTECODE, 'init')).to.deep.equal({ type: 'ok', value: undefined });
    expect(decoded(DEVNODE_CONTRACT_BYTECODE, 'get')).to.deep.equal({ type: 'ok', value: 42n });
    expect(decoded(DEVNODE_CONTRACT_BYTECODE, 'set', [2n ** 80n])).to.deep.equal({ type: 'ok', value: 2n ** 80n });
    expect(decoded(DEVNODE_CONTRACT_BYTECODE, 'note', ['hello'])).to.deep.equal({ type: 'ok', value: 'hello' });
  });

  it('lets a function of other code returning unit succeed and reverts one returning a value, with a FATE string reason', () => {
    expect(decoded(FOREIGN, 'ping')).to.deep.equal({ type: 'ok', value: [] });
    expect(contractCallResult(FOREIGN, 'cb_Xfbg4g==', true), 'a deploy of other code succeeds').to.include({
      returnType: 'ok',
    });
    const count = decoded(FOREIGN, 'count');
    expect(count.type).to.equal('revert');
    expect(count.value).to.match(/^devnode: no contract code is run/);
  });

  it('reverts with a decodable reason when the calldata or the code is not FATE', () => {
    const notACall = contractCallResult(DEVNODE_CONTRACT_BYTECODE, 'cb_Xfbg4g==', false);
    expect(notACall.returnType).to.equal('revert');
    expect(revertReason(notACall.returnValue)).to.match(/^devnode: calldata/);
    const aevm = contractCallResult('cb_AAAA', contractCallData('get', []), false);
    expect(aevm.returnType).to.equal('revert');
    expect(revertReason(aevm.returnValue)).to.match(/^devnode: no contract code is run/);
  });
});
