/** @module The call outcome the devnode records: every return value decodes with the called function's declared type. */
import { expect } from 'chai';
import { BytecodeContractCallEncoder, ContractByteArrayEncoder } from '@aeternity/aepp-calldata';
import { contractCallData, contractCallResult, DEVNODE_CONTRACT_BYTECODE } from '../../src/devnode/contracts/fate-contract.ts';
import { contractBytecode } from '../../src/devnode/contracts/bytecode.ts';
import { UNIT } from '../../src/chain/fate.ts';

/** A contract the devnode did not write: `ping(): unit` and `count(): int`. */
const FOREIGN = contractBytecode(
  [
    { name: 'ping', args: [], ret: { tuple: [] }, constant: UNIT },
    { name: 'count', args: [], ret: 'int', constant: 7n },
  ],
  'foreign contract',
);

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
