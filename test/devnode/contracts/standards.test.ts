/**
 * @module The native contracts' bytecode, decoded by aepp-calldata's ContractEncoder: the type
 * tables are exactly the AEX-9 / AEX-141 signatures a middleware detects (ae_mdw's
 * `aex9_signatures`, `aex141_signatures`, metadata and extension checks), written out here.
 */
import { expect } from 'chai';
import { ContractEncoder } from '@aeternity/aepp-calldata';
import { BYTECODE } from '../../../src/devnode/contracts/standards.ts';
import { codePayable } from '../../../src/devnode/contracts/bytecode.ts';
import { GA_CONTRACT_BYTECODE } from '../../../src/devnode/contracts/fate-contract.ts';

/** A type in a compact notation, turned into aepp-calldata's decoded form by `t`. */
type T = string | readonly (T | readonly T[])[];

function t(type: T): object {
  if (typeof type === 'string') {
    const name = { address: 'account_pubkey', contract: 'contract_pubkey' }[type] ?? type;
    return { name };
  }
  const [kind, ...rest] = type;
  if (kind === 'list') return { name: 'list', valuesType: t(rest[0] as T) };
  if (kind === 'tuple') return { name: 'tuple', valueTypes: (rest as T[]).map(t) };
  if (kind === 'map') return { name: 'map', keyType: t(rest[0] as T), valueType: t(rest[1] as T) };
  if (kind === 'option') return t(['variant', [], [rest[0] as T]]);
  return { name: 'variant', variants: (rest as T[][]).map((args) => t(['tuple', ...args])) };
}

interface Decoded {
  name: string;
  args: object;
  returnType: object;
  attributes: string[];
  instructions: { mnemonic: string; args: { mod: string; arg: unknown }[] }[][];
}

function functions(code: string): Map<string, Decoded> {
  const decoded = new ContractEncoder().decode(code as `cb_${string}`) as unknown as {
    bytecode: { functions: Decoded[] };
  };
  return new Map(decoded.bytecode.functions.map((f) => [f.name, f]));
}

function expectSignatures(code: string, signatures: Record<string, [T[], T]>): void {
  const table = functions(code);
  for (const [name, [args, ret]] of Object.entries(signatures)) {
    const f = table.get(name);
    expect(f, `function ${name}`).to.not.equal(undefined);
    expect({ args: f!.args, ret: f!.returnType }, name).to.deep.equal({ args: t(['tuple', ...args]), ret: t(ret) });
  }
}

const UNIT: T = ['tuple'];
const METADATA: T = ['variant', ['string'], [['map', 'string', 'string']]];

const AEX9: Record<string, [T[], T]> = {
  aex9_extensions: [[], ['list', 'string']],
  meta_info: [[], ['tuple', 'string', 'string', 'int']],
  total_supply: [[], 'int'],
  owner: [[], 'address'],
  balances: [[], ['map', 'address', 'int']],
  balance: [['address'], ['option', 'int']],
  transfer: [['address', 'int'], UNIT],
};
const ALLOWANCES: Record<string, [T[], T]> = {
  allowances: [[], ['map', ['tuple', 'address', 'address'], 'int']],
  allowance: [[['tuple', 'address', 'address']], ['option', 'int']],
  allowance_for_caller: [['address'], ['option', 'int']],
  create_allowance: [['address', 'int'], UNIT],
  transfer_allowance: [['address', 'address', 'int'], UNIT],
  change_allowance: [['address', 'int'], UNIT],
  reset_allowance: [['address'], UNIT],
};

describe('devnode contract type tables', () => {
  it('gives the fungible token the AEX-9 functions with the mintable, burnable and allowances extensions', () => {
    expectSignatures(BYTECODE.aex9, {
      ...AEX9,
      ...ALLOWANCES,
      mint: [['address', 'int'], UNIT],
      burn: [['int'], UNIT],
      init: [['string', 'int', 'string', ['option', 'int']], UNIT],
    });
    const extensions = functions(BYTECODE.aex9).get('aex9_extensions')!;
    expect(extensions.instructions, 'a constant a middleware reads from the code').to.deep.equal([
      [{ mnemonic: 'RETURNR', args: [{ mod: 'immediate', arg: ['allowances', 'mintable', 'burnable'] }] }],
    ]);
  });

  it('gives wrapped AE and DEX pairs the AEX-9 functions too (pairs are liquidity tokens)', () => {
    expectSignatures(BYTECODE.wae, { ...AEX9, ...ALLOWANCES, deposit: [[], UNIT], withdraw: [['int'], UNIT] });
    expect(functions(BYTECODE.wae).get('deposit')!.attributes).to.deep.equal(['payable']);
    expectSignatures(BYTECODE.pair, {
      ...AEX9,
      ...ALLOWANCES,
      get_reserves: [[], ['tuple', 'int', 'int', 'int']],
      swap: [['int', 'int', 'address', ['option', 'contract']], UNIT],
    });
    expectSignatures(BYTECODE.factory, {
      create_pair: [['contract', 'contract', ['option', 'int'], ['option', 'int']], 'contract'],
      get_pair: [
        ['contract', 'contract'],
        ['option', 'contract'],
      ],
    });
    expectSignatures(BYTECODE.router, {
      add_liquidity: [
        ['contract', 'contract', 'int', 'int', 'int', 'int', 'address', ['option', 'int'], 'int'],
        ['tuple', 'int', 'int', 'int'],
      ],
      swap_exact_tokens_for_tokens: [
        ['int', 'int', ['list', 'contract'], 'address', 'int', ['option', 'contract']],
        ['list', 'int'],
      ],
    });
  });

  it('gives the NFT collection the AEX-141 functions, metadata and the mintable, templates and burnable extensions', () => {
    expectSignatures(BYTECODE.aex141, {
      aex141_extensions: [[], ['list', 'string']],
      meta_info: [[], ['tuple', 'string', 'string', ['option', 'string'], ['variant', [], [], []]]],
      metadata: [['int'], ['option', METADATA]],
      balance: [['address'], ['option', 'int']],
      total_supply: [[], 'int'],
      owner: [['int'], ['option', 'address']],
      transfer: [['address', 'int', ['option', 'string']], UNIT],
      approve: [['address', 'int', 'bool'], UNIT],
      approve_all: [['address', 'bool'], UNIT],
      get_approved: [['int'], ['option', 'address']],
      is_approved: [['int', 'address'], 'bool'],
      is_approved_for_all: [['address', 'address'], 'bool'],
      mint: [['address', ['option', METADATA], ['option', 'string']], 'int'],
      burn: [['int'], UNIT],
      create_template: [[METADATA, ['option', 'int']], 'int'],
      template_mint: [['address', 'int', ['option', 'string']], 'int'],
    });
    const extensions = functions(BYTECODE.aex141).get('aex141_extensions')!;
    expect(extensions.instructions[0]![0]!.args[0]!.arg).to.include.members(['mintable', 'burnable']);
  });

  it('names every function in the symbol table and serialises the code as compiler_sophia version 3', () => {
    const decoded = new ContractEncoder().decode(BYTECODE.aex9 as `cb_${string}`) as unknown as {
      tag: bigint;
      vsn: bigint;
      bytecode: { functions: { name?: string }[] };
    };
    expect([decoded.tag, decoded.vsn]).to.deep.equal([70n, 3n]);
    expect(decoded.bytecode.functions.every((f) => typeof f.name === 'string')).to.equal(true);
  });

  it('reads the payable flag the node shows as a contract account’s `payable`, as aepp-calldata decodes it', () => {
    const encoder = new ContractEncoder();
    for (const code of [BYTECODE.aex9, BYTECODE.wae, GA_CONTRACT_BYTECODE]) {
      const { payable } = encoder.decode(code as `cb_${string}`) as unknown as { payable: boolean };
      expect(codePayable(code), code.slice(0, 20)).to.equal(payable);
    }
    expect([codePayable(BYTECODE.aex9), codePayable(BYTECODE.wae)]).to.deep.equal([false, true]);
  });
});
