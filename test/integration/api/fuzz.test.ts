import { expect } from 'chai';
import { OPERATIONS } from '../../../src/api/openapi.ts';
import { ALICE, CONTRACT, id, ORACLE } from './fixture.ts';
import { startApi, type ApiUnderTest } from './harness.ts';

/** A small deterministic PRNG (mulberry32), so a failure replays. */
function prng(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const NASTY = [
  "' OR '1'='1",
  "'; DROP TABLE transactions; --",
  '1 OR 1=1',
  '%',
  '_',
  '%25',
  '\\',
  '"',
  'null',
  'undefined',
  '[]',
  '{}',
  '-1',
  '0',
  '1',
  '1e309',
  '9'.repeat(40),
  '-9223372036854775809',
  '0x10',
  '1.5',
  ' 1',
  'NaN',
  'Infinity',
  '∞',
  '😀',
  'ak_',
  'ak_1',
  'ak_' + '1'.repeat(60),
  'x'.repeat(3000),
  '..',
  '%2e%2e',
  '%00',
  '20190231',
  '99999999',
  '20191301',
];

describe('API fuzz pass', function () {
  this.timeout(120_000);
  let api: ApiUnderTest;
  before(async () => {
    // NODE_TIMEOUT_MS: a loaded machine must not turn the status' node reading into a 503
    api = await startApi({ env: { NODE_TIMEOUT_MS: '5000' }, fixture: { newestBlockAgeMs: 1000 } });
    // a healthy node, so that /middleware/status answers 200: its 503 is the designed answer for an unhealthy one
    const echo = api.node.respond;
    api.node.respond = (req) =>
      req.url === '/v2/key-blocks/current/height' ? { status: 200, body: '{"height":60}' } : echo(req);
  });
  after(async () => {
    await api.close();
  });

  it('never answers 5xx nor drops the connection for random paths, queries and bodies', async () => {
    const random = prng(20261121);
    const pick = <T>(xs: readonly T[]): T => xs[Math.floor(random() * xs.length)]!;
    const valid = [
      ALICE,
      CONTRACT,
      ORACLE,
      id('ch', 'c'),
      id('kh', 'k3'),
      id('mh', 'm4'),
      id('th', 'spend-1'),
      id('oq', 'q'),
      id('nm', 'n'),
      'alice.chain',
      '3',
      '20190101',
    ];
    const value = (): string =>
      encodeURIComponent(
        random() < 0.35 ? pick(valid) : random() < 0.5 ? pick(NASTY) : String(Math.floor(random() * 2 ** 40) - 2 ** 20),
      );
    const queryParams = ['limit', 'page', 'txtype', 'tx_type', 'owner', 'reverse', 'int-as-string'];
    const failures: string[] = [];
    for (let i = 0; i < 1200; i++) {
      const op = pick(OPERATIONS);
      const path = op.path.replace(/\{[^}]+\}/g, value);
      const query = Array.from({ length: Math.floor(random() * 3) }, () => `${pick(queryParams)}=${value()}`).join('&');
      const url = query ? `${path}?${query}` : path;
      let res;
      if (op.method === 'post') {
        const body = pick([
          {},
          [],
          { contract_id: value(), source: value(), compiler: value() },
          { contract_id: CONTRACT, source: 1, compiler: null },
          'null',
          '{"a":',
          pick(NASTY),
        ]);
        res = await api.request
          .post(url)
          .set('content-type', 'application/json')
          .send(typeof body === 'string' ? body : JSON.stringify(body));
      } else {
        res = await api.request.get(url);
      }
      if (res.status >= 500) failures.push(`${res.status} ${url} ${res.text.slice(0, 200)}`);
      if (res.status >= 400 && res.type === 'application/json') {
        if (typeof res.body.reason !== 'string') failures.push(`no reason: ${res.status} ${url}`);
      }
    }
    expect(failures.slice(0, 15)).to.deep.equal([]);
    // The injection attempts changed nothing.
    const { rows } = await api.pool.query<{ n: string }>('SELECT count(*) AS n FROM transactions');
    expect(Number(rows[0]!.n)).to.equal(api.fixture.txs.length);
  });
});
