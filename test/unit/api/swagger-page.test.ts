import { expect } from 'chai';
import { INITIALIZER_FILE, SWAGGER_SITES, swaggerPage, type SwaggerSite } from '../../../src/api/http/swagger-page.ts';

const TAGS = { dist: '5.0.0', initializer: 'abc' };

/** links lists what a browser resolves from the page at `pageUrl`: every href, src and the document's data-url. */
function links(html: string, pageUrl: string): string[] {
  return [...html.matchAll(/(?:href|src|data-url)="([^"]*)"/g)].map((m) => new URL(m[1]!, pageUrl).href);
}

describe('swaggerPage(site, trailingSlash, tags)', () => {
  const mdw = SWAGGER_SITES.find((s) => s.path === '/mdw/swagger')!;

  it('links the same files and document whether asked for with a trailing slash or without', () => {
    const base = 'https://gateway.example/mdw/swagger';
    const without = links(swaggerPage(mdw, false, TAGS), base);
    expect(links(swaggerPage(mdw, true, TAGS), `${base}/`)).to.deep.equal(without);
    expect(without).to.include('https://gateway.example/mdw/v3/api');
    expect(without).to.include('https://gateway.example/mdw/swagger/swagger-ui-bundle.js?v=5.0.0');
    expect(without).to.include(`https://gateway.example/mdw/swagger/${INITIALIZER_FILE}?v=abc`);
  });

  it('keeps every link relative, so a proxy may serve the page under a prefix of its own', () => {
    for (const site of SWAGGER_SITES) {
      const page = links(swaggerPage(site, false, TAGS), `https://proxy.example/chain${site.path}`);
      expect(
        page.every((url) => url.startsWith('https://proxy.example/chain/')),
        site.path,
      ).to.equal(true);
    }
    const middleware = SWAGGER_SITES.find((s) => s.path === '/middleware/swagger')!;
    expect(links(swaggerPage(middleware, true, TAGS), 'http://h/middleware/swagger/')).to.include(
      'http://h/middleware/api',
    );
  });

  it('escapes what it writes into the HTML', () => {
    const site: SwaggerSite = { path: '/x/swagger', document: 'a"b', title: '<b>&' };
    const html = swaggerPage(site, false, TAGS);
    expect(html).to.contain('<title>&#60;b&#62;&#38;</title>');
    expect(html).to.contain('data-url="a&#34;b"');
  });
});
