/**
 * @module Swagger UI at /mdw/swagger and /mdw/v3/swagger (ae_mdw's; the explorer links the latter) and /middleware/swagger: every file the
 * page links is served from the swagger-ui-dist package byte for byte with its type, and the document it names is ours.
 */
import { expect } from 'chai';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { IMMUTABLE } from '../../../src/api/http/middleware/cache-headers.ts';
import { startApi, type ApiUnderTest } from './harness.ts';

const DIST = fileURLToPath(new URL('../../../node_modules/swagger-ui-dist/', import.meta.url));
const DIST_VERSION = (JSON.parse(readFileSync(`${DIST}package.json`, 'utf8')) as { version: string }).version;
const ORIGIN = 'http://gateway.example';
const TYPES: Record<string, RegExp> = {
  css: /^text\/css; charset=utf-8$/,
  js: /^text\/javascript; charset=utf-8$/,
  png: /^image\/png$/,
};

/** The Swagger UI pages, each with a path its document must have (ae_mdw's spec writes paths without /v3). */
const SITES = [
  { page: '/mdw/swagger', document: '/mdw/v3/api', hasPath: '/key-blocks/{hash_or_kbi}' },
  // the explorer's footer links `<MIDDLEWARE_URL>/swagger`, its MIDDLEWARE_URL being the gateway's /mdw/v3
  { page: '/mdw/v3/swagger', document: '/mdw/v3/api', hasPath: '/key-blocks/{hash_or_kbi}' },
  { page: '/middleware/swagger', document: '/middleware/api', hasPath: '/middleware/status' },
];

/** linksOf lists the page's href, src and data-url values, resolved as a browser at `pagePath` would. */
function linksOf(html: string, pagePath: string): URL[] {
  return [...html.matchAll(/(?:href|src|data-url)="([^"]*)"/g)].map((m) => new URL(m[1]!, `${ORIGIN}${pagePath}`));
}

describe('Swagger UI', () => {
  let api: ApiUnderTest;
  before(async () => {
    api = await startApi({ empty: true });
  });
  after(async () => {
    await api.close();
  });

  for (const site of SITES) {
    for (const pagePath of [site.page, `${site.page}/`, `${site.page}/index.html`]) {
      it(`${pagePath}: a page whose files and document are all served here`, async () => {
        const page = await api.request.get(pagePath).expect(200);
        expect(page.headers['content-type']).to.equal('text/html; charset=utf-8');
        expect(page.headers['cache-control']).to.equal('no-cache');
        expect(page.text).not.to.match(/https?:\/\//); // nothing from a CDN
        const links = linksOf(page.text, pagePath);
        expect(links.map((u) => u.pathname)).to.include(site.document);
        for (const url of links) {
          expect(url.origin).to.equal(ORIGIN);
          if (url.pathname === site.document) {
            const document = await api.request.get(url.pathname).expect(200);
            expect(document.body.paths, url.pathname).to.have.property(site.hasPath);
            continue;
          }
          const res = await api.request.get(`${url.pathname}${url.search}`).responseType('blob').expect(200);
          expect(url.pathname.startsWith(`${site.page}/`), url.pathname).to.equal(true);
          const name = url.pathname.slice(site.page.length + 1);
          expect(res.headers['content-type'], name).to.match(TYPES[name.split('.').at(-1)!]!);
          expect(res.headers['cache-control'], name).to.equal(IMMUTABLE);
          expect(res.headers['x-content-type-options']).to.equal('nosniff');
          if (name === 'swagger-initializer.js') {
            expect(String(res.body)).to.contain('SwaggerUIBundle(').and.contain('validatorUrl: null');
          } else {
            expect(url.searchParams.get('v')).to.equal(DIST_VERSION);
            expect(Buffer.compare(res.body as Buffer, readFileSync(`${DIST}${name}`)), name).to.equal(0);
          }
        }
      });
    }
  }

  it('revalidates: 304 for a matching ETag, and no lasting cache for a file asked for under another version', async () => {
    const page = await api.request.get('/mdw/swagger').expect(200);
    await api.request.get('/mdw/swagger').set('If-None-Match', page.headers.etag!).expect(304);
    const css = await api.request.get('/mdw/swagger/swagger-ui.css?v=0.0.1').expect(200);
    expect(css.headers['cache-control']).to.equal('no-cache');
    await api.request.get('/mdw/swagger/swagger-ui.css').set('If-None-Match', css.headers.etag!).expect(304);
    const head = await api.request.head('/mdw/swagger/swagger-ui-bundle.js').expect(200);
    expect(head.headers['content-type']).to.equal('text/javascript; charset=utf-8');
  });

  it('compresses the large files for a browser that accepts it', async () => {
    const res = await api.request
      .get(`/mdw/swagger/swagger-ui-bundle.js?v=${DIST_VERSION}`)
      .set('Accept-Encoding', 'gzip')
      .expect(200);
    expect(res.headers['content-encoding']).to.equal('gzip');
    expect(res.text).to.equal(readFileSync(`${DIST}swagger-ui-bundle.js`, 'utf8'));
  });

  it("answers any other file beneath a page with the API's own 404, never a file of the package it does not list", async () => {
    for (const file of ['package.json', 'index.js', 'swagger-ui.js', '..%2Fpackage.json', 'oauth2-redirect.html'])
      await api.request.get(`/mdw/swagger/${file}`).expect(404, { error: 'no such route' });
    await api.request.get('/mdw/swagger/a/b').expect(404, { error: 'no such route' });
    const original = await api.request.get('/middleware/swagger/package.json').expect(404);
    expect(original.body).to.have.property('reason');
    await api.request.post('/mdw/swagger').expect(404);
  });
});
