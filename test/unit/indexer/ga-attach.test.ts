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
      // typed, as a call's arguments
      args: [
        { type: 'string', value: 'Cats' },
        { type: 'string', value: 'CATS' },
        { type: 'int', value: 8 },
      ],
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
    // a call of another function than init: no init arguments (ae_mdw's contract_init_args)
    const other = new BytecodeContractCallEncoder(code).encodeCall('burn', [1n]);
    expect(attachDetails({ ...attach, call_data: other, auth_fun: authFun('transfer') }).args).to.equal(null);
  });
});
