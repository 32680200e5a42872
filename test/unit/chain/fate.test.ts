/** @module The FATE value codec (chain/fate.ts), checked against @aeternity/aepp-calldata (the independent oracle). */
import { expect } from 'chai';
import { BytecodeContractCallEncoder, ContractByteArrayEncoder } from '@aeternity/aepp-calldata';
import {
  address,
  decodeCallData,
  encodeCallData,
  deserializeValue,
  encodeValue,
  fateBytes,
  fateMap,
  FateDecodeError,
  serializeType,
  NONE,
  some,
  tuple,
  type FateValue,
} from '../../../src/chain/fate.ts';
import { functionId } from '../../../src/devnode/contracts/bytecode.ts';
import { BYTECODE } from '../../../src/devnode/contracts/standards.ts';

const values = new ContractByteArrayEncoder();
const decodeAs = (value: FateValue, type: object): unknown =>
  values.decodeWithType(encodeValue(value) as `cb_${string}`, type as { name: 'int' });

const A = 'ak_2a1j2Mk9YSmC1gioUq4PWRm3bsv887MbuRVwyv4KaUGoR1eiKi';
const B = 'ak_11111111111111111111111111111111273Yts';
const CT = 'ct_2a1j2Mk9YSmC1gioUq4PWRm3bsv887MbuRVwyv4KaUGoR1eiKi';

describe('FATE values', () => {
  it("encodes Sophia bytes (hashes, signatures, a hyperchain's seeds) as FATE byte objects and reads them back", () => {
    for (const size of [0, 7, 32, 64, 100]) {
      const bytes = Uint8Array.from({ length: size }, (_, i) => (i * 37) % 256);
      const decoded = decodeAs(fateBytes(bytes), { name: 'bytes', size: size === 100 ? undefined : size });
      expect(Buffer.from(decoded as Uint8Array)).to.deep.equal(Buffer.from(bytes));
      const encoded = values.encodeWithType(bytes, { name: 'bytes', size } as never);
      expect(encodeValue(fateBytes(bytes))).to.equal(encoded);
      expect(deserializeValue(Buffer.from(encoded.slice(3), 'base64').subarray(0, -4))).to.deep.equal(fateBytes(bytes));
    }
    // the type table writes bytes(n) as the type tag and n as a FATE integer (aeb_fate_encoding:serialize_type/1)
    expect(serializeType({ bytes: 32 })).to.deep.equal([0x97, 64]);
  });

  it('encodes integers of every size and sign as aepp-calldata reads them', () => {
    for (const n of [0n, 1n, -1n, 63n, -63n, 64n, -64n, 65n, 255n, 256n, 2n ** 53n + 1n, -(2n ** 200n), 10n ** 40n]) {
      expect(decodeAs(n, { name: 'int' }), String(n)).to.equal(n);
    }
  });

  it('encodes empty, short and long strings (the long form carries its length − 64 as a FATE integer)', () => {
    for (const s of ['', 'a', 'x'.repeat(63), 'y'.repeat(64), 'z'.repeat(200), 'é✓ unicode'])
      expect(decodeAs(s, { name: 'string' })).to.equal(s);
  });

  it('encodes addresses, contracts, lists longer than 15, tuples, options and maps sorted by key', () => {
    expect(decodeAs(address(A), { name: 'account_pubkey' })).to.equal(A);
    expect(decodeAs(address(CT), { name: 'contract_pubkey' })).to.equal(CT);
    const list = Array.from({ length: 20 }, (_, i) => BigInt(i * 1000));
    expect(decodeAs(list, { name: 'list', valuesType: { name: 'int' } })).to.deep.equal(list);
    const option = { name: 'variant', variants: [{ None: [] }, { Some: [{ name: 'int' }] }] };
    // aepp-calldata maps option(int) to the value or undefined
    expect(decodeAs(some(7n), option)).to.equal(7n);
    expect(decodeAs(NONE, option)).to.equal(undefined);
    const mapType = { name: 'map', keyType: { name: 'account_pubkey' }, valueType: { name: 'int' } };
    const map = fateMap([
      [address(A), 2n ** 80n],
      [address(B), 5n],
    ]);
    expect(decodeAs(map, mapType)).to.deep.equal(
      new Map([
        [B, 5n],
        [A, 2n ** 80n],
      ]),
    );
    const reversed = fateMap([...map.entries].reverse());
    expect(encodeValue(reversed), 'entries are serialised in key order').to.equal(encodeValue(map));
    expect(
      decodeAs(tuple('n', 's', 18n), {
        name: 'tuple',
        valueTypes: [{ name: 'string' }, { name: 'string' }, { name: 'int' }],
      }),
    ).to.deep.equal(['n', 's', 18n]);
  });

  it('produces the calldata aepp-calldata encodes from the bytecode, and reads it back', () => {
    const encoder = new BytecodeContractCallEncoder(BYTECODE.aex141 as `cb_${string}`);
    const theirs = encoder.encodeCall('transfer', [A, 5n, { 1: ['data'] }]);
    const ours = encodeCallData(functionId('transfer'), [address(A), 5n, some('data')]);
    expect(ours).to.equal(theirs);
    const decoded = decodeCallData(theirs);
    expect(decoded.functionId).to.equal(functionId('transfer'));
    expect(decoded.args[0]).to.deep.equal(address(A));
    expect(decoded.args[1]).to.equal(5n);
  });

  it('refuses a value of a kind it does not read, and a size the bytes cannot hold, with a decode error', () => {
    const K = 'ok_2a1j2Mk9YSmC1gioUq4PWRm3bsv887MbuRVwyv4KaUGoR1eiKi';
    const serialized = (value: unknown, type: object): Uint8Array =>
      Buffer.from(values.encodeWithType(value as never, type as never).slice(3), 'base64').subarray(0, -4);
    const unknownKinds: Record<string, Uint8Array> = {
      bits: serialized(5n, { name: 'bits' }),
      oracle: serialized(K, { name: 'oracle_pubkey' }),
      'oracle query': serialized(K.replace('ok_', 'oq_'), { name: 'oracle_query_id' }),
      channel: serialized(K.replace('ok_', 'ch_'), { name: 'channel' }),
      'store map': Uint8Array.of(0xbf, 0x01),
      'type representation': Uint8Array.of(0x07),
      'contract bytearray': Uint8Array.of(0x8f, 0x00),
    };
    for (const [kind, bytes] of Object.entries(unknownKinds))
      expect(() => deserializeValue(bytes), kind).to.throw(FateDecodeError, /unsupported/);
    // a list, tuple or map announcing more values than bytes follow
    for (const bytes of [
      [0x1f, 0x88, 1, 0, 0, 0, 0, 0, 0, 0],
      [0x0b, 0x85, 0xff, 0xff, 0xff, 0xff, 0xff],
      [0x2f, 0x02, 0x02],
    ])
      expect(() => deserializeValue(Uint8Array.from(bytes))).to.throw(FateDecodeError, /truncated/);
  });

  it('refuses calldata that is not a call tuple, with a decode error', () => {
    expect(() => decodeCallData('cb_Xfbg4g==')).to.throw(/truncated|call tuple/);
    expect(() => decodeCallData(encodeValue(5n))).to.throw(/call tuple/);
    expect(() => decodeCallData('not calldata')).to.throw(/cb_/);
  });
});
