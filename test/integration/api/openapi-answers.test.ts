/** @module Real answers of every route validated against the response schemas of the served OpenAPI document. */
import { expect } from 'chai';
import { Ajv, type ValidateFunction } from 'ajv';
import { OPERATIONS } from '../../../src/api/legacy/legacy-openapi.ts';
import { addAuctions, ZZ } from './auction-fixture.ts';
import { ALICE, BOB, CAROL, CHANNEL_CLOSED, CONTRACT, id, NAME_HASH, ORACLE, TOP } from './fixture.ts';
import { startApi, type ApiUnderTest } from './harness.ts';

describe('every route answers what /middleware/api says it answers', function () {
  this.timeout(60_000);
  let api: ApiUnderTest;
  let doc: { paths: Record<string, Record<string, unknown>> };
  let ajv: Ajv;
  before(async () => {
    api = await startApi({ env: { NODE_TIMEOUT_MS: '5000' }, fixture: { newestBlockAgeMs: 1000 } });
    await addAuctions(api.pool);
    api.node.respond = (req) =>
      req.url === '/v2/key-blocks/current/height'
        ? { status: 200, body: JSON.stringify({ height: TOP }) }
        : { status: 404, body: '{"reason":"not here"}' };
    doc = (await api.request.get('/middleware/api').expect(200)).body;
    ajv = new Ajv({ strict: false, allErrors: true });
    ajv.addSchema(doc, 'doc');
  });
  after(async () => {
    await api.close();
  });

  /** schemaOf compiles the 200 answer's schema of an operation, with the document's components in reach. */
  const schemaOf = (method: string, path: string): ValidateFunction => {
    const pointer = ['paths', path, method, 'responses', '200', 'content', 'application/json', 'schema']
      .map((p) => encodeURIComponent(p.replace(/~/g, '~0').replace(/\//g, '~1')))
      .join('/');
    return ajv.getSchema(`doc#/${pointer}`)!;
  };

  /** A real value for every path parameter, by path (several separated by spaces, in order). */
  const urlOf = (path: string): string => {
    const f = api.fixture;
    const day = (offset: number): string =>
      new Date(Date.now() + offset * 86_400_000).toISOString().slice(0, 10).replace(/-/g, '');
    const values: Record<string, string> = {
      '/v2/generations/height/{height}': '4',
      '/v2/key-blocks/hash/{hash}': f.keyHash(4),
      '/v2/key-blocks/height/{height}': '4',
      '/v2/micro-blocks/hash/{hash}/header': f.microHash(4),
      '/v2/micro-blocks/hash/{hash}/transactions': f.microHash(4),
      '/v2/micro-blocks/hash/{hash}/transactions/count': f.microHash(4),
      // the node's index is 1-based (the recording's /transactions/index/1 is a block's first)
      '/v2/micro-blocks/hash/{hash}/transactions/index/{index}': `${f.microHash(4)} 1`,
      '/v2/transactions/{hash}': id('th', 'spend-1'),
      '/middleware/generations/{from}/{to}': '3 5',
      '/middleware/new/generations/{from}/{to}': '3 5',
      '/middleware/height/at/{millis}': String(f.timeOf(3)),
      '/middleware/size/height/{height}': '10',
      '/middleware/reward/height/{height}': '5',
      '/middleware/transactions/account/{account}/count': ALICE,
      '/middleware/transactions/account/{sender}/to/{receiver}': `${ALICE} ${CAROL}`,
      '/middleware/transactions/account/{account}': ALICE,
      '/middleware/transactions/interval/{from}/{to}': '1 10',
      '/middleware/transactions/rate/{from}/{to}': `${day(-2)} ${day(2)}`,
      '/middleware/names/reverse/{account}': BOB,
      '/middleware/names/hash/{hash}': NAME_HASH,
      '/middleware/names/{name}': 'alice',
      '/middleware/names/auctions/bids/account/{account}': ALICE,
      '/middleware/names/auctions/bids/{name}': ZZ,
      '/middleware/names/auctions/{name}/info': ZZ,
      '/middleware/oracles/{oracle_id}': ORACLE,
      '/middleware/contracts/calls/address/{address}': CONTRACT,
      '/middleware/contracts/transactions/address/{address}': CONTRACT,
      '/middleware/contracts/transactions/creation/address/{address}': CONTRACT,
      '/middleware/channels/transactions/address/{address}': CHANNEL_CLOSED,
    };
    if (!path.includes('{')) return path;
    // the node's /v3 cached queries take the values of its /v2 ones
    const concrete = values[path.replace(/^\/v3\//, '/v2/')];
    if (concrete === undefined) throw new Error(`no sample values for ${path}`);
    const parts = concrete.split(' ');
    return path.replace(/\{[^}]+\}/g, () => parts.shift()!);
  };

  it('has a 200 schema for every operation, and each accepts the real, non-empty answer', async () => {
    const failures: string[] = [];
    for (const op of OPERATIONS) {
      const validate = schemaOf(op.method, op.path);
      if (!validate) {
        failures.push(`${op.method} ${op.path}: no schema`);
        continue;
      }
      const url = urlOf(op.path);
      const res =
        op.method === 'post'
          ? await api.request.post(url).send({ contract_id: CONTRACT, source: 'contract C = ...', compiler: '8.0.0' })
          : await api.request.get(url);
      if (res.status !== 200) {
        failures.push(`${op.method} ${url}: ${res.status} ${res.text.slice(0, 120)}`);
        continue;
      }
      const body: unknown = JSON.parse(res.text);
      if ((Array.isArray(body) && body.length === 0) || (typeof body === 'object' && Object.keys(body!).length === 0))
        failures.push(`${op.method} ${url}: an empty answer proves nothing`);
      if (!validate(body)) failures.push(`${op.method} ${url}: ${ajv.errorsText(validate.errors)}`);
    }
    expect(failures).to.deep.equal([]);
  });

  it('has schemas that say something: each refuses an empty object in place of the answer or its items', () => {
    const vacuous: string[] = [];
    for (const op of OPERATIONS) {
      const validate = schemaOf(op.method, op.path);
      if (validate({}) && validate([{}])) vacuous.push(`${op.method} ${op.path}`);
    }
    expect(vacuous).to.deep.equal([]);
  });
});
