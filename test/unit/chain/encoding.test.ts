import { expect } from 'chai';
import { encode as sdkEncode, Encoding } from '@aeternity/aepp-sdk';
import bs58 from 'bs58';
import {
  base58,
  base58Decode,
  decode,
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

  it('moves an account key to its oracle id with the same payload', () => {
    const ak = encode('ak', randomBytes(32));
    expect(reprefix(ak, 'ok').slice(3)).to.equal(ak.slice(3));
  });

  it('hashes with blake2b-256 as aepp-sdk does', async () => {
    const { hash: sdkHash } = await import('@aeternity/aepp-sdk');
    const bytes = randomBytes(100);
    expect(Buffer.from(hash(bytes)).toString('hex')).to.equal(Buffer.from(sdkHash(bytes)).toString('hex'));
  });
});
