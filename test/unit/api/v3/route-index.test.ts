import { expect } from 'chai';
import { RouteIndex, staticDirectory } from '../../../../src/api/mdw/rest/route-index.ts';

/** An index of named routes under /v3, in the order given; a match names the route, its template and params. */
function indexOf(templates: readonly string[]): RouteIndex<string> {
  return new RouteIndex(templates.map((t) => ({ template: `/v3${t}`, route: t })));
}

describe('RouteIndex (parameterless routes by one lookup, the rest by the routes of their directory)', () => {
  const index = indexOf([
    '/status',
    '/names/auctions',
    '/names/:id',
    // after a template that matches its path: the earlier one is the route
    '/names/count',
    '/names/:id/claims',
    '/micro-blocks/:hash',
    '/micro-blocks/:hash/txs',
  ]);
  const match = (path: string, method = 'GET') => index.match(method, path);

  it('finds a parameterless route, with no params and its template, for GET and HEAD', () => {
    expect(match('/v3/status')).to.deep.equal({ template: '/v3/status', route: '/status', params: {} });
    expect(match('/v3/status', 'HEAD')?.route).to.equal('/status');
    expect(match('/v3/status', 'POST')).to.equal(undefined);
  });

  it('finds routes with parameters, percent-decoded, and nothing for an unknown path', () => {
    expect(match('/v3/names/ab.chain')).to.deep.equal({
      template: '/v3/names/:id',
      route: '/names/:id',
      params: { id: 'ab.chain' },
    });
    expect(match('/v3/names/a%20b')?.params).to.deep.equal({ id: 'a b' });
    expect(match('/v3/names/%E0%A4%A')?.params).to.deep.equal({ id: '%E0%A4%A' });
    expect(match('/v3/names/auctions')?.route).to.equal('/names/auctions');
    expect(match('/v3/nothing')).to.equal(undefined);
    expect(match('/v3')).to.equal(undefined);
    expect(match('/v3/names/')).to.equal(undefined);
  });

  it('takes the first route of the table that matches a path', () => {
    expect(match('/v3/names/count')).to.deep.equal({
      template: '/v3/names/:id',
      route: '/names/:id',
      params: { id: 'count' },
    });
  });

  it('matches in any case and with an ending slash, and never past a template', () => {
    expect(match('/v3/status/')?.route).to.equal('/status');
    expect(match('/v3/micro-blocks/mh_1/txs')).to.deep.equal({
      template: '/v3/micro-blocks/:hash/txs',
      route: '/micro-blocks/:hash/txs',
      params: { hash: 'mh_1' },
    });
    expect(match('/v3/micro-blocks/mh_1')?.route).to.equal('/micro-blocks/:hash');
    expect(match('/V3/Names/ab.chain/Claims/')).to.deep.equal({
      template: '/v3/names/:id/claims',
      route: '/names/:id/claims',
      params: { id: 'ab.chain' },
    });
    expect(match('/v3/micro-blocks/mh_1/txs/more')).to.equal(undefined);
  });

  it("finds a path's route by its method (a HEAD's by its GET) and names the methods of a path", () => {
    const hooks = new RouteIndex([
      { template: '/v3/hooks', route: 'list' },
      { method: 'POST', template: '/v3/hooks', route: 'create' },
      { method: 'DELETE', template: '/v3/hooks/:id', route: 'delete' },
    ]);
    expect(hooks.match('POST', '/v3/hooks/')).to.deep.equal({ template: '/v3/hooks', route: 'create', params: {} });
    expect(hooks.match('HEAD', '/v3/hooks')?.route).to.equal('list');
    expect(hooks.match('PUT', '/v3/hooks')).to.equal(undefined);
    expect(hooks.methods('/v3/hooks')).to.deep.equal(['GET', 'HEAD', 'POST']);
    expect(hooks.match('GET', '/v3/hooks/h1')).to.equal(undefined);
    expect(hooks.methods('/v3/hooks/h1')).to.deep.equal(['DELETE']);
    expect(hooks.methods('/v3/nothing')).to.deep.equal([]);
    const twice = [
      { template: '/v3/a', route: 1 },
      { method: 'GET', template: '/v3/a', route: 2 },
    ];
    expect(() => new RouteIndex(twice)).to.throw('two routes of GET /v3/a');
  });

  it('lists its templates in the order of the table', () => {
    expect(indexOf(['/a/:id', '/a', '/b']).templates).to.deep.equal(['/v3/a/:id', '/v3/a', '/v3/b']);
  });
});

describe('staticDirectory', () => {
  it('is the text before the first parameter up to its last slash, or the whole path, in lower case', () => {
    expect(staticDirectory('/v3/micro-blocks/:hash/txs')).to.equal('/v3/micro-blocks/');
    expect(staticDirectory('/v3/Names/name-:id')).to.equal('/v3/names/');
    expect(staticDirectory('/v3/status')).to.equal('/v3/status/');
  });
});
