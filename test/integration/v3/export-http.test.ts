/**
 * @module The exports over every HTTP version and behind a real nginx (issue 79): the end in trailers only to an
 * HTTP/1.1 client that asks for them, else as the body's last record; an HTTP/1.0 request answered whole, an error as
 * its status.
 */
import { getWhole, type Answer } from '../../support/http-trailers.ts';
import { connect } from 'node:net';
import { expect } from 'chai';
import { parseJson, stringifyJson, type Json } from '../../../src/chain/json.ts';
import { startV3, type V3UnderTest } from './harness.ts';
import { nginxBinary, startNginx, type Nginx } from '../../support/nginx.ts';

type Obj = { [key: string]: Json };

/** An answer as the client got it: status, headers, the body's text and the trailers (none over HTTP/1.0). */
/** http11 asks `path` of `base` over HTTP/1.1 (node:http, which reads the trailers), with `headers`. */
function http11(base: string, path: string, headers: Record<string, string>): Promise<Answer> {
  return getWhole(`${base}${path}`, headers);
}

/** http10 asks `path` of `base` over HTTP/1.0 on a socket of its own, as `curl --http1.0` does, and reads to its close. */
function http10(base: string, path: string, headers: Record<string, string>): Promise<Answer> {
  const { hostname, port } = new URL(base);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), hostname);
    const chunks: Buffer[] = [];
    socket.on('data', (c: Buffer) => chunks.push(c));
    socket.on('error', reject);
    socket.on('end', () => {
      const raw = Buffer.concat(chunks).toString('utf8');
      const split = raw.indexOf('\r\n\r\n');
      if (split < 0) return reject(new Error(`no status line and headers (an empty reply): ${JSON.stringify(raw)}`));
      const [statusLine, ...lines] = raw.slice(0, split).split('\r\n');
      const answered: Record<string, string> = {};
      for (const line of lines)
        answered[line.slice(0, line.indexOf(':')).toLowerCase()] = line.slice(line.indexOf(':') + 1).trim();
      resolve({
        status: Number(statusLine!.split(' ')[1]),
        headers: answered,
        text: raw.slice(split + 4),
        trailers: {},
      });
    });
    const head = Object.entries({ host: `${hostname}:${port}`, ...headers }).map(([k, v]) => `${k}: ${v}\r\n`);
    socket.write(`GET ${path} HTTP/1.0\r\n${head.join('')}\r\n`);
  });
}

/** lines are the NDJSON lines of a body as objects. */
const lines = (text: string): Obj[] =>
  text
    .split('\n')
    .filter((l) => l !== '')
    .map((l) => parseJson(l) as Obj);

const NDJSON = { accept: 'application/x-ndjson' };

describe('/mdw/v3 exports over HTTP/1.0 and 1.1, and behind nginx (issue 79)', function () {
  this.timeout(120_000);
  let v3: V3UnderTest;
  let account: string;
  /** the account's transactions as the list pages them: what every export must send */
  let listed: Obj[];
  let path: string;

  before(async () => {
    v3 = await startV3(12, 'v3-export-http', () => ({ EXPORT_PAGE_ROWS: '4' }));
    const { transactions } = await v3.truth();
    const counts = new Map<string, number>();
    for (const t of transactions)
      for (const id of new Set(stringifyJson(t.signed).match(/ak_[1-9A-HJ-NP-Za-km-z]{30,60}/g) ?? []))
        counts.set(id, (counts.get(id) ?? 0) + 1);
    account = [...counts].sort((a, b) => b[1] - a[1])[0]![0];
    listed = await v3.walk(`/mdw/v3/transactions?account=${account}&limit=100`);
    path = `/mdw/v3/accounts/${account}/transactions/export`;
  });
  after(async () => {
    await v3?.close();
  });

  /** expectWhole checks an NDJSON export's rows against the list and its end record (no trailers). */
  function expectWhole(answer: Answer, rows: readonly Obj[], end: Obj): void {
    expect(answer.status, answer.text).to.equal(200);
    expect(answer.headers.trailer).to.equal(undefined);
    expect(answer.trailers).to.deep.equal({});
    const got = lines(answer.text);
    expect(got.at(-1)).to.deep.equal(end);
    expect(got.slice(0, -1).map(({ cursor: _, ...item }) => item)).to.deep.equal(rows);
  }

  it('answers an HTTP/1.0 request whole, its end the last record, and an error with its status', async () => {
    expect(listed.length, 'the export reads several pages').to.be.above(5);
    const answer = await http10(v3.url, path, NDJSON);
    expect(answer.headers['export-end']).to.equal('body');
    expectWhole(answer, listed, { export_complete: true });
    const csv = await http10(v3.url, `${path}?direction=forward`, { accept: 'text/csv' });
    expect(csv.status).to.equal(200);
    const records = csv.text.split('\r\n');
    expect(records.slice(-2)).to.deep.equal(['#Export-Complete: true', '']);
    expect(records.length).to.equal(1 + listed.length + 2);
    // stopped at its row cap: where to resume
    const capped = await v3.serveWith({ EXPORT_MAX_ROWS: '5' });
    try {
      const first = await http10(capped.url, path, NDJSON);
      const cursor = String(lines(first.text)[4]!.cursor);
      expectWhole(first, listed.slice(0, 5), { export_complete: false, export_resume_after: cursor });
      const next = await http10(capped.url, `${path}?after=${cursor}`, NDJSON);
      expect(lines(next.text)[0]!.hash).to.equal(listed[5]!.hash);
      const csvCapped = (await http10(capped.url, path, { accept: 'text/csv' })).text.split('\r\n');
      expect(csvCapped.at(-2)).to.equal(`#Export-Complete: false; Export-Resume-After: ${cursor}`);
    } finally {
      await capped.close();
    }
    const refused = await http10(v3.url, `${path}?limit=0`, NDJSON);
    expect(refused.status).to.equal(400);
    expect(parseJson(refused.text)).to.have.property('error');
    expect((await http10(v3.url, path, { accept: 'application/json' })).status).to.equal(406);
  });

  it('sends trailers to an HTTP/1.1 client that asks for them with TE: trailers, and the end record to one that does not', async () => {
    const withTrailers = await http11(v3.url, path, { ...NDJSON, te: 'trailers' });
    expect(withTrailers.headers.trailer).to.equal('Export-Complete, Export-Resume-After');
    expect(withTrailers.headers['export-end']).to.equal('trailers');
    expect(withTrailers.trailers['export-complete']).to.equal('true');
    expect(lines(withTrailers.text).map(({ cursor: _, ...item }) => item)).to.deep.equal(listed);
    const without = await http11(v3.url, path, NDJSON);
    expect(without.headers['export-end']).to.equal('body');
    expectWhole(without, listed, { export_complete: true });
  });

  it("answers a HEAD with the GET's status and headers, without walking the list (its tables locked meanwhile)", async () => {
    const headers = ['content-type', 'content-disposition', 'cache-control', 'export-end'];
    const got = await http11(v3.url, path, { accept: 'text/csv', te: 'trailers' });
    // an export is expensive: its HEAD must not read the list, which a lock on the list's tables shows
    const lock = await v3.pool.connect();
    try {
      await lock.query('BEGIN');
      await lock.query('LOCK TABLE transactions, account_transactions IN ACCESS EXCLUSIVE MODE');
      // the oracle holds: a GET's walk waits on the lock (its client gives up, which cancels its statement)
      const walking = await fetch(`${v3.url}${path}`, { signal: AbortSignal.timeout(300) }).then(
        (res) => `answered ${res.status}`,
        (err: Error) => err.name,
      );
      expect(walking).to.equal('TimeoutError');
      const head = await fetch(`${v3.url}${path}`, {
        method: 'HEAD',
        headers: { accept: 'text/csv', te: 'trailers' },
        signal: AbortSignal.timeout(3000),
      });
      expect(head.status).to.equal(200);
      for (const name of headers) expect(head.headers.get(name), name).to.equal(got.headers[name] ?? null);
      expect(head.headers.get('content-disposition')).to.equal(`attachment; filename="${account}-transactions.csv"`);
      // where the end will be, but no trailers announced: a HEAD's answer has no chunks to carry them
      expect(head.headers.get('export-end')).to.equal('trailers');
      expect(head.headers.get('trailer')).to.equal(null);
      expect(await head.text()).to.equal('');
      // refused as its GET would be: a bad parameter, a format it cannot give
      const refused = (query: string, accept: string) =>
        fetch(`${v3.url}${path}${query}`, { method: 'HEAD', headers: { accept }, signal: AbortSignal.timeout(3000) });
      expect((await refused('?limit=0', 'text/csv')).status).to.equal(400);
      expect((await refused('', 'application/json')).status).to.equal(406);
    } finally {
      await lock.query('ROLLBACK');
      lock.release();
    }
  });

  describe('behind nginx in its default proxy configuration (HTTP/1.0 to the server)', () => {
    let nginx: Nginx | undefined;
    before(async function () {
      if (!nginxBinary()) {
        console.log('      nginx is not installed (apt-get install nginx): the exports behind it are skipped');
        this.skip();
      }
      nginx = await startNginx(v3.url);
    });
    after(async () => {
      await nginx?.stop();
    });

    it('streams every row with its end, to an HTTP/1.1 client asking for trailers and to an HTTP/1.0 one', async () => {
      // nginx removes the TE it was sent and asks with HTTP/1.0: the end comes in the body, as nginx cannot pass trailers
      const proxied = await http11(nginx!.url, path, { ...NDJSON, te: 'trailers' });
      expectWhole(proxied, listed, { export_complete: true });
      expect(proxied.headers['export-end']).to.equal('body');
      expectWhole(await http10(nginx!.url, path, NDJSON), listed, { export_complete: true });
      const csv = await http11(nginx!.url, `${path}?limit=3`, { accept: 'text/csv', te: 'trailers' });
      const records = csv.text.split('\r\n');
      expect(records.length).to.equal(1 + 3 + 2);
      expect(records.at(-2)).to.equal(`#Export-Complete: false; Export-Resume-After: ${records[3]!.split(',')[0]}`);
    });

    it('passes an error on as its status', async () => {
      const refused = await http11(nginx!.url, `${path}?after=1-2`, NDJSON);
      expect(refused.status).to.equal(400);
      expect(parseJson(refused.text)).to.have.property('error');
      expect((await http10(nginx!.url, `/mdw/v3/accounts/ak_nope/activities/export`, NDJSON)).status).to.equal(400);
    });
  });
});
