/** @module RLP (chain/rlp.ts) against the `rlp` package the aepp-sdk serialises with. */
import { randomBytes, randomInt } from 'node:crypto';
import { expect } from 'chai';
import { encode as oracleEncode } from 'rlp';
import { bytesToInt, intToBytes, rlpDecode, rlpEncode, rlpLength, type RlpItem } from '../../../src/chain/rlp.ts';

/** randomItem is a tree of byte strings of every header size (one byte under 0x80, short, long) and lists. */
function randomItem(depth: number): RlpItem {
  if (depth > 0 && randomInt(3) === 0) return Array.from({ length: randomInt(6) }, () => randomItem(depth - 1));
  const sizes = [0, 1, 1, 2, 55, 56, 57, 255, 256, 300, 65_535, 65_536, 70_000];
  const bytes = randomBytes(sizes[randomInt(sizes.length)]!);
  if (bytes.length === 1 && randomInt(2) === 0) bytes[0]! &= 0x7f;
  return bytes;
}

describe('chain/rlp', () => {
  it('encodes item trees as the sdk’s rlp package does, and decodes them back', () => {
    for (let i = 0; i < 300; i++) {
      const item = randomItem(3);
      const bytes = rlpEncode(item);
      expect(Buffer.from(bytes).equals(Buffer.from(oracleEncode(item as never)))).to.equal(true);
      expect(rlpDecode(bytes)).to.deep.equal(item);
    }
  });

  it('decodes a plain Uint8Array to plain byte strings, empty and one-byte ones included, and a Buffer to Buffers', () => {
    /** plain is an item with its byte strings as hex, whatever their type (arrays of numbers took chai seconds) */
    const plain = (item: RlpItem): unknown =>
      Array.isArray(item)
        ? item.map(plain)
        : Buffer.from(item.buffer, item.byteOffset, item.byteLength).toString('hex');
    const types = (item: RlpItem): unknown => (Array.isArray(item) ? item.map(types) : item.constructor.name);
    for (let i = 0; i < 300; i++) {
      const item = [randomItem(3), Buffer.of(), Buffer.of(5), Buffer.of(0x90)];
      const fromBuffer = rlpDecode(rlpEncode(item));
      const fromPlain = rlpDecode(new Uint8Array(rlpEncode(item)));
      expect(plain(fromPlain)).to.deep.equal(plain(item));
      expect(plain(fromBuffer)).to.deep.equal(plain(item));
      expect(JSON.stringify(types(fromBuffer))).not.to.include('"Uint8Array"');
      expect(JSON.stringify(types(fromPlain))).not.to.include('"Buffer"');
      // a Buffer's items answer as Buffers: a one-byte string's hex is its byte's
      expect((fromBuffer as Buffer[])[3]!.toString('hex')).to.equal('90');
    }
  });

  it('measures a string or list of any content size as its encoding is long', () => {
    for (const n of [2, 55, 56, 255, 256, 65_535, 65_536, 16_777_216]) {
      expect(rlpLength(n)).to.equal(rlpEncode(Buffer.alloc(n, 0x80)).length);
    }
    // a list of 70 000 bytes of content: a three-byte length
    expect(Buffer.from(rlpEncode([Buffer.alloc(69_996)])).subarray(0, 4)).to.deep.equal(
      Buffer.from([0xfa, 0x01, 0x11, 0x70]),
    );
  });

  it('writes integers as the sdk’s rlp package does, numbers and bigints alike, 0 as one zero byte', () => {
    const values: bigint[] = [1n, 127n, 128n, 255n, 256n, 65_535n, 65_536n, 2n ** 32n - 1n, 2n ** 32n, 2n ** 53n - 1n];
    for (let bits = 1; bits < 300; bits++) values.push(BigInt(`0x${randomBytes(Math.ceil(bits / 8)).toString('hex')}`));
    for (const v of values.filter((x) => x > 0n)) {
      const expected = Buffer.from(oracleEncode(v));
      expect(Buffer.from(rlpEncode(intToBytes(v))).equals(expected), `${v}`).to.equal(true);
      expect(bytesToInt(intToBytes(v))).to.equal(v);
      if (v <= BigInt(Number.MAX_SAFE_INTEGER))
        expect(Buffer.from(rlpEncode(intToBytes(Number(v)))).equals(expected), `${v} as a number`).to.equal(true);
    }
    // reads leading zero bytes and every length as the bytes' hex reads (it takes six bytes at a time)
    expect(bytesToInt(new Uint8Array(0))).to.equal(0n);
    for (let n = 1; n <= 40; n++) {
      const bytes = randomBytes(n);
      bytes[0] = n % 3 === 0 ? 0 : bytes[0]!;
      expect(bytesToInt(bytes), `${n} bytes`).to.equal(BigInt(`0x${bytes.toString('hex')}`));
    }
    expect([...intToBytes(0)]).to.deep.equal([0]);
    expect([...intToBytes(0n)]).to.deep.equal([0]);
    expect(() => intToBytes(-1)).to.throw(RangeError);
    expect(() => intToBytes(-1n)).to.throw(RangeError);
    expect(() => intToBytes(1.5)).to.throw(RangeError);
  });
});
