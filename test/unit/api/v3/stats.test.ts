import { expect } from 'chai';
import { paginate } from '../../../../src/api/mdw/resources/page.ts';
import { parseSeriesQuery } from '../../../../src/api/mdw/resources/stats-params.ts';
import { nodeTxType } from '../../../../src/api/mdw/resources/tx-query.ts';
import {
  arrayFetch,
  averageSeries,
  seriesFetch,
  statJson,
  trends,
} from '../../../../src/api/mdw/resources/stats-series.ts';
import { parseJson, stringifyJson } from '../../../../src/chain/json.ts';
import { AppError } from '../../../../src/base/errors.ts';

const message = (fn: () => unknown): string => {
  try {
    fn();
  } catch (err) {
    if (err instanceof AppError) return `${err.status} ${err.message}`;
    throw err;
  }
  return 'no error';
};

describe('/v3/stats series', () => {
  it('lists every interval between the first and the last, 0 where nothing is stored', async () => {
    const fetch = seriesFetch(new Map([[20455, 7n]]), 20454, 20456, (p) => p);
    const points = (await fetch({ walk: 'forward', from: undefined, n: 10 })).map((k) => k.item);
    expect(points).to.deep.equal([
      { start: 20454, count: 0n },
      { start: 20455, count: 7n },
      { start: 20456, count: 0n },
    ]);
    expect(statJson(points[1]!, 'day')).to.deep.equal({ count: 7n, end_date: '2026-01-03', start_date: '2026-01-02' });
  });

  it("writes a point as its Stat, a count beyond 2^53 to the digit, keys in ae_mdw's order", () => {
    const count = 2n ** 64n + 1n;
    for (const by of ['day', 'week', 'month'] as const) {
      const text = stringifyJson(statJson({ start: 20455, count }, by));
      expect(text).to.match(/^\{"count":18446744073709551617,"end_date":"[\d-]+","start_date":"[\d-]+"\}$/);
      expect(parseJson(text)).to.deep.equal(statJson({ start: 20455, count }, by));
    }
  });

  it('renders only the page it is asked for, however wide the range (issue 27.1: 0000-01-01 to 9999-12-31)', async () => {
    let rendered = 0;
    const fetch = seriesFetch(new Map([[20455, 7n]]), -719_528, 2_932_896, (p) => (rendered++, p));
    const page = await paginate(fetch, { direction: 'backward', rev: false, limit: 2, cursor: undefined });
    expect(page.items).to.deep.equal([
      { start: 2_932_896, count: 0n },
      { start: 2_932_895, count: 0n },
    ]);
    expect(page.next).to.deep.equal({ key: 2_932_894, rev: false });
    const stored = await paginate(fetch, { direction: 'forward', rev: false, limit: 1, cursor: 20455 });
    expect(stored.items).to.deep.equal([{ start: 20455, count: 7n }]);
    expect(stored.prev).to.deep.equal({ key: 20454, rev: true });
    // limit + 1 per walk and one key behind a cursor: never the range
    expect(rendered).to.equal(3 + 2 + 2);
    expect(await fetch({ walk: 'forward', from: 2_932_897, n: 5 })).to.deep.equal([]);
    expect((await fetch({ walk: 'backward', from: 3_000_000, n: 1 }))[0]!.key).to.equal(2_932_896);
  });

  it('averages per key block, rounding half up, 0 without key blocks', () => {
    const sums = new Map([
      [1, 10n],
      [2, 11n],
      [3, 5n],
    ]);
    const blocks = new Map([
      [1, 4n],
      [2, 2n],
    ]);
    expect(averageSeries(sums, blocks)).to.deep.equal(
      new Map([
        [1, 3n],
        [2, 6n],
      ]),
    );
  });

  it('pages a series in memory as ae_mdw pages it, both ways, from any cursor', async () => {
    const items = [1, 2, 3, 4, 5].map((k) => ({ key: k, item: String(k) }));
    const fetch = arrayFetch(items, (a, b) => a - b);
    const first = await paginate(fetch, { direction: 'backward', rev: false, limit: 2, cursor: undefined });
    expect(first.items).to.deep.equal(['5', '4']);
    expect(first.next).to.deep.equal({ key: 3, rev: false });
    expect(first.prev).to.equal(undefined);
    const second = await paginate(fetch, { direction: 'backward', rev: false, limit: 2, cursor: 3 });
    expect(second.items).to.deep.equal(['3', '2']);
    expect(second.prev).to.deep.equal({ key: 4, rev: true });
    const back = await paginate(fetch, { direction: 'backward', rev: true, limit: 2, cursor: 4 });
    expect(back.items).to.deep.equal(['5', '4']);
    const forward = await paginate(fetch, { direction: 'forward', rev: false, limit: 10, cursor: 4 });
    expect(forward.items).to.deep.equal(['4', '5']);
    expect(forward.next).to.equal(undefined);
    // a cursor between or beyond the keys starts at the next one in the walk's direction
    expect((await fetch({ walk: 'forward', from: 0, n: 1 }))[0]!.key).to.equal(1);
    expect(await fetch({ walk: 'forward', from: 9, n: 1 })).to.deep.equal([]);
    expect((await fetch({ walk: 'backward', from: 9, n: 1 }))[0]!.key).to.equal(5);
  });

  it("computes the 24-hour figures and trends as ae_mdw does (relative to the last 24 hours')", () => {
    expect(trends({ last: { count: 4, fees: '40' }, previous: { count: 2, fees: '40' } })).to.deep.equal({
      last_24hs_transactions: 4,
      transactions_trend: 0.5,
      last_24hs_average_transaction_fees: 10,
      fees_trend: -1,
    });
    expect(trends({ last: { count: 0, fees: '0' }, previous: { count: 9, fees: '9' } })).to.deep.equal({
      last_24hs_transactions: 0,
      transactions_trend: 0,
      last_24hs_average_transaction_fees: 0,
      fees_trend: 0,
    });
  });
});

describe('/v3/stats parameters', () => {
  it('reads interval_by, the dates and the endpoint own parameters', () => {
    expect(parseSeriesQuery({}, [])).to.deep.equal({
      by: 'day',
      minDay: undefined,
      maxDay: undefined,
      txType: undefined,
      blockType: undefined,
    });
    const q = parseSeriesQuery(
      { interval_by: 'week', min_start_date: '2026-01-01', tx_type: 'contract_call', limit: '5', __x: '1' },
      ['tx_type'],
    );
    expect(q.by).to.equal('week');
    expect(q.minDay).to.equal(20454);
    expect(q.txType).to.equal('ContractCallTx');
  });

  it('rejects what ae_mdw rejects, with its texts', () => {
    expect(message(() => parseSeriesQuery({ interval_by: 'year' }))).to.equal('400 invalid query: year');
    expect(message(() => parseSeriesQuery({ min_start_date: '2026-02-30' }))).to.equal(
      '400 invalid query: min_start_date=2026-02-30',
    );
    expect(message(() => parseSeriesQuery({ tx_type: 'spend' }))).to.equal('400 invalid query: tx_type=spend');
    expect(message(() => parseSeriesQuery({ type: 'big' }, ['type']))).to.equal('400 invalid query: type=big');
  });

  it('takes a transaction type in every spelling ae_mdw takes', () => {
    for (const text of ['SpendTx', 'spend_tx', 'spend', 'Spend']) expect(nodeTxType(text), text).to.equal('SpendTx');
    expect(nodeTxType('ga_attach')).to.equal('GAAttachTx');
    for (const text of ['GAMeta', 'GAMetaTx', 'ga_meta_tx', 'GaMeta'])
      expect(nodeTxType(text), text).to.equal('GAMetaTx');
    expect(nodeTxType('oracle_response')).to.equal('OracleRespondTx');
    expect(nodeTxType('ChannelCloseMutualTx')).to.equal('ChannelCloseMutualTx');
    expect(message(() => nodeTxType('nope'))).to.equal('400 invalid transaction type: nope');
  });
});
