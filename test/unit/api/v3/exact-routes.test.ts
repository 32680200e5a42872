import Router from '@koa/router';
import { expect } from 'chai';
import Koa from 'koa';
import request from 'supertest';
import { exactRoutes } from '../../../../src/api/mdw/rest/exact-routes.ts';

/** An app with the router behind exactRoutes; answers name the handler that ran, the params and the matched route. */
function appWith(register: (router: Router) => void): Koa {
  const router = new Router({ prefix: '/v3' });
  register(router);
  const app = new Koa();
  app.use(async (ctx, next) => {
    await next();
    ctx.set('X-Route', String((ctx as { _matchedRoute?: unknown })._matchedRoute));
  });
  app.use(exactRoutes(router));
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

describe('exactRoutes (parameterless routes by one lookup, the rest by the router)', () => {
  const app = appWith((r) => {
    r.get('/status', answer('status'));
    r.get('/names/auctions', answer('auctions'));
    r.get('/names/:id', answer('name'));
    r.post('/names', answer('post names'));
    // registered after a pattern that matches its path: the router runs the pattern's handler
    r.get('/names/count', answer('count'));
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
});
