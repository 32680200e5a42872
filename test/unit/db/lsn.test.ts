import { expect } from 'chai';
import { formatLsn, parseLsn, recordEnd } from '../../../src/db/connection/lsn.ts';

describe('db/lsn: WAL positions', () => {
  it('reads and writes pg_lsn text exactly, above 2^53 too', () => {
    expect(parseLsn('16/B374D848')).to.equal(0x16b374d848n);
    expect(parseLsn('0/0')).to.equal(0n);
    expect(parseLsn('FFFFFFFF/FFFFFFFF')).to.equal(2n ** 64n - 1n);
    expect(formatLsn(2n ** 64n - 1n)).to.equal('FFFFFFFF/FFFFFFFF');
    expect(formatLsn(0x16b374d848n)).to.equal('16/B374D848');
    for (const text of ['16/B374D848', '0/1', '1/0']) expect(formatLsn(parseLsn(text)!)).to.equal(text);
  });

  it('reads NULL and garbage as no position', () => {
    for (const text of [null, undefined, '', '16', '16/', 'G/1', '1/2/3', '123456789/0']) {
      expect(parseLsn(text), String(text)).to.equal(undefined);
    }
  });

  it("moves an insert position past a page header back to the page's start, and leaves others", () => {
    const page = 5n * 8192n;
    expect(recordEnd(page + 24n)).to.equal(page);
    expect(recordEnd(16n * 1024n * 1024n + 40n)).to.equal(16n * 1024n * 1024n);
    expect(recordEnd(page)).to.equal(page);
    expect(recordEnd(page + 48n)).to.equal(page + 48n);
    expect(recordEnd(page + 8000n)).to.equal(page + 8000n);
  });
});
