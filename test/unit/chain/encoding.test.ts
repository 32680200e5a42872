import { expect } from 'chai';
import { encode as sdkEncode, Encoding } from '@aeternity/aepp-sdk';
import bs58 from 'bs58';
import {
  base58,
  base58Decode,
  carriesBytes,
  decode,
  decodeCanonical,
  DecodeError,
  encode,
  hash,
  isEncoded,
  reprefix,
} from '../../../src/chain/encoding.ts';
import { randomBytes } from 'node:crypto';

describe('chain/encoding', () => {
  it('encodes like aepp-sdk for base58 and base64 prefixes', () => {
    for (let i = 0; i < 20; i++) {
      const bytes = randomBytes(32);
      expect(encode('ak', bytes)).to.equal(sdkEncode(bytes, Encoding.AccountAddress));
      expect(encode('th', bytes)).to.equal(sdkEncode(bytes, Encoding.TxHash));
      const any = randomBytes(i * 7);
      expect(encode('cb', any)).to.equal(sdkEncode(any, Encoding.ContractBytearray));
      // a long payload (the reused buffer grows), then short ones again
      const long = randomBytes(200 + i * 40);
      expect(encode('cb', long)).to.equal(sdkEncode(long, Encoding.ContractBytearray));
      expect(encode('nm', long)).to.equal(sdkEncode(long, Encoding.Name));
    }
    for (const id of [new Uint8Array(32), new Uint8Array(32).fill(0xff)])
      expect(encode('ak', id)).to.equal(sdkEncode(id, Encoding.AccountAddress));
  });

  it("encodes Base58 payloads of every length like aepp-sdk's encode, leading zero bytes and signatures included", () => {
    for (let i = 0; i < 1500; i++) {
      const bytes = randomBytes(i % 150);
      if (i % 4 === 0) bytes.fill(0, 0, Math.min(bytes.length, i % 9));
      if (i % 50 === 1) bytes.fill(0xff);
      expect(encode('nm', bytes), bytes.toString('hex')).to.equal(sdkEncode(bytes, Encoding.Name));
      const signature = randomBytes(64);
      if (i % 3 === 0) signature.fill(0, 0, i % 5);
      expect(encode('sg', signature)).to.equal(sdkEncode(signature, Encoding.Signature));
    }
  });

  it('encodes Base58 like the bs58 library, leading zero bytes included', () => {
    for (let i = 0; i < 2000; i++) {
      const bytes = randomBytes(i % 70);
      if (i % 5 === 0 && bytes.length > 2) bytes.fill(0, 0, 1 + (i % 3));
      expect(base58(bytes)).to.equal(bs58.encode(bytes));
    }
    expect(base58(new Uint8Array(0))).to.equal('');
    expect(base58(Uint8Array.of(0, 0, 1))).to.equal('112');
    expect(base58(new Uint8Array(3))).to.equal('111');
    // longer than any id or signature, and a short one after it; the longest the first buffers hold, all zeros too
    for (const n of [301, 1000, 68, 228]) {
      const bytes = randomBytes(n);
      expect(base58(bytes)).to.equal(bs58.encode(bytes));
      expect(base58(bytes.fill(0xff))).to.equal(bs58.encode(bytes));
      expect(base58(bytes.fill(0))).to.equal(bs58.encode(bytes));
    }
  });

  it('decodes Base58 like the bs58 library: leading ones, every length, characters outside the alphabet', () => {
    for (let i = 0; i < 3000; i++) {
      const bytes = randomBytes(i % 300);
      if (i % 5 === 0 && bytes.length > 2) bytes.fill(0, 0, 1 + (i % 3));
      const text = bs58.encode(bytes);
      expect(base58Decode(text).equals(Buffer.from(bs58.decode(text))), text).to.equal(true);
    }
    // any text of the alphabet, not only what an encoder writes
    const alphabet = '123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz';
    for (let i = 0; i < 500; i++) {
      const text = Array.from(randomBytes(i % 40), (b) => alphabet[b % 58]).join('');
      expect(base58Decode(text).equals(Buffer.from(bs58.decode(text))), text).to.equal(true);
    }
    for (const bad of ['0', 'O', 'I', 'l', 'ab+', 'é', 'a b']) expect(() => base58Decode(bad), bad).to.throw();
  });

  it("tells a text that carries a signature's bytes, whatever its checksum, from one of other bytes", () => {
    for (let i = 0; i < 500; i++) {
      const signature = randomBytes(64);
      if (i % 5 === 0) signature.fill(0, 0, 1 + (i % 3));
      const text = sdkEncode(signature, Encoding.Signature);
      expect(carriesBytes(text, 'sg', signature), text).to.equal(true);
      // its own four checksum bytes changed: the same bytes carried (bs58 is the oracle for the text)
      const payload = Buffer.from(bs58.decode(text.slice(3)));
      payload[64 + (i % 4)]! ^= 1 + (i % 255);
      expect(carriesBytes(`sg_${bs58.encode(payload)}`, 'sg', signature)).to.equal(true);
      // one bit of the bytes flipped, the text's checksum made right for them or not: other bytes
      const other = Buffer.from(signature);
      other[i % 64]! ^= 1 << (i % 8);
      expect(carriesBytes(sdkEncode(other, Encoding.Signature), 'sg', signature)).to.equal(false);
      expect(carriesBytes(`sg_${bs58.encode(Buffer.concat([other, payload.subarray(64)]))}`, 'sg', signature)).to.equal(
        false,
      );
      // another prefix, a leading zero byte more, a character outside the alphabet, a byte more or less
      expect(carriesBytes(`ak${text.slice(2)}`, 'sg', signature)).to.equal(false);
      expect(carriesBytes(`sg_1${text.slice(3)}`, 'sg', signature)).to.equal(false);
      expect(carriesBytes(`${text.slice(0, -1)}0`, 'sg', signature)).to.equal(false);
      expect(carriesBytes(text, 'sg', signature.subarray(1))).to.equal(false);
      expect(carriesBytes(text, 'sg', Buffer.concat([signature, Uint8Array.of(0)]))).to.equal(false);
    }
    expect(carriesBytes('sg_', 'sg', new Uint8Array(0))).to.equal(false);
  });

  it('encodes the empty byte array as the node does', () => {
    expect(encode('ba', new Uint8Array())).to.equal('ba_Xfbg4g==');
    expect(encode('or', new Uint8Array())).to.equal('or_Xfbg4g==');
  });

  it('round-trips and checks prefix, checksum and length', () => {
    const id = encode('ak', randomBytes(32));
    expect(decode(id, ['ak']).bytes).to.have.length(32);
    expect(() => decode(id, ['ok'])).to.throw(DecodeError, /expected a ok_ id/);
    const broken = id.slice(0, -2) + (id.endsWith('a') ? 'bb' : 'aa');
    expect(() => decode(broken)).to.throw(DecodeError);
    expect(() => decode(encode('ak', randomBytes(31)))).to.throw(DecodeError, /length/);
    expect(() => decode('nonsense')).to.throw(DecodeError, /not an encoded id/);
    expect(isEncoded(id, ['ak', 'ct'])).to.equal(true);
    expect(isEncoded(42, ['ak'])).to.equal(false);
  });

  it('tells the one text of the bytes (the sdk’s encoding) from other texts that decode to them', () => {
    const alphabet = '123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz';
    // Base58: every text of the alphabet is the encoding of what it decodes to, leading '1's included
    for (let i = 0; i < 500; i++) {
      const text = '1'.repeat(i % 3) + Array.from(randomBytes(i % 50), (b) => alphabet[b % 58]).join('');
      expect(base58(base58Decode(text)), text).to.equal(text);
    }
    for (let i = 0; i < 50; i++) {
      const bytes = randomBytes(i);
      const ba = sdkEncode(bytes, Encoding.Bytearray);
      expect(decodeCanonical(ba, 'ba')).to.deep.equal({ bytes, canonical: true });
      const cb = sdkEncode(bytes, Encoding.ContractBytearray);
      expect(decodeCanonical(cb, 'cb').canonical).to.equal(true);
      const others = [
        ba.replaceAll('+', '-').replaceAll('/', '_'),
        ba.replace(/=+$/, ''),
        `${ba.slice(0, 6)}\n${ba.slice(6)}`,
        `${ba} `,
      ];
      // a padded text's last digit carries bits the decoder drops: any of them set is another text of the same bytes
      const pad = /=+$/.exec(ba)?.[0].length ?? 0;
      if (pad > 0) {
        const at = ba.length - pad - 1;
        const digit = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/'.indexOf(ba[at]!);
        others.push(
          `${ba.slice(0, at)}${'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/'[digit ^ 1]}${ba.slice(at + 1)}`,
        );
      }
      for (const other of others.filter((o) => o !== ba)) {
        expect(decode(other, ['ba']).bytes.equals(bytes), JSON.stringify(other)).to.equal(true);
        expect(decodeCanonical(other, 'ba'), JSON.stringify(other)).to.deep.equal({ bytes, canonical: false });
      }
    }
    const sg = sdkEncode(randomBytes(64), Encoding.Signature);
    expect(decodeCanonical(sg, 'sg').canonical).to.equal(true);
    expect(() => decodeCanonical(sg, 'ba')).to.throw(DecodeError, /expected a ba_ id/);
    expect(() => decodeCanonical(`${sg.slice(0, -1)}${sg.endsWith('a') ? 'b' : 'a'}`, 'sg')).to.throw(DecodeError);
  });

  it('moves an account key to its oracle id with the same payload', () => {
    const ak = encode('ak', randomBytes(32));
    expect(reprefix(ak, 'ok').slice(3)).to.equal(ak.slice(3));
  });

  it('hashes with blake2b-256 as aepp-sdk does', async () => {
    const { hash: sdkHash } = await import('@aeternity/aepp-sdk');
    // every block boundary near one, and more than the WebAssembly module's 16 KiB buffer takes at once
    for (const length of [0, 1, 32, 64, 100, 127, 128, 129, 255, 256, 257, 16_384, 70_000]) {
      const bytes = randomBytes(length);
      expect(Buffer.from(hash(bytes)).toString('hex'), String(length)).to.equal(
        Buffer.from(sdkHash(bytes)).toString('hex'),
      );
    }
    // each digest is its own copy
    const first = hash(Buffer.from('a'));
    const copy = Buffer.from(first);
    hash(Buffer.from('b'));
    expect(Buffer.from(first).equals(copy)).to.equal(true);
  });
});
