import { readFileSync } from 'node:fs';
import { expect } from 'chai';
import { Ajv } from 'ajv';
import { v3RouteIndex } from '../../../../src/api/mdw/rest/rest-routes.ts';
import { V3_SCHEMAS, responseSchema, v3ApiDocument } from '../../../../src/api/mdw/rest/api-document.ts';
import { V3_EXPORTS, V3_HANDLED, V3_OPERATIONS, V3_ROUTES } from '../../../../src/api/mdw/rest/operations.ts';
import { answerShapes, type V3Operation } from '../../../../src/api/mdw/rest/operation.ts';
import { page, resource, type Answers } from '../../../../src/api/mdw/resources/resource.ts';
import { int, shape, str } from '../../../../src/shapes/shape-table.ts';

describe('/v3/api document', () => {
  it('lists exactly the routes the /v3 route index serves, the exports, the webhooks and POST /accounts/balances among them', () => {
    const served = v3RouteIndex()
      .templates.map((template) => template.replace(/^\/v3/, '').replace(/:(\w+)/g, '{$1}'))
      .sort();
    expect(served).to.deep.equal([...new Set(V3_ROUTES.map((route) => route.path))].sort());
    expect(served).to.include.members([
      ...V3_EXPORTS.map((e) => e.path),
      '/webhooks',
      '/webhooks/{id}/replay',
      '/accounts/balances',
    ]);
    expect(Object.keys((v3ApiDocument(V3_OPERATIONS, 't') as { paths: object }).paths).sort()).to.deep.equal(served);
  });

  it('documents every request of the webhooks API that docs/webhooks.md lists, and no other', () => {
    const table = readFileSync('docs/webhooks.md', 'utf8').split('## Filters')[0]!;
    const listed = [...table.matchAll(/^\| `(GET|POST|PATCH|DELETE) \/mdw\/v3(\/webhooks[^?` ]*)/gm)].map(
      ([, method, path]) => `${method!.toLowerCase()} ${path}`,
    );
    const doc = v3ApiDocument(V3_OPERATIONS, 't') as { paths: Record<string, Record<string, unknown>> };
    const documented = Object.entries(doc.paths)
      .filter(([path]) => path.startsWith('/webhooks'))
      .flatMap(([path, ops]) => Object.keys(ops).map((method) => `${method} ${path}`));
    expect(listed).to.have.length(10);
    expect(documented.sort()).to.deep.equal(listed.sort());
  });

  it('every response schema compiles, and every path parameter of a path is declared', () => {
    const ajv = new Ajv({ strict: false });
    ajv.addSchema({ $id: 'doc', components: { schemas: V3_SCHEMAS } });
    for (const op of V3_OPERATIONS) {
      const schema = JSON.parse(
        JSON.stringify(responseSchema(op.resource.answers)).replaceAll('"#/components', '"doc#/components'),
      );
      expect(() => ajv.compile(schema), op.path).to.not.throw();
      const inPath = [...op.path.matchAll(/\{(\w+)\}/g)].map((m) => `path:${m[1]}`);
      for (const p of inPath) expect(op.params, op.path).to.include(p);
    }
    const doc = v3ApiDocument(V3_OPERATIONS, 't') as { paths: Record<string, unknown>; info: { version: string } };
    const webhooks = new Set(V3_HANDLED.map((route) => route.path));
    expect(Object.keys(doc.paths)).to.have.length(V3_OPERATIONS.length + 2 + webhooks.size);
    expect(Object.keys((doc.paths['/accounts/balances'] ?? {}) as object)).to.deep.equal(['post']);
    expect(doc.info.version).to.match(/^1\.\d+\.\d+$/);
  });

  it('documents the exports: their filters, the CSV and NDJSON they stream, and the refusals before a byte', () => {
    type Op = {
      parameters: { name: string; in: string }[];
      responses: Record<string, { content: Record<string, unknown>; headers?: Record<string, unknown> }>;
    };
    const doc = v3ApiDocument(V3_OPERATIONS, 't') as { paths: Record<string, { get: Op }> };
    const lists = { transactions: ['type', 'type_group'], activities: ['type', 'owned_only'] };
    for (const [list, filters] of Object.entries(lists)) {
      const op = doc.paths[`/accounts/{id}/${list}/export`]!.get;
      expect(op.parameters.map((p) => `${p.in}:${p.name}`)).to.have.members([
        'path:id',
        ...filters.map((f) => `query:${f}`),
        'query:scope',
        'query:direction',
        'query:limit',
        'query:after',
      ]);
      expect(Object.keys(op.responses['200']!.content)).to.deep.equal(['text/csv', 'application/x-ndjson']);
      expect(op.responses['200']!.headers).to.have.property('Trailer');
      expect(Object.keys(op.responses)).to.include.members(['400', '406', '503']);
      expect(op.responses['503']!.headers).to.have.property('Retry-After');
    }
  });

  it("makes a component of each shape a route answers with (a page's items too), once, and none of a literal", () => {
    const item = shape({ openapi: 'Item' }, { id: str });
    const count = shape({ openapi: 'ItemCount' }, { data: int });
    const op = (path: string, answers: Answers): V3Operation => ({
      path,
      operationId: path,
      summary: path,
      params: [],
      resource: resource(answers, async () => null),
    });
    const shapes = answerShapes([
      op('/items', page(item)),
      op('/items/count', count),
      op('/items/{id}', item),
      op('/items/total', 'integer'),
      op('/history', page('NameHistoryItem')),
    ]);
    expect(shapes).to.deep.equal([item, count]);
    const doc = v3ApiDocument([op('/items', page(item))], 't') as { paths: Record<string, { get: unknown }> };
    expect(JSON.stringify(doc.paths['/items']!.get)).to.include('"items":{"$ref":"#/components/schemas/Item"}');
  });
});
