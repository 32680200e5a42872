/** @module The ACIs the devnode derives from its type tables, checked with aepp-calldata's ACI and bytecode encoders. */
import { expect } from 'chai';
import { AciContractCallEncoder, BytecodeContractCallEncoder } from '@aeternity/aepp-calldata';
import { aciType, GA_ACI, TOKEN_ACI } from '../../src/devnode/contracts/aci.ts';
import { optionType } from '../../src/chain/fate.ts';
import { BYTECODE } from '../../src/devnode/contracts/standards.ts';
import { GA_CONTRACT_BYTECODE } from '../../src/devnode/contracts/fate-contract.ts';

const ALICE = 'ak_2dATVcZ9KJU5a8hdsVtTv21pYiGWiPbmVcU1Pz72FFqpk9pSRR';

describe('devnode ACIs', () => {
  it('writes type-table types in the ACI notation, options as option', () => {
    expect(aciType({ tuple: [] })).to.deep.equal({ tuple: [] });
    expect(aciType({ map: [{ tuple: ['address', 'address'] }, 'int'] })).to.deep.equal({
      map: [{ tuple: ['address', 'address'] }, 'int'],
    });
    expect(aciType(optionType({ list: 'string' }))).to.deep.equal({ option: [{ list: ['string'] }] });
    expect(() => aciType({ variant: [[], [], []] })).to.throw(RangeError);
  });

  it('encodes the token calls as its bytecode declares them and marks the state-changing functions stateful', () => {
    const byAci = new AciContractCallEncoder(TOKEN_ACI as never);
    const byCode = new BytecodeContractCallEncoder(BYTECODE.aex9 as `cb_${string}`);
    const transfer = byAci.encodeCall('FungibleTokenFull', 'transfer', [ALICE, 5n]);
    expect(transfer).to.equal(byCode.encodeCall('transfer', [ALICE, 5n]));
    const init = byAci.encodeCall('FungibleTokenFull', 'init', ['T', 2n, 'T', 7n]);
    expect(byCode.decodeCall(init)).to.deep.include({ functionName: 'init' });
    const stateful = TOKEN_ACI[0].contract.functions.filter((f) => f.stateful).map((f) => f.name);
    expect(stateful).to.have.members([
      'init',
      'transfer',
      'create_allowance',
      'transfer_allowance',
      'change_allowance',
      'reset_allowance',
      'mint',
      'burn',
    ]);
  });

  it('gives the generalized-account contract its authorize(int): bool', () => {
    const byAci = new AciContractCallEncoder(GA_ACI as never);
    const byCode = new BytecodeContractCallEncoder(GA_CONTRACT_BYTECODE);
    expect(byAci.encodeCall('DevnodeAuth', 'authorize', [3n])).to.equal(byCode.encodeCall('authorize', [3n]));
  });
});
