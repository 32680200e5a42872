import { expect } from 'chai';
import { Ajv } from 'ajv';
import { openApiDocument, OPERATIONS } from '../../../src/api/legacy/legacy-openapi.ts';
import type { RouteDeps } from '../../../src/api/http/route-deps.ts';
import { apiRouters } from '../../../src/api/legacy/legacy-api.ts';
import { loadConfig } from '../../../src/config/middleware.ts';

/** routesOf lists `METHOD /path/{param}` for every route the routers register (HEAD aside). */
function routesOf(): string[] {
  const deps = { cfg: loadConfig({}), version: 't' } as unknown as RouteDeps;
  const out: string[] = [];
  for (const router of apiRouters(deps)) {
    for (const layer of router.stack) {
      for (const method of layer.methods.filter((m) => m !== 'HEAD')) {
        out.push(
          `${method} ${String(layer.path)
            .replace(/\/$/, '')
            .replace(/:([A-Za-z_]+)/g, (_, p: string) => `{${p}}`)}`,
        );
      }
    }
  }
  return out.sort();
}

describe('OpenAPI document', () => {
  const doc = openApiDocument('1.0.0') as {
    paths: Record<string, Record<string, { parameters: { name: string; in: string }[] }>>;
  };

  it('documents exactly the routes the server registers', () => {
    const documented = Object.entries(doc.paths)
      .flatMap(([path, ops]) => Object.keys(ops).map((m) => `${m.toUpperCase()} ${path}`))
      .sort();
    const registered = routesOf().map((r) => r.replace('{oracleId}', '{oracle_id}'));
    expect(documented).to.deep.equal(registered);
  });

  it('declares every path parameter of each path', () => {
    for (const op of OPERATIONS) {
      const inPath = [...op.path.matchAll(/\{([^}]+)\}/g)].map((m) => m[1]);
      const declared = doc.paths[op.path]![op.method]!.parameters.filter((p) => p.in === 'path').map((p) => p.name);
      expect(declared, op.path).to.deep.equal(inPath);
    }
  });

  it('is an OpenAPI 3 object that JSON-serialises', () => {
    const schema = {
      type: 'object',
      required: ['openapi', 'info', 'paths'],
      properties: { openapi: { type: 'string', pattern: '^3\\.' } },
    };
    expect(new Ajv().validate(schema, JSON.parse(JSON.stringify(doc)))).to.equal(true);
  });
});
