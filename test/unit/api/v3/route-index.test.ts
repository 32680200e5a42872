import Router from '@koa/router';
import { expect } from 'chai';
import Koa from 'koa';
import request from 'supertest';
import { indexedRoutes, routeTemplate, staticDirectory } from '../../../../src/api/mdw/rest/route-index.ts';

/** An app with the router behind indexedRoutes; answers name the handler that ran, the params and the matched route. */
function appWith(register: (router: Router) => void): Koa {
  const router = new Router({ prefix: '/v3' });
  register(router);
  const app = new Koa();
  app.use(async (ctx, next) => {
    await next();
    ctx.set('X-Route', String((ctx as { _matchedRoute?: unknown })._matchedRoute));
  });
  app.use(indexedRoutes(router));
  app.use((ctx) => {
    ctx.status = 404;
    ctx.body = 'none';
  });
  return app;
}

const answer =
  (name: string): Koa.Middleware =>
  (ctx) => {
    ctx.body = { name, params: ctx.params };
  };

describe('indexedRoutes (parameterless routes by one lookup, the rest by the routes of their directory)', () => {
  const app = appWith((r) => {
    r.get('/status', answer('status'));
    r.get('/names/auctions', answer('auctions'));
    r.get('/names/:id', answer('name'));
    r.post('/names', answer('post names'));
    // registered after a pattern that matches its path: the router runs the pattern's handler
    r.get('/names/count', answer('count'));
    r.get('/names/:id/claims', answer('claims'));
    r.get('/micro-blocks/:hash', answer('micro block'));
    r.get('/micro-blocks/:hash/txs', answer('micro block txs'));
    r.get(/^\/v3\/pattern\/(\d+)$/, answer('pattern'));
  });
  const server = app.callback();

  it('answers a parameterless route with its handler, no params and its route as the matched route', async () => {
    const res = await request(server).get('/v3/status');
    expect(res.body).to.deep.equal({ name: 'status', params: {} });
    expect(res.headers['x-route']).to.equal('/v3/status');
    const head = await request(server).head('/v3/status');
    expect([head.status, head.headers['x-route']]).to.deep.equal([200, '/v3/status']);
  });

  it('leaves routes with parameters, other methods and anything unknown to the router and what follows it', async () => {
    const name = await request(server).get('/v3/names/ab.chain');
    expect(name.body).to.deep.equal({ name: 'name', params: { id: 'ab.chain' } });
    expect(name.headers['x-route']).to.equal('/v3/names/:id');
    expect((await request(server).post('/v3/names')).body.name).to.equal('post names');
    expect((await request(server).get('/v3/names/auctions')).body.name).to.equal('auctions');
    expect((await request(server).get('/v3/nothing')).text).to.equal('none');
    // a trailing slash is the router's to match, as before
    expect((await request(server).get('/v3/status/')).body.name).to.equal('status');
  });

  it('runs what the router would run for a path an earlier pattern matches', async () => {
    const res = await request(server).get('/v3/names/count');
    expect(res.body).to.deep.equal({ name: 'name', params: { id: 'count' } });
  });

  it('runs the route the whole router would for a path with parameters, in any case, and the patterns everywhere', async () => {
    const txs = await request(server).get('/v3/micro-blocks/mh_1/txs');
    expect([txs.body, txs.headers['x-route']]).to.deep.equal([
      { name: 'micro block txs', params: { hash: 'mh_1' } },
      '/v3/micro-blocks/:hash/txs',
    ]);
    expect((await request(server).get('/v3/micro-blocks/mh_1')).body.name).to.equal('micro block');
    // the router's patterns ignore case and an ending slash: so does the index
    expect((await request(server).get('/V3/Names/ab.chain/Claims/')).body).to.deep.equal({
      name: 'claims',
      params: { id: 'ab.chain' },
    });
    expect((await request(server).get('/v3/pattern/12')).body.name).to.equal('pattern');
    expect((await request(server).get('/v3/micro-blocks/mh_1/txs/more')).text).to.equal('none');
    expect((await request(server).get('/v3')).text).to.equal('none');
  });

  it('runs a router middleware with the routes after it', async () => {
    const router = new Router({ prefix: '/v3' });
    router.use('/names', async (ctx, next) => {
      ctx.set('X-Names', 'yes');
      await next();
    });
    router.get('/names/:id', answer('name'));
    const res = await request(new Koa().use(indexedRoutes(router)).callback()).get('/v3/names/a.chain');
    expect([res.body.name, res.headers['x-names']]).to.deep.equal(['name', 'yes']);
  });
});

describe('staticDirectory', () => {
  it('is the text before the first parameter or pattern up to its last slash, or the whole path, in lower case', () => {
    expect(staticDirectory({ path: '/v3/micro-blocks/:hash/txs' })).to.equal('/v3/micro-blocks/');
    expect(staticDirectory({ path: '/v3/Names/name-:id' })).to.equal('/v3/names/');
    expect(staticDirectory({ path: '/v3/status' })).to.equal('/v3/status/');
    expect(staticDirectory({ path: '/v3/{*rest}' })).to.equal('/v3/');
    expect(staticDirectory({ path: /^\/v3/ })).to.equal('');
  });
});

describe('routeTemplate (the route of a request refused before it ran, issue 59)', () => {
  it('is the route the router runs for the request, as its matched route says, without running it', async () => {
    const register = (r: Router): void => {
      r.get('/status', answer('status'));
      r.get('/names/:id', answer('name'));
      r.get('/names/count', answer('count'));
      r.get('/names/:id/claims', answer('claims'));
      r.post('/names', answer('post names'));
    };
    const app = appWith(register);
    const router = new Router({ prefix: '/v3' });
    register(router);
    const templateOf = routeTemplate(router);
    for (const [method, path] of [
      ['GET', '/v3/status'],
      ['GET', '/v3/names/a.chain'],
      ['GET', '/v3/names/count'],
      ['GET', '/v3/names/a.chain/claims'],
      ['POST', '/v3/names'],
    ] as const) {
      const ran = await request(app.callback())[method === 'GET' ? 'get' : 'post'](path);
      expect(templateOf(method, path), `${method} ${path}`).to.equal(ran.headers['x-route']);
    }
    expect(templateOf('GET', '/v3/nothing')).to.equal(undefined);
    expect(templateOf('DELETE', '/v3/status')).to.equal(undefined);
  });
});
