import { expect } from 'chai';
import { parseJson } from '../../../../src/chain/json.ts';
import { INDEX_CURSOR } from '../../../../src/api/mdw/resources/cursors.ts';
import { setImmediate } from 'node:timers/promises';
import {
  exportPages,
  SLICE_ROWS,
  type ExportPlan,
  type ExportRow,
} from '../../../../src/api/mdw/resources/export-walk.ts';
import type { List } from '../../../../src/api/mdw/resources/list.ts';
import {
  csvField,
  csvFormat,
  csvLine,
  endTrailers,
  NDJSON,
  transactionCsv,
} from '../../../../src/api/mdw/rest/export-formats.ts';
import { takesTrailers } from '../../../../src/api/mdw/rest/export-routes.ts';

/** a list of the numbers `keys` (ascending), read as a list's reader does: from a key, inclusive, up to n */
function numbers(keys: readonly number[], reads: number[]): List<number, number> {
  return {
    cursor: INDEX_CURSOR,
    async read({ walk, from, n }) {
      reads.push(n);
      const ordered = walk === 'forward' ? keys : [...keys].reverse();
      const start = from === undefined ? 0 : ordered.findIndex((k) => (walk === 'forward' ? k >= from : k <= from));
      return start < 0 ? [] : ordered.slice(start, start + n);
    },
    key: (k) => k,
    item: (k) => ({ k }),
  };
}

async function drain(list: List<number, number>, plan: ExportPlan): Promise<{ rows: ExportRow[]; complete: boolean }> {
  const rows: ExportRow[] = [];
  const pages = exportPages(list, plan, (read) => read());
  for (;;) {
    const step = await pages.next();
    if (step.done) return { rows, complete: step.value };
    rows.push(...step.value);
  }
}

describe('exportPages: an export walks a list page by page from a keyset cursor', () => {
  const keys = Array.from({ length: 50 }, (_, i) => i * 3);
  const plan: ExportPlan = { direction: 'forward', after: undefined, maxRows: 1000, pageRows: 7 };

  it('sends every row once, in order, each page one read of a page and one row more', async () => {
    const reads: number[] = [];
    const { rows, complete } = await drain(numbers(keys, reads), plan);
    expect(rows.map((r) => r.item.k)).to.deep.equal(keys);
    expect(rows.map((r) => r.cursor)).to.deep.equal(keys.map(String));
    expect(complete).to.equal(true);
    expect(reads).to.deep.equal(Array(Math.ceil(50 / 7)).fill(8));
    const back = await drain(numbers(keys, []), { ...plan, direction: 'backward' });
    expect(back.rows.map((r) => r.item.k)).to.deep.equal([...keys].reverse());
  });

  it('stops at its cap, incomplete only when rows are left', async () => {
    const capped = await drain(numbers(keys, []), { ...plan, maxRows: 20 });
    expect(capped.rows.map((r) => r.item.k)).to.deep.equal(keys.slice(0, 20));
    expect(capped.complete).to.equal(false);
    const exact = await drain(numbers(keys, []), { ...plan, maxRows: 50 });
    expect([exact.rows.length, exact.complete]).to.deep.equal([50, true]);
  });

  it('reads the next page while one is taken, and no further while the reader takes nothing', async () => {
    const reads: number[] = [];
    const pages = exportPages(numbers(keys, reads), plan, (read) => read());
    const first = await pages.next();
    expect((first.value as ExportRow[]).map((r) => r.item.k)).to.deep.equal(keys.slice(0, 7));
    for (let i = 0; i < 5; i++) await setImmediate();
    expect(reads, 'the page after the one taken is read, one ahead').to.have.length(2);
    expect((await pages.next()).value).to.have.length(7);
    for (let i = 0; i < 5; i++) await setImmediate();
    expect(reads).to.have.length(3);
    expect(await pages.return(false)).to.deep.equal({ done: true, value: false });
  });

  it('hands a long page out in slices, each row once and in order', async () => {
    const many = Array.from({ length: 2 * SLICE_ROWS + 30 }, (_, i) => i);
    const reads: number[] = [];
    const sizes: number[] = [];
    const pages = exportPages(numbers(many, reads), { ...plan, pageRows: many.length }, (read) => read());
    const rows: ExportRow[] = [];
    for (let step = await pages.next(); !step.done; step = await pages.next()) {
      sizes.push(step.value.length);
      rows.push(...step.value);
    }
    expect(sizes).to.deep.equal([SLICE_ROWS, SLICE_ROWS, 30]);
    expect(rows.map((r) => r.item.k)).to.deep.equal(many);
    expect(reads, 'one statement for the page').to.deep.equal([many.length + 1]);
  });

  it('resumes after a row, and after a row gone from where it was', async () => {
    const resumed = await drain(numbers(keys, []), { ...plan, after: '30' });
    expect(resumed.rows.map((r) => r.item.k)).to.deep.equal(keys.filter((k) => k > 30));
    const gone = await drain(numbers(keys, []), { ...plan, after: '31' });
    expect(gone.rows.map((r) => r.item.k)).to.deep.equal(keys.filter((k) => k > 31));
    const backward = await drain(numbers(keys, []), { ...plan, direction: 'backward', after: '30' });
    expect(backward.rows.map((r) => r.item.k)).to.deep.equal(keys.filter((k) => k < 30).reverse());
  });
});

describe('export formats', () => {
  it('quotes a CSV field as RFC 4180 says, and only where it must', () => {
    expect(csvField('plain')).to.equal('plain');
    expect(csvField('a,b')).to.equal('"a,b"');
    expect(csvField('say "hi"')).to.equal('"say ""hi"""');
    expect(csvField('two\r\nlines')).to.equal('"two\r\nlines"');
    expect(csvField(null)).to.equal('');
    expect(csvLine(['x', 1, undefined])).to.equal('x,1,\r\n');
  });

  it('writes integers beyond 2^53 digit for digit, in CSV and NDJSON', () => {
    const item = parseJson(
      '{"block_height": 7, "micro_index": 0, "micro_time": 1700000000123, "block_hash": "mh_x", "hash": "th_y", "tx": {"type": "SpendTx", "sender_id": "ak_a", "recipient_id": "ak_b", "amount": 123456789012345678901234567890, "fee": 16680000000000, "nonce": 9}}',
    ) as { [key: string]: never };
    expect(transactionCsv('7-0-0', item)).to.equal(
      '7-0-0,7,0,2023-11-14T22:13:20.123Z,mh_x,th_y,SpendTx,,ak_a,ak_b,123456789012345678901234567890,16680000000000,9\r\n',
    );
    const line = NDJSON.page([{ cursor: '7-0-0', item }]);
    expect(line).to.match(/^\{"cursor":"7-0-0",.*"amount":123456789012345678901234567890,.*\}\n$/);
  });

  it("reads a wrapped transaction's parties of the transaction it carries", () => {
    const item = parseJson(
      '{"block_height": 1, "micro_index": 0, "hash": "th_z", "tx": {"type": "PayingForTx", "payer_id": "ak_p", "fee": 5, "nonce": 2, "tx": {"signatures": ["sg_x"], "tx": {"type": "SpendTx", "sender_id": "ak_s", "recipient_id": "ak_r", "amount": 3, "nonce": 4}}}}',
    ) as { [key: string]: never };
    expect(transactionCsv('1-0-0', item)).to.equal('1-0-0,1,0,,,th_z,PayingForTx,SpendTx,ak_s,ak_r,3,5,2\r\n');
  });
});

describe("an export's end (issue 79)", () => {
  const csv = csvFormat(['cursor', 'hash'], (cursor) => csvLine([cursor]));

  it('is the trailers, or the last record of either format, which no row can be taken for', () => {
    expect(endTrailers({ complete: true })).to.deep.equal({ 'Export-Complete': 'true' });
    expect(endTrailers({ complete: false, resumeAfter: '10-0-2' })).to.deep.equal({
      'Export-Complete': 'false',
      'Export-Resume-After': '10-0-2',
    });
    expect(csv.end({ complete: true })).to.equal('#Export-Complete: true\r\n');
    expect(csv.end({ complete: false, resumeAfter: '10-0-2' })).to.equal(
      '#Export-Complete: false; Export-Resume-After: 10-0-2\r\n',
    );
    expect(NDJSON.end({ complete: true })).to.equal('{"export_complete":true}\n');
    expect(parseJson(NDJSON.end({ complete: false, resumeAfter: '10-0-2' }))).to.deep.equal({
      export_complete: false,
      export_resume_after: '10-0-2',
    });
  });

  it('goes in trailers only over HTTP/1.1 or later to a client that sends TE: trailers', () => {
    const req = (major: number, minor: number, te?: string | string[]) => ({
      httpVersionMajor: major,
      httpVersionMinor: minor,
      headers: te === undefined ? {} : { te },
    });
    expect(takesTrailers(req(1, 1, 'trailers'))).to.equal(true);
    expect(takesTrailers(req(1, 1, 'gzip;q=0.5, Trailers'))).to.equal(true);
    expect(takesTrailers(req(2, 0, 'trailers'))).to.equal(true);
    // HTTP/1.0 has no chunks to carry them, whatever it says
    expect(takesTrailers(req(1, 0, 'trailers'))).to.equal(false);
    expect(takesTrailers(req(1, 1))).to.equal(false);
    expect(takesTrailers(req(1, 1, 'gzip, chunked'))).to.equal(false);
    expect(takesTrailers(req(1, 1, 'trailersx'))).to.equal(false);
  });
});
