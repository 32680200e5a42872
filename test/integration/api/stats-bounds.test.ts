/**
 * @module ae_mdw's statistics series under hostile ranges (issue 27, item 1): a range of any width is paged as
 * ae_mdw pages it, one page of work per request, and nothing of the range is kept.
 */
import { expect } from 'chai';
import { startApi, type ApiUnderTest } from './harness.ts';

const SERIES = [
  'blocks',
  'transactions',
  'names',
  'contracts',
  'aex9-transfers',
  'total-accounts',
  'active-accounts',
  'difficulty',
  'hashrate',
];

describe('statistics series over hostile ranges', function () {
  this.timeout(120_000);
  let api: ApiUnderTest;

  before(async () => {
    api = await startApi();
  });

  after(async () => {
    await api?.close();
  });

  it('pages 1970-01-01 to 9999-12-31 from either end, with the empty days as ae_mdw lists them', async () => {
    const newest = await api.request.get(
      '/mdw/v3/stats/blocks?min_start_date=1970-01-01&max_start_date=9999-12-31&limit=2',
    );
    expect(newest.status).to.equal(200);
    expect(newest.body.data).to.deep.equal([
      { count: 0, end_date: '10000-01-01', start_date: '9999-12-31' },
      { count: 0, end_date: '9999-12-31', start_date: '9999-12-30' },
    ]);
    expect(newest.body.next).to.match(/cursor=2932894/);
    const oldest = await api.request.get(
      '/mdw/v3/stats/transactions?min_start_date=1970-01-01&max_start_date=9999-12-31&direction=forward&limit=1',
    );
    expect(oldest.body.data).to.deep.equal([{ count: 0, end_date: '1970-01-02', start_date: '1970-01-01' }]);
  });

  it('keeps nothing of twelve distinct hostile ranges: the heap grows by less than 100 MB', async () => {
    const heapBefore = process.memoryUsage().heapUsed;
    for (let i = 0; i < 12; i++) {
      const path = SERIES[i % SERIES.length]!;
      const res = await api.request.get(
        `/mdw/v3/stats/${path}?min_start_date=${1970 + i}-01-01&max_start_date=9999-12-30`,
      );
      expect(res.status, path).to.equal(200);
      expect(res.body.data, path).to.have.length(10);
      expect(res.body.data[0].start_date, path).to.equal('9999-12-30');
    }
    expect(process.memoryUsage().heapUsed - heapBefore).to.be.below(100 * 1024 * 1024);
  });
});
