import { expect } from 'chai';
import { encode as sdkEncode, Encoding } from '@aeternity/aepp-sdk';
import {
  formatCursor,
  parseCursor,
  parseDate,
  parseFlag,
  parseHeight,
  parseId,
  parseLimitPage,
  parseTxType,
  PAGING_DEFAULTS,
} from '../../../src/api/legacy/legacy-params.ts';
import { encode } from '../../../src/chain/encoding.ts';
import { AppError } from '../../../src/base/errors.ts';

function rejects(fn: () => unknown, pattern: RegExp): void {
  try {
    fn();
  } catch (err) {
    expect(err).to.be.instanceOf(AppError);
    expect((err as AppError).status).to.equal(400);
    expect((err as AppError).message).to.match(pattern);
    return;
  }
  expect.fail('expected a 400');
}

describe('api params', () => {
  const account = sdkEncode(new Uint8Array(32).fill(7), Encoding.AccountAddress);

  describe('parseId', () => {
    it('accepts an id the SDK encodes, of an allowed kind', () => {
      expect(parseId(account, ['ak'], 'account')).to.equal(account);
    });
    it('rejects a wrong prefix, a bad checksum, a wrong length, garbage and repeats', () => {
      rejects(() => parseId(account, ['ct'], 'address'), /invalid address: expected a ct_ id/);
      const broken = account.slice(0, -2) + (account.endsWith('11') ? '22' : '11');
      rejects(() => parseId(broken, ['ak'], 'account'), /invalid account/);
      rejects(() => parseId(encode('ak', new Uint8Array(31)), ['ak'], 'account'), /length/);
      rejects(() => parseId("ak_' OR 1=1 --", ['ak'], 'account'), /invalid account/);
      rejects(() => parseId([account, account], ['ak'], 'account'), /more than once/);
      rejects(() => parseId(undefined, ['ak'], 'account'), /required/);
    });
  });

  describe('parseHeight', () => {
    it('accepts 0 and the largest stored height', () => {
      expect(parseHeight('0', 'h')).to.equal(0);
      expect(parseHeight(String(2 ** 31 - 1), 'h')).to.equal(2 ** 31 - 1);
    });
    for (const bad of ['-1', '1.5', '1e3', '', 'abc', '2147483648', '99999999999999999999', ' 1']) {
      it(`rejects ${JSON.stringify(bad)}`, () => rejects(() => parseHeight(bad, 'height'), /height/));
    }
  });

  describe('parseLimitPage', () => {
    it('defaults to the documented limit and page 1', () => {
      expect(parseLimitPage({})).to.deep.equal({ limit: PAGING_DEFAULTS.limit, page: 1, offset: 0 });
    });
    it('computes the offset of a page', () => {
      expect(parseLimitPage({ limit: '10', page: '3' })).to.deep.equal({ limit: 10, page: 3, offset: 20 });
    });
    it('rejects limit 0, above the maximum, negative, page 0 and pages too deep', () => {
      rejects(() => parseLimitPage({ limit: '0' }), /limit/);
      rejects(() => parseLimitPage({ limit: String(PAGING_DEFAULTS.maxLimit + 1) }), /limit/);
      rejects(() => parseLimitPage({ limit: '-5' }), /limit/);
      rejects(() => parseLimitPage({ page: '0' }), /page/);
      rejects(() => parseLimitPage({ limit: '1000', page: '2000000' }), /too deep/);
    });
  });

  describe('parseTxType', () => {
    it('reads txtype or tx_type, any case, with or without the Tx suffix', () => {
      expect(parseTxType({ txtype: 'spendtx' })).to.equal('SpendTx');
      expect(parseTxType({ tx_type: 'NameClaimTx' })).to.equal('NameClaimTx');
      expect(parseTxType({ txtype: 'contractcall' })).to.equal('ContractCallTx');
      expect(parseTxType({})).to.equal(undefined);
    });
    it('rejects unknown types and patterns', () => rejects(() => parseTxType({ txtype: '%' }), /unknown txtype/));
  });

  describe('parseDate', () => {
    it('reads YYYYMMDD as UTC midnight', () => expect(parseDate('20190102', 'from')).to.equal(Date.UTC(2019, 0, 2)));
    it('rejects impossible days and other formats', () => {
      rejects(() => parseDate('20190230', 'from'), /calendar/);
      rejects(() => parseDate('2019-01-02', 'from'), /YYYYMMDD/);
    });
  });

  describe('parseCursor', () => {
    it('reads <height>-<micro>-<tx> and formats it back', () => {
      const c = parseCursor({ cursor: '12-0-3' });
      expect(c).to.deep.equal({ height: 12, microIndex: 0, txIndex: 3 });
      expect(formatCursor(c!)).to.equal('12-0-3');
      expect(parseCursor({})).to.equal(undefined);
    });
    it('rejects malformed cursors and a cursor with a page', () => {
      rejects(() => parseCursor({ cursor: '12-0' }), /cursor must be/);
      rejects(() => parseCursor({ cursor: "1-1-1' OR 1=1" }), /cursor must be/);
      rejects(() => parseCursor({ cursor: '1-1-1', page: '2' }), /either page or cursor/);
    });
  });

  it('parseFlag treats presence as true except false/0', () => {
    expect([parseFlag(undefined), parseFlag(''), parseFlag('true'), parseFlag('false'), parseFlag('0')]).to.deep.equal([
      false,
      true,
      true,
      false,
      false,
    ]);
  });
});
