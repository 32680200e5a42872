import { expect } from 'chai';
import { createHash, randomBytes } from 'node:crypto';
import { decode as sdkDecode, encode as sdkEncode, Encoding } from '@aeternity/aepp-sdk';
import { checksumWord } from '../../../src/chain/sha256.ts';
import { decode, encode } from '../../../src/chain/encoding.ts';

/** the checksum as Node's crypto computes it, an independent implementation */
function nodeChecksum(bytes: Uint8Array): number {
  const once = createHash('sha256').update(bytes).digest();
  return createHash('sha256').update(once).digest().readInt32BE(0);
}

describe('chain/sha256', () => {
  it('is the first word of a double SHA-256 for every length around the block edges and past the native threshold', () => {
    // 55/56 and 119/120 bytes: where the padding and the bit length take one block more
    for (let n = 0; n <= 600; n++) {
      const bytes = randomBytes(n);
      expect(checksumWord(bytes), `${n} bytes`).to.equal(nodeChecksum(bytes));
    }
    for (let n = 2000; n < 70_000; n = n * 3 + 1) {
      const bytes = randomBytes(n);
      expect(checksumWord(bytes), `${n} bytes`).to.equal(nodeChecksum(bytes));
    }
  });

  it('keeps no state between calls that changes a result (a view into a larger buffer, then the same bytes alone)', () => {
    const big = randomBytes(300);
    for (let at = 0; at < 100; at += 7) {
      const view = big.subarray(at, at + 64 + (at % 50));
      expect(checksumWord(view)).to.equal(nodeChecksum(Buffer.from(view)));
      expect(checksumWord(Buffer.from(view))).to.equal(checksumWord(view));
    }
  });

  it('gives the encoding the SDK’s checksums: encoded and decoded alike for ids, signatures and call data', () => {
    for (let i = 0; i < 300; i++) {
      const id = randomBytes(32);
      const sg = randomBytes(64);
      const cb = randomBytes(i * 5);
      expect(encode('ak', id)).to.equal(sdkEncode(id, Encoding.AccountAddress));
      expect(encode('sg', sg)).to.equal(sdkEncode(sg, Encoding.Signature));
      const cbText = sdkEncode(cb, Encoding.ContractBytearray);
      expect(encode('cb', cb)).to.equal(cbText);
      expect(decode(cbText, ['cb']).bytes.equals(Buffer.from(sdkDecode(cbText as `cb_${string}`)))).to.equal(true);
    }
  });
});
