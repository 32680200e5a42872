/**
 * @module Issue 39: the node's newer headers on the node's API as this server answers it. Cached answers carry
 * X-Ae-Height, the stored top (a lower bound), memory hits and our errors included; forwarded answers carry the
 * node's own; a node's 503 reaches the client as the server's own 503 with the node's Retry-After (issue 87), the
 * request not retried.
 */
import { expect } from 'chai';
import pino from 'pino';
import prom from 'prom-client';
import request from 'supertest';
import type Koa from 'koa';
import { createApp } from '../../../src/api/app.ts';
import { ResponseCache } from '../../../src/api/http/response-cache.ts';
import { loadConfig, type Config } from '../../../src/config/middleware.ts';
import { createPool, type Pool } from '../../../src/db/connection/pool.ts';
import type { Devnode } from '../../../src/devnode/index.ts';
import { createTestDatabase } from '../../support/postgres.ts';
import { populateToTop } from '../../support/populate.ts';
import { startGeneratedDevnode } from '../../support/devnode.ts';

const silent = pino({ level: 'silent' });
const STORED = 8;

describe('issue 39: X-Ae-Height and Retry-After on the node’s API', function () {
  this.timeout(60_000);
  let devnode: Devnode;
  let db: { url: string; drop(): Promise<void> };
  let cfg: Config;
  let pool: Pool;
  let app: Koa;

  before(async () => {
    devnode = await startGeneratedDevnode({ generations: STORED, seed: 'node-headers' });
    db = await createTestDatabase({ migrated: 'mdw' });
    cfg = loadConfig({
      NODE_URL: devnode.externalUrl,
      DATABASE_URL: db.url,
      DATABASE_SCHEMA: 'mdw',
      POLL_INTERVAL_MS: '50',
      FORK_WINDOW: '2',
    });
    await populateToTop(cfg);
    // the node moves on; nothing stores its new heights
    await devnode.mineKeyBlock();
    await devnode.mineKeyBlock();
    pool = createPool({ databaseUrl: db.url, schema: 'mdw', max: 4 }, silent);
    app = createApp({
      cfg,
      log: silent,
      pool,
      registry: new prom.Registry(),
      version: 't',
      responseCache: new ResponseCache({ maxBytes: 1 << 20 }),
    });
  });
  after(async () => {
    await pool?.end();
    await devnode?.stop();
    await db?.drop();
  });

  it('stamps cached answers with the stored top, in /v2 and /v3, memory hits and our own errors included', async () => {
    for (const path of ['/v2/key-blocks/height/2', '/v3/key-blocks/height/2', '/v2/generations/current']) {
      const res = await request(app.callback()).get(path);
      expect([res.status, res.headers['x-ae-height']], path).to.deep.equal([200, String(STORED)]);
    }
    // answered from memory the second time (a final block), still stamped
    const again = await request(app.callback()).get('/v2/key-blocks/height/2');
    expect(again.headers['cache-control']).to.match(/immutable/);
    expect(again.headers['x-ae-height']).to.equal(String(STORED));
    const refused = await request(app.callback()).get('/v2/key-blocks/height/x');
    expect([refused.status, refused.headers['x-ae-height']]).to.deep.equal([400, String(STORED)]);
    // ae_mdw's API and ours are not the node's: no header there
    expect((await request(app.callback()).get('/mdw/v3/status')).headers).to.not.have.property('x-ae-height');
    expect((await request(app.callback()).get('/middleware/status')).headers).to.not.have.property('x-ae-height');
  });

  it('passes the node’s own X-Ae-Height on forwarded answers, and lets browsers read both headers', async () => {
    const node = String(devnode.height());
    expect(node).to.not.equal(String(STORED));
    for (const path of ['/v2/key-blocks/height/10', '/v2/status', `/v2/accounts/${devnode.accounts[0]!.publicKey}`]) {
      const res = await request(app.callback()).get(path);
      expect([res.status, res.headers['x-ae-height']], path).to.deep.equal([200, node]);
    }
    const cors = await request(app.callback()).get('/v2/key-blocks/height/2').set('Origin', 'https://app.example');
    expect(cors.headers['access-control-expose-headers']).to.include('Retry-After').and.include('X-Ae-Height');
  });

  it('answers a node’s 503 with its own and the node’s Retry-After, asking the node once', async () => {
    const before = devnode.overloadStats().refused;
    devnode.overload(1, '4');
    const res = await request(app.callback()).get('/v2/status');
    expect(res.status).to.equal(503);
    expect(res.headers['retry-after']).to.equal('4');
    expect(res.body).to.deep.equal({ reason: 'the node is busy: retry later', code: 'MDW_NODE_BUSY' });
    expect(devnode.overloadStats().refused).to.equal(before + 1);
    expect((await request(app.callback()).get('/v2/status')).status).to.equal(200);
  });
});
