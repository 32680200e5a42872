import { expect } from 'chai';
import { detectAexn, detectDexFactory, typeSignature } from '../../../src/indexer/contracts/aexn-detect.ts';
import { contractBytecode, type FunctionSpec } from '../../../src/devnode/contracts/bytecode.ts';
import { AEX9_FUNCTIONS, AEX141_FUNCTIONS, BYTECODE, functionsOf } from '../../../src/devnode/contracts/standards.ts';
import { optionType, type FateType } from '../../../src/chain/fate.ts';

const code = (functions: readonly FunctionSpec[]): string => contractBytecode(functions, 'test', false);
const without = (functions: readonly FunctionSpec[], name: string): FunctionSpec[] =>
  functions.filter((f) => f.name !== name);
const retyped = (functions: readonly FunctionSpec[], name: string, ret: FateType): FunctionSpec[] =>
  functions.map((f) => (f.name === name ? { ...f, ret } : f));

describe('AEX-N detection from FATE bytecode', () => {
  it('finds AEX-9 in the fungible tokens, wrapped AE and DEX pairs, with their literal extensions', () => {
    expect(detectAexn(BYTECODE.aex9)).to.deep.equal({
      type: 'aex9',
      extensions: ['allowances', 'mintable', 'burnable'],
      wrappedAe: false,
    });
    expect(detectAexn(BYTECODE.wae)).to.deep.equal({ type: 'aex9', extensions: ['allowances'], wrappedAe: true });
    expect(detectAexn(BYTECODE.pair)).to.deep.equal({ type: 'aex9', extensions: ['allowances'], wrappedAe: false });
  });

  it('knows a wrapped AE by its deposit() and withdraw(int), each with exactly its types', () => {
    const wae = functionsOf('wae');
    expect(detectAexn(code(wae))?.wrappedAe).to.equal(true);
    expect(detectAexn(code(without(wae, 'withdraw')))?.wrappedAe).to.equal(false);
    expect(detectAexn(code(without(wae, 'deposit')))?.wrappedAe).to.equal(false);
    expect(detectAexn(code(retyped(wae, 'deposit', 'int')))?.wrappedAe).to.equal(false);
    // deposit and withdraw without AEX-9 are no token at all
    expect(detectAexn(code(without(wae, 'balances')))).to.equal(undefined);
  });

  it('knows a DEX factory by its pair functions, each with exactly its types, and nothing else as one', () => {
    expect(detectDexFactory(BYTECODE.factory)).to.equal(true);
    for (const other of ['aex9', 'wae', 'pair', 'router', 'aex141'] as const)
      expect(detectDexFactory(BYTECODE[other]), other).to.equal(false);
    const factory = functionsOf('factory');
    for (const name of ['all_pairs_length', 'get_all_pairs', 'get_pair', 'create_pair'])
      expect(detectDexFactory(code(without(factory, name))), `without ${name}`).to.equal(false);
    expect(detectDexFactory(code(retyped(factory, 'get_pair', 'contract'))), 'get_pair retyped').to.equal(false);
    expect(detectDexFactory('cb_not-code')).to.equal(false);
  });

  it('finds AEX-141 in NFT collections', () => {
    expect(detectAexn(BYTECODE.aex141)).to.deep.equal({
      type: 'aex141',
      extensions: ['mintable', 'mintable_templates', 'mintable_templates_limit', 'burnable'],
      metadataTypes: ['url', 'object_id', 'map'],
    });
  });

  it('finds neither in the DEX factory and router', () => {
    expect(detectAexn(BYTECODE.factory)).to.equal(undefined);
    expect(detectAexn(BYTECODE.router)).to.equal(undefined);
  });

  it('needs every function of the standard with exactly its types', () => {
    expect(detectAexn(code(without(AEX9_FUNCTIONS, 'balances')))).to.equal(undefined);
    expect(detectAexn(code(retyped(AEX9_FUNCTIONS, 'balance', 'int')))).to.equal(undefined);
    expect(detectAexn(code(retyped(AEX9_FUNCTIONS, 'meta_info', { tuple: ['string', 'string'] })))).to.equal(undefined);
    expect(detectAexn(code(retyped(AEX141_FUNCTIONS, 'owner', optionType('int'))))).to.equal(undefined);
    expect(detectAexn(code(without(AEX141_FUNCTIONS, 'metadata')))).to.equal(undefined);
  });

  it('reads no extensions when the extensions function computes them', () => {
    const computed = AEX9_FUNCTIONS.map((f) => (f.name === 'aex9_extensions' ? { ...f, constant: undefined } : f));
    expect(detectAexn(code(computed))).to.deep.equal({ type: 'aex9', extensions: undefined, wrappedAe: false });
  });

  it('accepts the AEX-141 layout from before the 2023 update (four metadata types, sender in transfer)', () => {
    const older = without(AEX141_FUNCTIONS, 'total_supply').map((f) =>
      f.name === 'meta_info'
        ? {
            ...f,
            ret: { tuple: ['string', 'string', optionType('string'), { variant: [[], [], [], []] }] } as FateType,
          }
        : f.name === 'transfer'
          ? { ...f, args: ['address', 'address', 'int', optionType('string')] as FateType[] }
          : f,
    );
    expect(detectAexn(code(older))?.metadataTypes).to.deep.equal(['url', 'ipfs', 'object_id', 'map']);
  });

  it('gives undefined for what is not FATE code', () => {
    expect(detectAexn('cb_AAAA')).to.equal(undefined);
    expect(detectAexn('not code')).to.equal(undefined);
  });

  it('writes types in a Sophia-like notation', () => {
    expect(
      typeSignature({
        name: 'map',
        keyType: { name: 'account_pubkey' },
        valueType: {
          name: 'variant',
          variants: [
            { name: 'tuple', valueTypes: [] },
            { name: 'tuple', valueTypes: [{ name: 'int' }] },
          ],
        },
      }),
    ).to.equal('map(address,option(int))');
  });
});
