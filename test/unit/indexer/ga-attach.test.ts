import { expect } from 'chai';
import { BytecodeContractCallEncoder } from '@aeternity/aepp-calldata';
import { hash } from '@aeternity/aepp-sdk';
import { BYTECODE } from '../../../src/devnode/contracts/standards.ts';
import { attachDetails } from '../../../src/indexer/contracts/ga-attach.ts';

describe('attachDetails (a GAAttachTx read as ae_mdw reads it)', () => {
  const code = BYTECODE.aex141 as `cb_${string}`;
  const authFun = (name: string): string => `0x${Buffer.from(hash(name)).toString('hex')}`;
  const callData = new BytecodeContractCallEncoder(code).encodeCall('init', ['Cats', 'CATS', 8n]);
  const attach = { type: 'GAAttachTx', abi_version: 3, code, call_data: callData };

  it("names the function auth_fun hashes, among the code's, and decodes the init arguments", () => {
    expect(attachDetails({ ...attach, auth_fun: authFun('transfer') })).to.deep.equal({
      authFunName: 'transfer',
      args: ['Cats', 'CATS', 8n],
    });
  });

  it('has no name for a hash of a function the code lacks, and nothing for AEVM code or undecodable data', () => {
    expect(attachDetails({ ...attach, auth_fun: authFun('no_such_function') }).authFunName).to.equal(null);
    expect(attachDetails({ ...attach, abi_version: 1, auth_fun: authFun('transfer') })).to.deep.equal({
      authFunName: null,
      args: null,
    });
    expect(attachDetails({ ...attach, call_data: 'cb_AAAA', auth_fun: authFun('transfer') })).to.deep.equal({
      authFunName: 'transfer',
      args: null,
    });
  });
});
