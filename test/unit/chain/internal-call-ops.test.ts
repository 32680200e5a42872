/**
 * @module Which contract code can make internal calls: read from the code's instructions (aepp-calldata decodes them),
 * so that a call of code without one is not run again.
 */
import { expect } from 'chai';
import { ContractEncoder } from '@aeternity/aepp-calldata';
import { INTERNAL_CALL_OPS, mayMakeInternalCalls } from '../../../src/chain/internal-call-ops.ts';
import { BYTECODE, type ContractKind } from '../../../src/devnode/contracts/standards.ts';

/** opsOf lists, per function, the operations of INTERNAL_CALL_OPS a contract's code holds (aepp-calldata's reading). */
function opsOf(code: string): Record<string, string[]> {
  const { bytecode } = new ContractEncoder().decode(code as `cb_${string}`) as unknown as {
    bytecode: { functions: { name: string; instructions: { mnemonic: string }[][] }[] };
  };
  return Object.fromEntries(
    bytecode.functions
      .map((f) => [
        f.name,
        f.instructions.flat().flatMap((i) => (INTERNAL_CALL_OPS.has(i.mnemonic) ? [i.mnemonic] : [])),
      ])
      .filter(([, ops]) => ops!.length > 0),
  );
}

describe('chain: internal-call-ops', () => {
  it('finds the operations in the functions that run them: a spend, a remote call, a clone, a name transaction', () => {
    expect(opsOf(BYTECODE.wae)).to.deep.equal({ withdraw: ['SPEND'] });
    expect(opsOf(BYTECODE.factory)).to.deep.equal({ create_pair: ['CLONE'] });
    expect(Object.keys(opsOf(BYTECODE.router)).sort()).to.deep.equal([
      'add_liquidity',
      'swap_exact_ae_for_tokens',
      'swap_exact_tokens_for_tokens',
    ]);
    expect(opsOf(BYTECODE.registrar)).to.deep.equal({
      claim: ['AENS_CLAIM'],
      update: ['AENS_UPDATE'],
      transfer: ['AENS_TRANSFER'],
      revoke: ['AENS_REVOKE'],
    });
  });

  it('says which code may make internal calls: a token or a collection makes none', () => {
    const may = (Object.keys(BYTECODE) as ContractKind[]).filter((k) => mayMakeInternalCalls(BYTECODE[k]));
    expect(may.sort()).to.deep.equal(
      ['factory', 'hc_election', 'hc_staking', 'hc_staking_validator', 'pair', 'registrar', 'router', 'wae'].sort(),
    );
  });

  it('takes code it cannot read as code that may (AEVM code, a later serialisation, garbage)', () => {
    expect(
      mayMakeInternalCalls('cb_AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAABmOoUr'),
    ).to.equal(true);
    expect(mayMakeInternalCalls('not code')).to.equal(true);
  });
});
