/**
 * @module Conformance of the route table's handled routes (the webhooks API, POST /accounts/balances) to the schemas
 * /mdw/v3/api states for them (issue 91): every route is called for its success and its errors, and each answer is
 * validated against its method's and status's response schema; a delivery of each of the five types the populator
 * writes (src/indexer writes them, test/integration/webhooks/webhooks.test.ts follows them to a receiver) is listed
 * and validated, and the deliveries page through the shared list reader, their links under /v3 as every list's.
 */
import { expect } from 'chai';
import { Ajv } from 'ajv';
import { V3_HANDLED } from '../../../src/api/mdw/rest/operations.ts';
import { startReceiver, type Receiver } from '../../support/webhook-receiver.ts';
import { ALICE, CONTRACT } from '../api/fixture.ts';
import { startApi, type ApiUnderTest } from '../api/harness.ts';

type Obj = Record<string, unknown>;

/** The delivery types a receiver gets (docs/webhooks.md, "Events"), written here as the docs list them. */
const DELIVERY_TYPES = ['transaction', 'contract_log', 'aex9_transfer', 'aex141_transfer', 'reorg'];

describe('webhooks API and POST /accounts/balances: every answer against its schema in /v3/api', function () {
  this.timeout(60_000);
  let api: ApiUnderTest;
  let receiver: Receiver;
  let paths: Record<string, Record<string, { responses: Record<string, Obj> }>>;
  const ajv = new Ajv({ strict: false, allErrors: true }).addFormat(
    'date-time',
    /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z$/,
  );
  /** operationId and status of every answer validated, for the check that each route was */
  const validated = new Set<string>();

  before(async () => {
    api = await startApi({ env: { WEBHOOKS_ANONYMOUS: 'true', WEBHOOKS_ALLOW_PRIVATE: 'true' }, writes: true });
    // the fixture chain's accounts have no stored change, so the server asks their genesis balance: none held any
    api.node.respond = () => ({ status: 404, body: JSON.stringify({ reason: 'Account not found' }) });
    receiver = await startReceiver();
    const document = (await api.request.get('/mdw/v3/api')).body as { paths: typeof paths; components: unknown };
    paths = document.paths;
    ajv.addSchema({ $id: 'doc', components: document.components });
  });
  after(async () => {
    await receiver?.close();
    await api?.close();
  });

  /** call sends a request and validates its answer against the schema /v3/api states for its route and status. */
  async function call(
    method: 'get' | 'post' | 'patch' | 'delete',
    path: string,
    status: number,
    body?: unknown,
  ): Promise<{ body: Obj; text: string }> {
    const req = api.request[method](`/mdw/v3${path}`);
    const res = await (body === undefined ? req : req.send(body as object));
    expect(res.status, `${method} ${path}: ${res.text}`).to.equal(status);
    const route = V3_HANDLED.find(
      (r) =>
        (r.method ?? 'GET').toLowerCase() === method &&
        new RegExp(`^${r.path.replace(/\{\w+\}/g, '[^/]+')}$`).test(path.split('?')[0]!),
    );
    expect(route, `${method} ${path}: a handled route`).to.not.equal(undefined);
    const response = paths[route!.path]![method]!.responses[String(status)];
    expect(response, `${route!.operationId}: /v3/api states its ${status}`).to.not.equal(undefined);
    const content = response!.content as { 'application/json': { schema: unknown } } | undefined;
    if (content === undefined) expect(res.text, `${route!.operationId} ${status}: no body`).to.equal('');
    else {
      const schema = JSON.stringify(content['application/json'].schema).replaceAll('"#/components', '"doc#/components');
      const validate = ajv.compile(JSON.parse(schema));
      expect(validate(res.body), `${method} ${path} ${status}: ${ajv.errorsText(validate.errors)}`).to.equal(true);
    }
    validated.add(`${route!.operationId} ${status}`);
    return { body: res.body as Obj, text: res.text };
  }

  const filters = [{ account: ALICE }];

  it('answers each route of the webhooks API as its schemas state, its errors too', async () => {
    const created = await call('post', '/webhooks', 201, { url: `${receiver.url}/hook`, filters, confirmations: 2 });
    const id = String(created.body.id);
    await call('get', '/webhooks', 200);
    await call('get', `/webhooks/${id}`, 200);
    await call('patch', `/webhooks/${id}`, 200, { enabled: false });
    await call('post', `/webhooks/${id}/rotate-secret`, 200);
    await call('delete', `/webhooks/${id}/previous-secret`, 204);
    expect((await call('post', `/webhooks/${id}/test`, 200)).body.ok).to.equal(true);
    await call('get', `/webhooks/${id}/deliveries`, 200);
    await call('post', `/webhooks/${id}/replay`, 202, { from_height: 0 });
    await call('post', '/webhooks', 400, { url: `${receiver.url}/hook`, filters, extra: 1 });
    await call('patch', `/webhooks/${id}`, 400, { confirmations: 1001 });
    await call('post', `/webhooks/${id}/replay`, 400, { from_height: -1 });
    await call('get', `/webhooks/${id}/deliveries?cursor=1-2-3`, 400);
    await call('delete', `/webhooks/${id}`, 204);
    for (const [method, path] of [
      ['get', `/webhooks/${id}`],
      ['patch', `/webhooks/${id}`],
      ['delete', `/webhooks/${id}`],
      ['post', `/webhooks/${id}/rotate-secret`],
      ['delete', `/webhooks/${id}/previous-secret`],
      ['post', `/webhooks/${id}/test`],
      ['get', `/webhooks/${id}/deliveries`],
      ['post', `/webhooks/${id}/replay`],
    ] as const)
      await call(method, path, 404, method === 'patch' ? {} : method === 'post' ? { from_height: 0 } : undefined);
  });

  it('answers POST /accounts/balances as its schemas state', async () => {
    const answer = await call('post', '/accounts/balances', 200, { accounts: [ALICE, CONTRACT] });
    expect((answer.body as unknown as Obj[]).map((b) => b.account)).to.have.length(2);
    await call('post', '/accounts/balances', 400, { accounts: [] });
  });

  it('lists a delivery of every type the populator writes, each as the schema states, paged newest first', async () => {
    const id = String((await call('post', '/webhooks', 201, { url: `${receiver.url}/d`, filters })).body.id);
    // the rows as the populator writes them (src/db/writes/webhook-deliveries.ts), one type per height
    for (const [height, type] of DELIVERY_TYPES.entries()) {
      const reorg = type === 'reorg';
      await api.pool.query(
        `INSERT INTO webhook_deliveries (webhook_id, delivery_id, type, height, rank, micro_index, tx_index,
                                         block_hash, tx_hash, invalidated)
         VALUES ($1, $2, $3, $4, $5, $6, 0, $7, $8, $9)`,
        [
          id,
          `${type}-${height}`,
          type,
          height + 1,
          reorg ? 0 : 1,
          reorg ? -1 : 0,
          reorg ? null : `mh_${height}`,
          reorg ? null : `th_${height}`,
          reorg ? ['transaction-0'] : null,
        ],
      );
    }
    const shown: Obj[] = [];
    let next: string | null = `/webhooks/${id}/deliveries?limit=2`;
    while (next !== null) {
      const page: Obj = (await call('get', next, 200)).body;
      shown.push(...(page.data as Obj[]));
      // a link under the API's /v3, as every list's (ae_mdw's links leave out where the middleware is mounted)
      if (page.next !== null) expect(String(page.next)).to.match(/^\/v3\/webhooks\/wh_[^/]+\/deliveries\?/);
      next = page.next === null ? null : String(page.next).replace(/^\/v3/, '');
    }
    expect(shown.map((d) => d.type)).to.deep.equal([...DELIVERY_TYPES].reverse());
    expect(shown.find((d) => d.type === 'reorg'))
      .to.include({ micro_index: null })
      .and.have.property('invalidated');
    expect(shown.filter((d) => 'invalidated' in d)).to.have.length(1);
  });

  it('checked an answer of every handled route at its success status', () => {
    const missing = V3_HANDLED.filter((r) => ![...validated].some((v) => v.startsWith(`${r.operationId} 2`))).map(
      (r) => r.operationId,
    );
    expect(missing).to.deep.equal([]);
  });
});
