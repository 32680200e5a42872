import { request } from 'node:http';
import { getWhole, type Answer } from '../../support/http-trailers.ts';
import { expect } from 'chai';
import { parseJson, stringifyJson, type Json } from '../../../src/chain/json.ts';
import { transactionCsv } from '../../../src/api/mdw/rest/export-formats.ts';
import { startV3, type ChainTruth, type V3UnderTest } from './harness.ts';
import { waitFor } from '../../support/wait.ts';

type Obj = { [key: string]: Json };

/** An answer read whole over node:http, which gives the trailers (fetch does not). */
/** download reads `path` of `base` whole, with the trailers (asked for: without, the end is the body's last record). */
function download(base: string, path: string, accept = 'application/x-ndjson'): Promise<Answer> {
  return getWhole(`${base}${path}`, { accept, te: 'trailers' });
}

/** ndjson reads NDJSON lines as objects, each with its cursor taken out (the list's own item stays). */
function ndjson(text: string): { cursor: string; item: Obj }[] {
  return text
    .split('\n')
    .filter((line) => line !== '')
    .map((line) => {
      const { cursor, ...item } = parseJson(line) as Obj;
      return { cursor: String(cursor), item };
    });
}

/** parseCsv reads RFC 4180 text (quoted fields, doubled quotes, CRLF) as records of named fields. */
function parseCsv(text: string): Record<string, string>[] {
  const records: string[][] = [];
  let record: string[] = [];
  let field = '';
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (quoted && c === '"' && text[i + 1] === '"') {
      field += '"';
      i++;
    } else if (c === '"') {
      quoted = !quoted;
    } else if (quoted || (c !== ',' && c !== '\r')) {
      field += c;
    } else if (c === ',') {
      record.push(field);
      field = '';
    } else {
      expect(text[i + 1], 'a record ends with CRLF').to.equal('\n');
      record.push(field);
      records.push(record);
      record = [];
      field = '';
      i++;
    }
  }
  expect(field, 'the last record ends with CRLF').to.equal('');
  const [header, ...rows] = records;
  return rows.map((r) => Object.fromEntries(header!.map((name, i) => [name, r[i]!])));
}

describe('/mdw/v3 account exports: the whole history of an account, streamed, against the lists and the devnode chain', function () {
  this.timeout(300_000);
  let v3: V3UnderTest;
  let chain: ChainTruth;
  /** the account named by the most transactions of the chain */
  let busiest: string;
  let naming: number;
  /** the server the exports are asked of: pages of 7 rows (EXPORT_PAGE_ROWS) */
  let exporting: { url: string; close(): Promise<void> };
  /** the setting beside the harness's of each server the exports are asked of */
  const PAGES = { EXPORT_PAGE_ROWS: '7' };

  before(async () => {
    // the chain other files load (populatedOnce): the page size is the server's alone, not the populator's
    v3 = await startV3(60, 'v3-names', () => ({}), { populatedOnce: true });
    // pages of 7 rows: an export of the account reads several, as one of a real account reads thousands
    exporting = await v3.serveWith(PAGES);
    chain = await v3.truth();
    const counts = new Map<string, number>();
    for (const t of chain.transactions)
      for (const id of new Set(stringifyJson(t.signed).match(/ak_[1-9A-HJ-NP-Za-km-z]{30,60}/g) ?? []))
        counts.set(id, (counts.get(id) ?? 0) + 1);
    [busiest, naming] = [...counts].sort((a, b) => b[1] - a[1])[0]!;
  });
  after(async () => {
    await exporting?.close();
    await v3?.close();
  });

  it('exports as NDJSON, row for row, the pages of /transactions?account=, in both directions and with filters', async () => {
    expect(naming, 'the account has several pages').to.be.above(20);
    for (const query of ['', '&direction=forward', '&type=spend', '&scope=gen:40-10', '&type_group=contract']) {
      const listed = await v3.walk(`/mdw/v3/transactions?account=${busiest}&limit=100${query}`);
      const res = await download(exporting.url, `/mdw/v3/accounts/${busiest}/transactions/export?${query.slice(1)}`);
      expect(res.status, res.text).to.equal(200);
      expect(res.headers['content-type']).to.equal('application/x-ndjson');
      expect(res.trailers['export-complete'], query).to.equal('true');
      const rows = ndjson(res.text);
      expect(
        rows.map((r) => r.item),
        query,
      ).to.deep.equal(listed);
      // each row's cursor is its position, which the list's cursor takes too
      for (const { cursor, item } of rows.slice(0, 5)) {
        const page = await v3.get(`/mdw/v3/transactions?account=${busiest}&limit=1&cursor=${cursor}${query}`);
        expect((page.body as { data: Obj[] }).data[0]!.hash).to.equal(item.hash);
      }
    }
    // the whole history: every transaction of the chain that names the account (the devnode's own list)
    const all = ndjson(
      (await download(exporting.url, `/mdw/v3/accounts/${busiest}/transactions/export?direction=forward`)).text,
    );
    expect(all.length).to.equal(naming);
    const named = chain.transactions.filter((t) => stringifyJson(t.signed).includes(busiest)).map((t) => t.hash);
    expect(all.map((r) => r.item.hash)).to.deep.equal(named);
  });

  it('exports as CSV the same rows, each field exact and quoted as RFC 4180 says', async () => {
    const listed = await v3.walk(`/mdw/v3/transactions?account=${busiest}&limit=100&direction=forward`);
    const res = await download(
      exporting.url,
      `/mdw/v3/accounts/${busiest}/transactions/export?direction=forward`,
      'text/csv',
    );
    expect(res.status).to.equal(200);
    expect(res.headers['content-type']).to.match(/^text\/csv/);
    const rows = parseCsv(res.text);
    expect(rows.length).to.equal(listed.length);
    const byHash = new Map(chain.transactions.map((t) => [t.hash, t]));
    rows.forEach((row, i) => {
      const item = listed[i]!;
      const truth = byHash.get(row.hash!)!;
      const tx = truth.signed.tx as Obj;
      expect(row.hash).to.equal(item.hash);
      expect([row.height, row.micro_index]).to.deep.equal([String(truth.height), String(truth.microIndex)]);
      expect(row.cursor).to.equal(`${truth.height}-${truth.microIndex}-${truth.txIndex}`);
      expect(row.block_hash).to.equal(truth.blockHash);
      expect(row.time).to.equal(new Date(Number(item.micro_time)).toISOString());
      expect(row.type).to.equal(tx.type);
      // amounts and fees as the node wrote them, digit for digit
      expect(row.fee).to.equal(String(tx.fee));
      if (tx.type === 'SpendTx') {
        expect([row.sender, row.recipient, row.amount]).to.deep.equal([
          tx.sender_id,
          tx.recipient_id,
          String(tx.amount),
        ]);
        expect(row.nonce).to.equal(String(tx.nonce));
      }
    });
    expect(rows.filter((r) => r.type === 'SpendTx').length).to.be.above(0);
  });

  it("writes each CSV line as the whole Transaction's (the NDJSON row's) line, for every type of the chain", async () => {
    // the CSV renders summaries read without the call, signatures or encoded_tx: the exports of every account of the
    // chain and oracle compared line for line with the lines of the items NDJSON sends, of every type of the chain
    const accounts = new Set(
      chain.transactions.flatMap((t) => stringifyJson(t.signed).match(/(?:ak|ok)_[1-9A-HJ-NP-Za-km-z]{30,60}/g) ?? []),
    );
    const types = new Set<Json>();
    let wrapped = 0;
    for (const account of accounts) {
      const path = `/mdw/v3/accounts/${account}/transactions/export`;
      const whole = ndjson((await download(exporting.url, path)).text);
      const lines = (await download(exporting.url, path, 'text/csv')).text.split('\r\n').slice(1, -1);
      expect(lines).to.have.length(whole.length);
      whole.forEach(({ cursor, item }, i) => {
        expect(lines[i], cursor).to.equal(transactionCsv(cursor, item).slice(0, -2));
        // a wrapper's row names the transaction it carries (a signed tx, {signatures, tx}, perhaps another wrapper)
        let carried = item.tx as Obj;
        while (carried.type === 'GAMetaTx' || carried.type === 'PayingForTx') carried = (carried.tx as Obj).tx as Obj;
        if (carried !== item.tx) expect(lines[i]!.split(',')[7], cursor).to.equal(carried.type);
        if (carried !== item.tx) wrapped++;
      });
      for (const { item } of whole) types.add((item.tx as Obj).type!);
    }
    expect([...types].sort()).to.deep.equal(
      [...new Set(chain.transactions.map((t) => (t.signed.tx as Obj).type))].sort(),
    );
    expect(wrapped).to.be.above(0);
  });

  it('exports the activities, row for row, as /accounts/{id}/activities pages them', async () => {
    for (const query of ['', '&direction=forward', '&type=transactions', '&owned_only=true&scope=gen:5-50']) {
      const listed = await v3.walk(`/mdw/v3/accounts/${busiest}/activities?limit=100${query}`);
      const res = await download(exporting.url, `/mdw/v3/accounts/${busiest}/activities/export?${query.slice(1)}`);
      expect(res.status, res.text).to.equal(200);
      expect(
        ndjson(res.text).map((r) => r.item),
        query,
      ).to.deep.equal(listed);
      const csv = parseCsv(
        (await download(exporting.url, `/mdw/v3/accounts/${busiest}/activities/export?${query.slice(1)}`, 'text/csv'))
          .text,
      );
      expect(
        csv.map((r) => [Number(r.height), r.type]),
        query,
      ).to.deep.equal(listed.map((a) => [a.height, a.type]));
    }
  });

  it('stops at the row cap, says so in its trailers, and resumes after the last row sent to the same whole', async () => {
    const server = await v3.serveWith({ ...PAGES, EXPORT_MAX_ROWS: '10' });
    try {
      const listed = await v3.walk(`/mdw/v3/transactions?account=${busiest}&limit=100&type=spend`);
      const got: Obj[] = [];
      let after: string | undefined;
      let requests = 0;
      for (;;) {
        const res = await download(
          server.url,
          `/mdw/v3/accounts/${busiest}/transactions/export?type=spend${after ? `&after=${after}` : ''}`,
        );
        requests++;
        const rows = ndjson(res.text);
        expect(rows.length).to.be.at.most(10);
        got.push(...rows.map((r) => r.item));
        if (res.trailers['export-complete'] === 'true') break;
        expect(res.trailers['export-complete']).to.equal('false');
        expect(res.trailers['export-resume-after']).to.equal(rows.at(-1)!.cursor);
        after = rows.at(-1)!.cursor;
      }
      expect(got).to.deep.equal(listed);
      expect(requests).to.equal(Math.max(1, Math.ceil(listed.length / 10)));
      // a limit of its own, below the cap; above it a 400
      expect(
        ndjson((await download(server.url, `/mdw/v3/accounts/${busiest}/activities/export?limit=3`)).text).length,
      ).to.equal(3);
      expect((await download(server.url, `/mdw/v3/accounts/${busiest}/activities/export?limit=11`)).status).to.equal(
        400,
      );
    } finally {
      await server.close();
    }
  });

  it('answers bad input with a 4xx before it sends anything', async () => {
    const path = `/mdw/v3/accounts/${busiest}/transactions/export`;
    const bad = [
      [`/mdw/v3/accounts/ak_nope/transactions/export`, 400],
      [`${path}?after=1-2`, 400],
      [`${path}?cursor=1-0-0`, 400],
      [`${path}?rev=1`, 400],
      [`${path}?limit=0`, 400],
      [`${path}?direction=up`, 400],
      [`${path}?scope=gen:a-b`, 400],
      [`${path}?type=nothing`, 400],
      [`${path}?owned_only=true`, 400],
      [`/mdw/v3/accounts/${busiest}/activities/export?type=spend`, 400],
      [`/mdw/v3/accounts/${busiest}/activities/export?after=x`, 400],
    ] as const;
    for (const [p, status] of bad) {
      const res = await download(exporting.url, p);
      expect([p, res.status]).to.deep.equal([p, status]);
      expect(parseJson(res.text)).to.have.property('error');
    }
    expect((await download(exporting.url, path, 'application/json')).status).to.equal(406);
  });

  it('refuses a second export beyond EXPORT_MAX_RUNNING with 503 and Retry-After, and frees its place when a client leaves', async () => {
    const server = await v3.serveWith({ ...PAGES, EXPORT_MAX_RUNNING: '1' });
    const locker = await v3.pool.connect();
    try {
      // a statement of the export that cannot end by itself: the table it reads is locked
      await locker.query('BEGIN');
      await locker.query('LOCK TABLE account_transactions IN ACCESS EXCLUSIVE MODE');
      const leaving = request(`${server.url}/mdw/v3/accounts/${busiest}/transactions/export`);
      leaving.on('error', () => {});
      leaving.end();
      const waiting = async (): Promise<number[]> =>
        (
          await v3.pool.query<{ pid: number }>(
            `SELECT pid FROM pg_stat_activity WHERE state = 'active' AND wait_event_type = 'Lock' AND query LIKE '%account_transactions%'`,
          )
        ).rows.map((r) => r.pid);
      let pids: number[] = [];
      while (pids.length === 0) pids = await waiting();
      const busy = await download(server.url, `/mdw/v3/accounts/${busiest}/activities/export`);
      expect(busy.status).to.equal(503);
      expect(busy.headers['retry-after']).to.equal('1');
      // the client goes away: its statement is cancelled though the lock still holds
      leaving.destroy();
      while ((await waiting()).some((pid) => pids.includes(pid))) await new Promise((r) => setTimeout(r, 20));
      await locker.query('ROLLBACK');
      // and its place is free again
      let next = await download(server.url, `/mdw/v3/accounts/${busiest}/transactions/export?limit=5`);
      while (next.status === 503)
        next = await download(server.url, `/mdw/v3/accounts/${busiest}/transactions/export?limit=5`);
      expect(next.status).to.equal(200);
      expect(ndjson(next.text).length).to.equal(5);
    } finally {
      await locker.query('ROLLBACK').catch(() => {});
      locker.release();
      await server.close();
    }
  });

  it('frees its place and connection when the client leaves mid-stream', async () => {
    const server = await v3.serveWith({ ...PAGES, EXPORT_MAX_RUNNING: '1' });
    try {
      const first = await new Promise<number>((resolve, reject) => {
        const req = request(`${server.url}/mdw/v3/accounts/${busiest}/activities/export`, (res) => {
          res.once('data', (chunk: Buffer) => {
            resolve(chunk.length);
            // gone after its first bytes
            req.destroy();
          });
        });
        req.on('error', (err) => (req.destroyed ? undefined : reject(err)));
        req.end();
      });
      expect(first).to.be.above(0);
      let next = await download(server.url, `/mdw/v3/accounts/${busiest}/activities/export?limit=2`);
      while (next.status === 503)
        next = await download(server.url, `/mdw/v3/accounts/${busiest}/activities/export?limit=2`);
      expect(next.status).to.equal(200);
      // no export statement left running: the cancelled one's backend reports itself idle a moment after the error it
      // sent (it cleans up first), which a loaded machine may not have scheduled yet
      await waitFor(
        'no export statement left running',
        async () => {
          const { rows } = await v3.pool.query<{ n: string }>(
            `SELECT count(*) AS n FROM pg_stat_activity WHERE state = 'active' AND pid <> pg_backend_pid() AND query LIKE '%feed_parameters%'`,
          );
          return Number(rows[0]!.n) === 0;
        },
        5000,
      );
    } finally {
      await server.close();
    }
  });
});
