/**
 * @module The routes the server answers itself (src/api/legacy/legacy-openapi.ts's OPERATIONS, the OpenAPI document's source) are
 * the routes docs/api.md documents: the cached `/v2` table, the `/middleware` table (paths relative to
 * `/middleware`) and `GET /middleware/api`; a route the docs show in those sections is one the server has. The
 * example answer of `/middleware/status` shows the fields its schema requires, no more and no fewer.
 */
import { expect } from 'chai';
import { OPERATIONS } from '../../../src/api/legacy/legacy-openapi.ts';
import { RESPONSES } from '../../../src/api/legacy/legacy-openapi-schemas.ts';
import { codeBlockLines, codeSpans, readDoc, section, withoutCodeBlocks } from './markdown.ts';

/** route is `GET /a/*` for `GET /a/{x}`, `get /a/<x>` or `GET /a/:x` (the parameters' names differ). */
function route(method: string, path: string): string {
  return `${method.toUpperCase()} ${path.replace(/\{[^}]+\}|<[^>]+>|:\w+/g, '*')}`;
}

/** routesIn lists the `GET /…` and `POST /…` code spans of `markdown`, each path under `prefix`. */
function routesIn(markdown: string, prefix = ''): string[] {
  return codeSpans(withoutCodeBlocks(markdown)).flatMap((span) => {
    const m = /^(GET|POST) (\/\S*)$/.exec(span);
    return m ? [route(m[1]!, m[2]!.startsWith(prefix) ? m[2]! : `${prefix}${m[2]!}`)] : [];
  });
}

describe('docs: the routes of docs/api.md', () => {
  const api = readDoc('docs/api.md');
  const cached = routesIn(section(api, '## Cached node queries'));
  const middleware = routesIn(section(api, '## Middleware queries'), '/middleware');
  const served = OPERATIONS.map((o) => route(o.method, o.path));

  it('documents every route the server answers itself', () => {
    const documented = new Set([...cached, ...middleware, ...routesIn(api)]);
    expect(served.filter((r) => !documented.has(r))).to.deep.equal([]);
  });

  it('documents under the cached and /middleware sections only routes the server has', () => {
    expect(cached.length + middleware.length).to.be.greaterThan(40);
    expect([...cached, ...middleware].filter((r) => !served.includes(r))).to.deep.equal([]);
  });

  it('shows in the /middleware/status example exactly the fields its OpenAPI schema requires', () => {
    type ObjectSchema = { required: string[]; properties: Record<string, ObjectSchema> };
    const schema = RESPONSES['get /middleware/status'] as ObjectSchema;
    const example = JSON.parse(
      codeBlockLines(section(api, '### Status'))
        .filter((l) => !l.startsWith('```'))
        .join('\n'),
    );
    expect(Object.keys(example).sort()).to.deep.equal([...schema.required].sort());
    expect(Object.keys(example.populator).sort()).to.deep.equal([...schema.properties.populator!.required].sort());
  });
});
