/**
 * @module The id cache's encodings: whatever it remembers, each id's and field's text is the aepp-sdk's of its prefix and
 * bytes, those that share a slot of its tables (the same first bytes, the same bytes under another prefix) included.
 */
import { randomBytes } from 'node:crypto';
import { expect } from 'chai';
import { encode as sdkEncode, Encoding } from '@aeternity/aepp-sdk';
import { encodedField, encodedId } from '../../../src/chain/id-cache.ts';

const ENCODINGS = { ak: Encoding.AccountAddress, ok: Encoding.OracleAddress, ct: Encoding.ContractAddress } as const;

describe('chain/id-cache encodedId', () => {
  it('encodes every id as the sdk does, asked again and again in any order', () => {
    const ids = Array.from({ length: 200 }, () => randomBytes(32));
    for (let round = 0; round < 3; round++)
      for (const bytes of ids)
        for (const prefix of ['ak', 'ok', 'ct'] as const)
          expect(encodedId(prefix, bytes)).to.equal(sdkEncode(bytes, ENCODINGS[prefix]));
  });

  it('tells apart ids that share their first bytes, and the same bytes under another prefix', () => {
    const first = randomBytes(32);
    // the same first four bytes (one slot of the cache), each differing from the first in one later byte
    const others = [4, 17, 31].map((at) => {
      const b = Buffer.from(first);
      b[at] = b[at]! ^ 0xff;
      return b;
    });
    for (let round = 0; round < 2; round++)
      for (const bytes of [first, ...others]) {
        expect(encodedId('ak', bytes)).to.equal(sdkEncode(bytes, Encoding.AccountAddress));
        expect(encodedId('ok', bytes)).to.equal(sdkEncode(bytes, Encoding.OracleAddress));
      }
  });

  it('remembers a copy: bytes changed after their encoding do not change what a later id is encoded as', () => {
    const buffer = Buffer.from(randomBytes(32));
    const before = sdkEncode(Buffer.from(buffer), Encoding.AccountAddress);
    expect(encodedId('ak', buffer)).to.equal(before);
    // the caller's buffer reused for another id (a view of a pooled buffer would be)
    buffer[20] = buffer[20]! ^ 1;
    expect(encodedId('ak', buffer)).to.equal(sdkEncode(Buffer.from(buffer), Encoding.AccountAddress));
    buffer[20] = buffer[20]! ^ 1;
    expect(encodedId('ak', buffer)).to.equal(before);
  });

  it('encodes byte strings of other lengths too (shorter than a slot’s key unremembered)', () => {
    for (let round = 0; round < 2; round++)
      for (const size of [0, 1, 3, 4, 20, 64]) {
        const bytes = new Uint8Array(size).fill(size);
        expect(encodedId('cb', bytes)).to.equal(sdkEncode(bytes, Encoding.ContractBytearray));
      }
  });
});

describe('chain/id-cache encodedField', () => {
  it('encodes every field as the sdk does: empty, short, one byte apart, under two prefixes, long ones not remembered', () => {
    const fields = [new Uint8Array(0), ...[1, 5, 32, 100, 112, 113, 400].map((n) => randomBytes(n))];
    // one byte apart at each end, and the same bytes one longer
    for (const n of [31, 64]) {
      const b = randomBytes(n);
      fields.push(
        b,
        Buffer.concat([b.subarray(0, n - 1), Buffer.of(b[n - 1]! ^ 1)]),
        Buffer.of(b[0]! ^ 1, ...b.subarray(1)),
      );
      fields.push(Buffer.concat([b, Buffer.of(0)]));
    }
    for (let round = 0; round < 3; round++)
      for (const bytes of fields) {
        expect(encodedField('ba', bytes)).to.equal(sdkEncode(bytes, Encoding.Bytearray));
        expect(encodedField('cb', bytes)).to.equal(sdkEncode(bytes, Encoding.ContractBytearray));
      }
  });
});
