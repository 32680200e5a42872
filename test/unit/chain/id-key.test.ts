import { expect } from 'chai';
import { decode as sdkDecode, encode as sdkEncode, Encoding } from '@aeternity/aepp-sdk';
import { randomBytes } from 'node:crypto';
import { idKey, idOfKey, KEY_TAGS, txTypeCode, txTypeOfCode, TX_TYPE_CODES } from '../../../src/chain/id-key.ts';

/** The SDK's encoding of each stored id kind (the oracle for the ids' text). */
const KINDS: readonly [string, Encoding][] = [
  ['ak', Encoding.AccountAddress],
  ['ok', Encoding.OracleAddress],
  ['ct', Encoding.ContractAddress],
  ['ch', Encoding.Channel],
  ['nm', Encoding.Name],
  ['oq', Encoding.OracleQueryId],
  ['cm', Encoding.Commitment],
];

describe('chain/id-key', () => {
  it('keys every stored id kind as its tag and the 32 bytes the SDK decodes, and back', () => {
    for (const [prefix, encoding] of KINDS) {
      for (let i = 0; i < 50; i++) {
        const bytes = randomBytes(32);
        if (i % 10 === 0) bytes.fill(0, 0, 1 + (i % 3)); // leading zero bytes: leading '1's in Base58
        const id = sdkEncode(bytes, encoding);
        const key = idKey(id);
        expect(key.length, id).to.equal(33);
        expect(key[0], id).to.equal(KEY_TAGS[prefix]);
        expect(Buffer.from(sdkDecode(id as `ak_${string}`)).equals(key.subarray(1)), id).to.equal(true);
        expect(idOfKey(key)).to.equal(id);
      }
    }
  });

  it('keeps ak_X and ok_X (the same 32 bytes) apart', () => {
    const bytes = randomBytes(32);
    const ak = idKey(sdkEncode(bytes, Encoding.AccountAddress));
    const ok = idKey(sdkEncode(bytes, Encoding.OracleAddress));
    expect(ak.subarray(1).equals(ok.subarray(1))).to.equal(true);
    expect(ak.equals(ok)).to.equal(false);
  });

  it('gives a malformed, mis-checksummed or other-kind id the empty key, which no stored id has', () => {
    const id = sdkEncode(randomBytes(32), Encoding.AccountAddress);
    const last = id.at(-1) === '2' ? '3' : '2';
    for (const bad of [
      '',
      'ak_',
      'ak_0OIl',
      `${id.slice(0, -1)}${last}`, // checksum no longer matches
      `th_${id.slice(3)}`,
      sdkEncode(randomBytes(32), Encoding.TxHash),
      sdkEncode(randomBytes(31), Encoding.Name).replace(/^nm_/, 'ak_'),
    ])
      expect(idKey(bad).length, bad).to.equal(0);
  });

  it('codes each transaction type as the node’s object tag of the type, and back', () => {
    expect(TX_TYPE_CODES).to.have.length(27);
    expect(txTypeCode('SpendTx')).to.equal(12);
    expect(txTypeCode('ChannelForceProgressTx')).to.equal(521);
    expect(txTypeCode('NoSuchTx')).to.equal(0);
    for (const [type, code] of TX_TYPE_CODES) {
      expect(code).to.be.within(1, 32767);
      expect(txTypeOfCode(code)).to.equal(type);
      expect(txTypeCode(type)).to.equal(code);
    }
    expect(new Set(TX_TYPE_CODES.map(([, c]) => c)).size).to.equal(27);
    expect(() => txTypeOfCode(0)).to.throw(TypeError);
  });
});
