/** @module The header a micro_blocks row stores (migration 1000): without what its columns and chain hold. */
import { expect } from 'chai';
import { randomBytes } from 'node:crypto';
import { encode, Encoding } from '@aeternity/aepp-sdk';
import { storedMicroHeader } from '../../../src/indexer/rows/micro-header-trim.ts';

const hash = encode(randomBytes(32), Encoding.MicroBlockHash);
const keyHash = encode(randomBytes(32), Encoding.KeyBlockHash);
const before = encode(randomBytes(32), Encoding.MicroBlockHash);
const header = {
  hash,
  height: 70,
  pof_hash: 'no_fraud',
  prev_hash: before,
  prev_key_hash: keyHash,
  time: 1700000000123,
  version: 5,
};
const row = { hash, height: 70, timeMs: 1700000000123n, header, keyHash, prevHash: before };

describe('storedMicroHeader', () => {
  it('leaves out what the queries put back, and what they put back is the header', () => {
    const stored = storedMicroHeader(row);
    expect(stored).to.deep.equal({ pof_hash: 'no_fraud', version: 5 });
    // microHeaderSql: the columns and looked-up hashes, then the stored members over them
    expect({
      hash,
      height: 70,
      time: 1700000000123,
      prev_key_hash: keyHash,
      prev_hash: before,
      ...stored,
    }).to.deep.equal(header);
  });

  it('keeps a member that differs from what the queries would put back, or whose value the row does not know', () => {
    const { hash: _, prev_key_hash: __, ...others } = header;
    expect(storedMicroHeader({ ...row, height: 71, timeMs: 1700000000124n, prevHash: keyHash })).to.deep.equal(others);
    // the first micro block of a continuation: the block before was stored by an earlier batch
    expect(storedMicroHeader({ ...row, prevHash: undefined })).to.deep.equal({
      pof_hash: 'no_fraud',
      prev_hash: before,
      version: 5,
    });
  });
});
