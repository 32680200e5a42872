import { expect } from 'chai';
import { DOCUMENT_LIMITS } from '../../../src/api/mdw/graphql/document-bounds.ts';
import { OPERATIONS } from '../../../src/api/legacy/legacy-openapi.ts';
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

  it('answers GraphQL documents nested of every kind, at any depth, never with a 5xx: 400 `{errors}` beyond the bound', async () => {
    const random = prng(20261124);
    const nest = (open: string, inner: string, close: string, n: number): string =>
      open.repeat(n) + inner + close.repeat(n);
    const chain = (n: number): string =>
      Array.from({ length: n }, (_, i) =>
        i === n - 1 ? `fragment F${i} on Status { mdwHeight }` : `fragment F${i} on Status { ...F${i + 1} }`,
      ).join(' ');
    /** each kind: the document (and variables) nesting `n` deep, and whether its brackets nest that deep */
    const kinds: Record<string, (n: number) => { query: string; variables?: unknown; brackets: number }> = {
      lists: (n) => ({ query: `{ keyBlocks(limit: ${nest('[', '1', ']', n)}) { data { hash } } }`, brackets: n + 2 }),
      objects: (n) => ({
        query: `{ keyBlocks(limit: ${nest('{a: ', '1', '}', n)}) { data { hash } } }`,
        brackets: n + 2,
      }),
      selections: (n) => ({ query: `{ status ${nest('{ mdwHeight ', '', '}', n)} }`, brackets: n + 1 }),
      'inline fragments': (n) => ({
        query: `{ status { ${nest('... on Status { ', 'mdwHeight', ' }', n)} } }`,
        brackets: n + 2,
      }),
      'variable types': (n) => ({
        query: `query($v: ${nest('[', 'Int', ']', n)}) { keyBlocks(limit: $v) { data { hash } } }`,
        brackets: n + 1,
      }),
      'variable values': (n) => ({
        query: 'query($v: Int) { keyBlocks(limit: $v) { data { hash } } }',
        variables: { v: JSON.parse(nest('[', '1', ']', n)) as unknown },
        brackets: 3,
      }),
      directives: (n) => ({
        query: `{ status @include(if: ${nest('[', 'true', ']', n)}) { mdwHeight } }`,
        brackets: n + 2,
      }),
      // spreads nest without brackets: as many as the parser's 4000 tokens allow (8 a fragment)
      'fragment chains': (n) => ({ query: `{ status { ...F0 } } ${chain(Math.min(n, 490))}`, brackets: 2 }),
    };
    const failures: string[] = [];
    // about the bound, the 1,999 list brackets (the parser's stack overflowed there), and random depths from 1
    // to 4096, as many small as large
    const limit = DOCUMENT_LIMITS.nesting;
    const depths = [
      limit - 2,
      limit - 1,
      limit,
      1999,
      ...Array.from({ length: 16 }, () => Math.floor(2 ** (random() * 12))),
    ];
    for (const [kind, make] of Object.entries(kinds))
      for (const n of depths.map((d) => Math.max(1, d))) {
        const { query, variables, brackets } = make(n);
        const res = await api.request
          .post('/mdw/graphql')
          .set('content-type', 'application/json')
          .send(JSON.stringify({ query, variables }));
        const where = `${kind} ${n}: ${res.status} ${res.text.slice(0, 120)}`;
        // first in the list: what the test is most about
        if (res.status >= 500) failures.unshift(where);
        const refused = brackets > DOCUMENT_LIMITS.nesting || query.length > DOCUMENT_LIMITS.length;
        // a body beyond the endpoint's 64 KB is refused before its document is looked at
        if (refused !== (res.status === 400 || res.status === 413)) failures.push(`refused ${refused}: ${where}`);
        if (res.status >= 400 && typeof res.body.errors?.[0]?.message !== 'string') failures.push(`shape: ${where}`);
      }
    expect(failures.slice(0, 15)).to.deep.equal([]);
  });
});
