/**
 * @module `/mdw/v3/stats/miners/top` page by page (issue 57: a page reads the intervals nearest its cursor, migration
 * 1075, where it read and sorted every miner row of the range): walked forward and backward by `next` and back by
 * `prev`, in pages of 4, by day and by week, each walk equals every stored miner row of the range in ae_mdw's order.
 */
import { expect } from 'chai';
import { MemoryAccount } from '@aeternity/aepp-sdk';
import type { Json } from '../../../src/chain/json.ts';
import { isoDate } from '../../../src/chain/stats-intervals.ts';
import { startV3, type V3UnderTest } from './harness.ts';

type Obj = { [key: string]: Json };
type Row = { start: number; miner: string; count: number };

/** the first day of these rows: 40 days before the devnode chain's, which is 2026-01-01 (day 20 454) */
const FIRST_DAY = 20_414;

/** ae_mdw's order of the top miners: interval, blocks mined, the miner's key (length, then text) */
const aeMdwOrder = (a: Row, b: Row): number =>
  a.start - b.start || a.count - b.count || a.miner.length - b.miner.length || (a.miner < b.miner ? -1 : 1);

describe('/mdw/v3/stats/miners/top in pages (each reads its own intervals)', function () {
  this.timeout(300_000);
  let v3: V3UnderTest;

  before(async () => {
    v3 = await startV3(5, 'v3-top-miners');
    // A devnode chain has one beneficiary: these rows, as the stats derivation writes them (series `miner:<ak_>`, a
    // count per interval), give three more miners on some of 40 days and nobody on others, ties included.
    const miners = Array.from({ length: 3 }, () => MemoryAccount.generate().address);
    const counts = new Map<string, number>();
    const add = (key: string, n: number): void => void counts.set(key, (counts.get(key) ?? 0) + n);
    for (let d = 0; d < 40; d++) {
      if (d % 6 === 3) continue;
      miners.forEach((m, i) => {
        if ((d + i) % 4 === 0) return;
        const n = 1 + ((d * (i + 1)) % 3);
        add(`miner:${m} day ${FIRST_DAY + d}`, n);
        add(`miner:${m} week ${Math.floor((FIRST_DAY + d) / 7)}`, n);
      });
    }
    const rows = [...counts].map(([key, n]) => [...key.split(' '), n]);
    await v3.pool.query(
      `INSERT INTO stats_intervals (series, interval_by, start, count)
       SELECT * FROM unnest($1::text[], $2::text[], $3::int[], $4::numeric[])`,
      [0, 1, 2, 3].map((c) => rows.map((r) => r[c])),
    );
  });
  after(async () => {
    await v3?.close();
  });

  /** every stored miner row of the interval in first..last, in ae_mdw's order: what a page read before */
  async function storedRows(by: string, first: number, last: number): Promise<Row[]> {
    const { rows } = await v3.pool.query<Row>(
      `SELECT start, substr(series, 7) AS miner, count::int AS count FROM stats_intervals
        WHERE series LIKE 'miner:%' AND interval_by = $1 AND start BETWEEN $2 AND $3`,
      [by, first, last],
    );
    return rows.sort(aeMdwOrder);
  }

  /** walk follows a link (`next` or `prev`) from a page to the end: its pages */
  async function walk(path: string, link: 'next' | 'prev'): Promise<Obj[]> {
    const pages: Obj[] = [];
    for (let next: string | null = path; next !== null;) {
      const res = await v3.get(next);
      expect(res.status, next).to.equal(200);
      const page = res.body as Obj;
      pages.push(page);
      next = page[link] === null ? null : `/mdw${String(page[link])}`;
    }
    return pages;
  }
  const itemsOf = (pages: Obj[]): Obj[] => pages.flatMap((p) => p.data as Obj[]);

  /** what a walk must show of each row: its miner, its blocks, and where a new interval starts */
  const shape = (list: { miner: unknown; blocks: unknown; interval: unknown }[]): string[] =>
    list.map(
      (x, i) => `${i > 0 && x.interval !== list[i - 1]!.interval ? '| ' : ''}${String(x.miner)} ${String(x.blocks)}`,
    );
  const ofItems = (items: Obj[]): string[] =>
    shape(items.map((i) => ({ miner: i.miner, blocks: i.blocks_mined, interval: i.start_date })));
  const ofRows = (rows: Row[]): string[] =>
    shape(rows.map((r) => ({ miner: r.miner, blocks: r.count, interval: r.start })));

  for (const by of ['day', 'week'] as const) {
    it(`walks ${by}s forward and backward by next, and back by prev, as the stored rows in ae_mdw's order`, async () => {
      const [minDay, maxDay] = [FIRST_DAY, FIRST_DAY + 45];
      const range = `interval_by=${by}&min_start_date=${isoDate(minDay)}&max_start_date=${isoDate(maxDay)}`;
      const [first, last] = by === 'day' ? [minDay, maxDay] : [Math.floor(minDay / 7), Math.floor(maxDay / 7)];
      const rows = await storedRows(by, first, last);
      expect(rows.length, 'more rows than pages of 4 hold, in intervals of several miners').to.be.greaterThan(12);

      const forward = await walk(`/mdw/v3/stats/miners/top?${range}&direction=forward&limit=4`, 'next');
      expect(ofItems(itemsOf(forward))).to.deep.equal(ofRows(rows));
      const backward = await walk(`/mdw/v3/stats/miners/top?${range}&limit=4`, 'next');
      expect(ofItems(itemsOf(backward))).to.deep.equal(ofRows([...rows].reverse()));
      // from the last page back by `prev`: the pages before it, met last first
      const back = await walk(`/mdw${String(backward.at(-1)!.prev)}`, 'prev');
      expect(ofItems(itemsOf(back.reverse()))).to.deep.equal(ofItems(itemsOf(backward.slice(0, -1))));
      for (const item of itemsOf(forward)) expect(String(item.start_date) < String(item.end_date)).to.equal(true);
    });
  }
});
