import { expect } from 'chai';
import prom from 'prom-client';
import supertest from 'supertest';
import { createApp } from '../../../src/api/app.ts';
import { loadConfig } from '../../../src/config/middleware.ts';
import { createPool } from '../../../src/db/connection/pool.ts';
import { deadEnd } from '../../support/dead-end.ts';
import { ALICE, CAROL } from './fixture.ts';
import { silentLog, startApi, type ApiUnderTest } from './harness.ts';

describe('operations: health, metrics, CORS, compression', () => {
  let api: ApiUnderTest;
  before(async () => {
    api = await startApi({ env: { CORS_ORIGINS: 'https://explorer.example,https://wallet.example' } });
    // the node is one height ahead of the database (the sync gauges read it as the status does)
    const echo = api.node.respond;
    api.node.respond = (req) =>
      req.url === '/v2/key-blocks/current/height' ? { status: 200, body: JSON.stringify({ height: 61 }) } : echo(req);
  });
  after(async () => {
    await api.close();
  });

  it('is alive and ready while the database answers', async () => {
    await api.request.get('/healthz').expect(200, { alive: true });
    await api.request.get('/readyz').expect(200, { ready: true });
    for (const path of ['/healthz', '/readyz', '/metrics', '/middleware/status']) {
      const res = await api.request.get(path);
      expect(res.headers['cache-control'], path).to.equal('no-store');
    }
  });

  it('exports request counts by route template, durations, cache hits vs forwards, pool and sync gauges', async () => {
    await api.request.get('/v2/key-blocks/height/3').expect(200);
    await api.request.get(`/middleware/transactions/account/${ALICE}/count`).expect(200);
    await api.request.get('/v2/key-blocks/height/999').expect(200);

    const text = (await api.request.get('/metrics').expect(200)).text;
    expect(text).to.match(
      /mdw_api_http_requests_total\{method="GET",route="\/v2\/key-blocks\/height\/:height",status="200"\} 2/,
    );
    expect(text).to.match(
      /mdw_api_http_requests_total\{method="GET",route="\/middleware\/transactions\/account\/:account\/count",status="200"\} 1/,
    );
    expect(text).to.match(
      /mdw_api_http_request_duration_seconds_bucket\{le="0.1",method="GET",route="\/v2\/key-blocks\/height\/:height"\} 2/,
    );
    expect(text).to.match(/mdw_api_cache_answers_total\{result="hit"\} 1/);
    expect(text).to.match(/mdw_api_cache_answers_total\{result="forward"\} 1/);
    expect(text).to.match(
      /mdw_outbound_request_duration_seconds_count\{target="node",operation="forward",outcome="2xx"\} 1/,
    );
    expect(text).to.match(/mdw_api_db_pool_connections\{state="total"\} [1-9]/);
    expect(text).to.match(/mdw_api_sync_height\{kind="database"\} 60/);
    // the node's height is read once per 2 s; on a loaded machine an earlier reading may have timed out
    let gauges = text;
    for (let i = 0; i < 30 && !/kind="node"/.test(gauges); i++) {
      await new Promise((r) => setTimeout(r, 200));
      gauges = (await api.request.get('/metrics').expect(200)).text;
    }
    expect(gauges).to.match(/mdw_api_sync_height\{kind="node"\} 61/);
    expect(gauges).to.match(/mdw_api_sync_height\{kind="lag"\} 1/);
  });

  it('echoes an allowed Origin with credentials, and not a foreign one', async () => {
    const ok = await api.request.get('/middleware/status').set('Origin', 'https://wallet.example');
    expect(ok.headers['access-control-allow-origin']).to.equal('https://wallet.example');
    expect(ok.headers['access-control-allow-credentials']).to.equal('true');
    expect(ok.headers['access-control-expose-headers']).to.contain('X-Next-Cursor');
    const foreign = await api.request.get('/middleware/status').set('Origin', 'https://evil.example');
    expect(foreign.headers['access-control-allow-origin']).to.equal(undefined);
    const preflight = await api.request
      .options('/middleware/contracts/verify')
      .set('Origin', 'https://explorer.example')
      .set('Access-Control-Request-Method', 'POST')
      .expect(204);
    expect(preflight.headers['access-control-allow-methods']).to.contain('POST');
  });

  it('compresses large answers when the client accepts it', async () => {
    const res = await api.request
      .get(`/middleware/transactions/account/${CAROL}`)
      .set('Accept-Encoding', 'gzip')
      .expect(200);
    expect(res.headers['content-encoding']).to.equal('gzip');
    expect(res.body).to.be.an('array').with.length.above(10);
    const plain = await api.request.get('/middleware/status').set('Accept-Encoding', 'identity');
    expect(plain.headers['content-encoding']).to.equal(undefined);
  });

  it('answers HEAD for GET routes', async () => {
    await api.request.head('/v2/key-blocks/height/3').expect(200);
  });
});

describe('operations with the database down', () => {
  it('stays alive, is not ready, and answers 503 {"reason"} instead of crashing', async () => {
    const [database, node] = [await deadEnd(), await deadEnd()];
    const url = `postgres://postgres@127.0.0.1:${database.port}/none`;
    const cfg = loadConfig({ DATABASE_URL: url, NODE_URL: node.url });
    const pool = createPool({ databaseUrl: url, schema: 'public', max: 2 }, silentLog);
    const request = supertest(
      createApp({ cfg, log: silentLog, pool, registry: new prom.Registry(), version: 't' }).callback(),
    );
    try {
      await request.get('/healthz').expect(200);
      await request.get('/readyz').expect(503, { ready: false, reason: 'database unreachable' });
      const res = await request.get('/middleware/status').expect(503);
      expect(res.body).to.deep.equal({ reason: 'database unavailable', code: 'MDW_DB_UNAVAILABLE' });
      await request.get('/metrics').expect(200);
    } finally {
      await pool.end();
      for (const peer of [database, node]) await peer.close();
    }
  });
});
