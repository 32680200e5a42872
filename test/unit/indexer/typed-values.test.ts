/**
 * @module FATE values with their kind, as ae_mdw writes a call's arguments and return value: each kind encoded by
 * aepp-calldata from a value of a declared type, read back by its tags alone, and the value compared with the
 * library's own decoding.
 */
import { expect } from 'chai';
import { BytecodeContractCallEncoder, ContractByteArrayEncoder } from '@aeternity/aepp-calldata';
import { encode as sdkEncode, Encoding } from '@aeternity/aepp-sdk';
import { typedCallData, typedValue } from '../../../src/indexer/contracts/typed-values.ts';
import { BYTECODE } from '../../../src/devnode/contracts/standards.ts';

const library = new ContractByteArrayEncoder();
const key = (fill: number): Buffer => Buffer.alloc(32, fill);
const ACCOUNT = sdkEncode(key(7), Encoding.AccountAddress);
const CONTRACT = sdkEncode(key(8), Encoding.ContractAddress);
const ORACLE = sdkEncode(key(9), Encoding.OracleAddress);
const QUERY = sdkEncode(key(10), Encoding.OracleQueryId);

/** fate encodes a value of a declared FATE type (aepp-calldata's type objects) as `cb_`. */
const fate = (type: object, value: unknown): string =>
  library.encodeWithType(value as never, type as never) as unknown as string;

const INT = { name: 'int' };
const STRING = { name: 'string' };
const BOOL = { name: 'bool' };

describe('typed FATE values (ae_mdw fate_val)', () => {
  const cases: [string, object, unknown, unknown][] = [
    ['a small int', INT, 415424n, { type: 'int', value: 415424 }],
    ['a negative int', INT, -7n, { type: 'int', value: -7 }],
    ['an int above 2^53, exact', INT, 2n ** 100n + 1n, { type: 'int', value: 2n ** 100n + 1n }],
    ['true', BOOL, true, { type: 'bool', value: true }],
    ['false', BOOL, false, { type: 'bool', value: false }],
    ['a string', STRING, 'héllo', { type: 'string', value: 'héllo' }],
    ['an account', { name: 'account_pubkey' }, ACCOUNT, { type: 'address', value: ACCOUNT }],
    ['a contract', { name: 'contract_pubkey' }, CONTRACT, { type: 'contract', value: CONTRACT }],
    ['an oracle', { name: 'oracle_pubkey' }, ORACLE, { type: 'oracle', value: ORACLE }],
    ['an oracle query', { name: 'oracle_query_id' }, QUERY, { type: 'oracle_query', value: QUERY }],
    [
      'bytes, as a bytearray',
      { name: 'bytes', size: 4 },
      Uint8Array.of(1, 2, 3, 255),
      { type: 'bytes', value: sdkEncode(Uint8Array.of(1, 2, 3, 255), Encoding.Bytearray) },
    ],
    ['bits', { name: 'bits' }, 5n, { type: 'bits', value: 5 }],
    ['unit, the empty tuple', { name: 'tuple', valueTypes: [] }, [], { type: 'unit', value: '' }],
    [
      'a tuple',
      { name: 'tuple', valueTypes: [INT, STRING, BOOL] },
      [1n, 'a', true],
      {
        type: 'tuple',
        value: [
          { type: 'int', value: 1 },
          { type: 'string', value: 'a' },
          { type: 'bool', value: true },
        ],
      },
    ],
    [
      'a list',
      { name: 'list', valuesType: { name: 'account_pubkey' } },
      [ACCOUNT, ACCOUNT],
      {
        type: 'list',
        value: [
          { type: 'address', value: ACCOUNT },
          { type: 'address', value: ACCOUNT },
        ],
      },
    ],
    ['an empty list (not unit)', { name: 'list', valuesType: INT }, [], { type: 'list', value: [] }],
    [
      'a map',
      { name: 'map', keyType: STRING, valueType: { name: 'list', valuesType: INT } },
      new Map([['k', [2n ** 60n]]]),
      {
        type: 'map',
        value: [
          {
            key: { type: 'string', value: 'k' },
            val: { type: 'list', value: [{ type: 'int', value: 2n ** 60n }] },
          },
        ],
      },
    ],
    [
      'a variant with arguments (Some)',
      { name: 'variant', variants: [{ None: [] }, { Some: [INT] }] },
      { Some: [3n] },
      { type: 'variant', value: [1, { type: 'int', value: 3 }] },
    ],
    [
      'a variant without (None)',
      { name: 'variant', variants: [{ None: [] }, { Some: [INT] }] },
      { None: [] },
      { type: 'variant', value: [0] },
    ],
  ];

  for (const [name, type, value, typed] of cases)
    it(`reads ${name} by its tags`, () => {
      const data = fate(type, value);
      expect(typedValue(data)).to.deep.equal(typed);
    });

  it('reads text that is no UTF-8 as base64, as ae_mdw sends such a binary', () => {
    // a FATE short string of two bytes that are no UTF-8: (2 << 2) | 1, then the bytes
    const data = sdkEncode(Uint8Array.of((2 << 2) | 1, 0xff, 0xfe), Encoding.ContractBytearray);
    expect(typedValue(data)).to.deep.equal({ type: 'string', value: Buffer.from([0xff, 0xfe]).toString('base64') });
  });

  it("reads call data into the function's id and the typed arguments, the values as the library decodes them", () => {
    const code = BYTECODE.aex9 as `cb_${string}`;
    const calls = new BytecodeContractCallEncoder(code);
    const amount = 2n ** 70n;
    const data = calls.encodeCall('transfer', [ACCOUNT, amount]);
    const typed = typedCallData(data);
    expect(typed.args).to.deep.equal([
      { type: 'address', value: ACCOUNT },
      { type: 'int', value: amount },
    ]);
    const decoded = calls.decodeCall(data) as { functionId: string; args: unknown[] };
    expect(typed.functionId).to.equal(decoded.functionId);
    expect(typed.args.map((a) => a.value)).to.deep.equal(decoded.args);
  });

  it('refuses what is no FATE value', () => {
    expect(() => typedValue('cb_AAAAAAAAAAAAAAAA')).to.throw();
  });
});
