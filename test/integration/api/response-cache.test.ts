import { zstdDecompressSync } from 'node:zlib';
import { expect } from 'chai';
import { startCacheInvalidation } from '../../../src/api/http/cache-invalidation.ts';
import { ResponseCache } from '../../../src/api/http/response-cache.ts';
import { NotificationListener } from '../../../src/events/listener.ts';
import { encodeNotification, notifyChannel, type ChainNotification } from '../../../src/db/connection/notification.ts';
import type { Role } from '../../../src/base/roles.ts';
import { TOP } from './fixture.ts';
import { silentLog, startApi, type ApiUnderTest } from './harness.ts';

/** Heights up to TOP - FORK_WINDOW (30 by default) are final. */
const FINAL = 10;
const RECENT = TOP - 5;

describe('response cache of final /v2 answers (real PostgreSQL, LISTEN/NOTIFY)', () => {
  let api: ApiUnderTest;
  let cache: ResponseCache;
  let invalidation: Role;
  let listener: NotificationListener;
  beforeEach(async () => {
    cache = new ResponseCache({ maxBytes: 1024 * 1024 });
    api = await startApi({ responseCache: cache, env: { CORS_ORIGINS: 'https://explorer.example' } });
    listener = new NotificationListener({ pool: api.pool, channel: notifyChannel('public'), log: silentLog });
    await listener.start();
    invalidation = startCacheInvalidation({ listener, log: silentLog, cache });
  });
  afterEach(async () => {
    await invalidation.stop();
    await listener.stop();
    await api.close();
  });

  /** rewrite changes a stored key block the way a rollback and re-insert would, without telling anyone. */
  const rewrite = (height: number, info: string): Promise<unknown> =>
    api.pool.query(`UPDATE key_blocks SET data = jsonb_set(data, '{info}', to_jsonb($2::text)) WHERE height = $1`, [
      height,
      info,
    ]);
  const notify = (n: ChainNotification): Promise<unknown> =>
    api.pool.query('SELECT pg_notify($1, $2)', [notifyChannel('public'), encodeNotification(n)]);
  const info = async (path: string): Promise<string> =>
    (JSON.parse((await api.request.get(path).expect(200)).text) as { info: string }).info;
  /** eventually polls until `read` returns `want` (a notification arrives asynchronously). */
  const eventually = async (read: () => Promise<string>, want: string): Promise<void> => {
    for (let i = 0; i < 100; i++) {
      if ((await read()) === want) return;
      await new Promise((r) => setTimeout(r, 20));
    }
    expect(await read()).to.equal(want);
  };

  it('refuses a NUL or invalid UTF-8 in the query string of a cached answer with 400, as it does uncached (issue 27.6)', async () => {
    await api.request.get(`/v2/key-blocks/height/${FINAL}`).expect(200);
    for (const query of ['?x=%00', '?x=%FF', '?x=a%00b&y=1']) {
      const res = await api.request.get(`/v2/key-blocks/height/${FINAL}${query}`).expect(400);
      expect(res.body.code, query).to.equal('MDW_API_BAD_REQUEST');
    }
    await api.request.get(`/v2/key-blocks/height/${FINAL}?x=1`).expect(200);
  });

  it('answers a final block again from memory with the identical body and headers', async () => {
    const first = await api.request.get(`/v2/key-blocks/height/${FINAL}`).expect(200);
    await rewrite(FINAL, 'cb_changed'); // not announced: only a memory answer still shows the old row
    const second = await api.request.get(`/v2/key-blocks/height/${FINAL}`).expect(200);
    expect(second.text).to.equal(first.text);
    for (const header of ['etag', 'cache-control', 'content-type'])
      expect(second.headers[header]).to.equal(first.headers[header]);
    await api.request
      .get(`/v2/key-blocks/height/${FINAL}`)
      .set('If-None-Match', first.headers.etag as string)
      .expect(304);
    expect(cache.stats()).to.include({ entries: 1, misses: 1, hits: 2 });
    const metrics = await api.registry.metrics();
    expect(metrics).to.match(/mdw_api_response_cache_events_total\{event="hit"\} 2/);
    expect(metrics).to.match(
      /mdw_api_http_requests_total\{method="GET",route="\/v2\/key-blocks\/height\/:height",status="200"\} 2/,
    );
  });

  it('compresses a memory answer over 1 KiB when the client accepts it, as the database answer was', async () => {
    const path = `/v2/micro-blocks/hash/${api.fixture.microHash(4)}/transactions`;
    const fromDatabase = await api.request.get(path).set('Accept-Encoding', 'gzip').expect(200);
    expect(fromDatabase.text.length).to.be.greaterThan(1024);
    for (const encoding of ['gzip', '']) {
      const fromMemory = await api.request.get(path).set('Accept-Encoding', encoding).expect(200);
      expect(fromMemory.headers['content-encoding']).to.equal(encoding === '' ? undefined : encoding);
      expect(fromMemory.text).to.equal(fromDatabase.text);
    }
    expect(fromDatabase.headers['content-encoding']).to.equal('gzip');
    expect(cache.stats()).to.include({ hits: 2, misses: 1 });
  });

  it('a memory answer is encoded as koa-compress encodes the database answer, for every Accept-Encoding', async () => {
    const path = `/v2/micro-blocks/hash/${api.fixture.microHash(4)}/transactions`;
    /** raw reads the body as sent: supertest decodes gzip, deflate and br itself, so zstd is decoded here. */
    const raw = async (acceptEncoding: string | undefined, method: 'get' | 'head' = 'get') => {
      const req = api.request[method](path);
      if (acceptEncoding !== undefined) req.set('Accept-Encoding', acceptEncoding);
      const res = await req
        .buffer(true)
        .parse((stream, done) => {
          const chunks: Buffer[] = [];
          stream.on('data', (c: Buffer) => chunks.push(c));
          stream.on('end', () => done(null, Buffer.concat(chunks)));
        })
        .expect(200);
      const body = res.body as Buffer;
      const encoding = res.headers['content-encoding'] as string | undefined;
      return {
        encoding,
        text: (encoding === 'zstd' ? zstdDecompressSync(body) : body).toString(),
        vary: res.headers.vary as string,
      };
    };
    const identity = (await raw(undefined)).text;
    expect(identity.length).to.be.greaterThan(1024);
    const accepts = [
      undefined,
      '',
      'gzip',
      'gzip, deflate, br',
      'gzip, deflate, br, zstd',
      'deflate',
      'br',
      'identity',
      'x-unknown',
      'GZIP',
      'br;q=0.5, gzip',
      'gzip;q=0',
      '*',
      'deflate, gzip;q=0.9',
    ];
    for (const accept of accepts) {
      cache.clear();
      const fromDatabase = await raw(accept);
      const fromMemory = await raw(accept);
      const again = await raw(accept);
      expect(fromMemory.encoding, `Accept-Encoding ${accept}`).to.equal(fromDatabase.encoding);
      expect(fromMemory.text, `Accept-Encoding ${accept}`).to.equal(identity);
      expect(again.text).to.equal(identity);
      expect(fromMemory.vary).to.equal(fromDatabase.vary);
    }
    const head = await raw('gzip', 'head');
    expect(head.encoding).to.equal(undefined);
    expect(cache.stats().hits).to.equal(2 * accepts.length + 1);
  });

  it('a memory answer carries the CORS and Vary headers of the database answer, a 304 too', async () => {
    const path = `/v2/generations/height/${FINAL}`;
    const origin = 'https://explorer.example';
    const fromDatabase = await api.request.get(path).set('Origin', origin).expect(200);
    const fromMemory = await api.request.get(path).set('Origin', origin).expect(200);
    for (const header of [
      'access-control-allow-origin',
      'access-control-allow-credentials',
      'access-control-expose-headers',
      'vary',
      'etag',
      'cache-control',
      'content-type',
    ]) {
      expect(fromMemory.headers[header], header).to.equal(fromDatabase.headers[header]);
    }
    expect(fromMemory.headers['access-control-allow-origin']).to.equal(origin);
    expect(fromMemory.headers.vary).to.equal('Origin, Accept-Encoding');
    const notModified = await api.request
      .get(path)
      .set('Origin', origin)
      .set('If-None-Match', fromDatabase.headers.etag as string)
      .expect(304);
    expect(notModified.headers.vary).to.equal('Origin, Accept-Encoding');
    expect(notModified.headers['access-control-allow-origin']).to.equal(origin);
    expect(cache.stats()).to.include({ hits: 2, misses: 1 });
  });

  it('a rollback notification drops the heights from there up; the next answer is the new row', async () => {
    const below = FINAL - 1;
    const oldAbove = await info(`/v2/key-blocks/height/${FINAL}`);
    const oldBelow = await info(`/v2/key-blocks/height/${below}`);
    await info(`/v2/generations/height/${FINAL}`);
    await rewrite(FINAL, 'cb_forked');
    await rewrite(below, 'cb_unannounced');
    expect(await info(`/v2/key-blocks/height/${FINAL}`)).to.equal(oldAbove);
    await notify({ from: FINAL, to: TOP, rollbackFrom: FINAL });
    await eventually(() => info(`/v2/key-blocks/height/${FINAL}`), 'cb_forked');
    expect(
      (
        JSON.parse((await api.request.get(`/v2/generations/height/${FINAL}`).expect(200)).text) as {
          key_block: { info: string };
        }
      ).key_block.info,
    ).to.equal('cb_forked');
    // Below the rollback nothing was invalidated: the memory answer stands.
    expect(await info(`/v2/key-blocks/height/${below}`)).to.equal(oldBelow);
  });

  it('a notification writing from below a cached height drops it too', async () => {
    await info(`/v2/key-blocks/height/${FINAL}`);
    await rewrite(FINAL, 'cb_rewritten');
    await notify({ from: FINAL - 2, to: TOP });
    await eventually(() => info(`/v2/key-blocks/height/${FINAL}`), 'cb_rewritten');
  });

  it('never caches answers within the fork window or about "current"', async () => {
    await info(`/v2/key-blocks/height/${RECENT}`);
    await api.request.get('/v2/generations/current').expect(200);
    await api.request.get('/v2/key-blocks/current/height').expect(200);
    await rewrite(RECENT, 'cb_recent');
    await rewrite(TOP, 'cb_top');
    expect(await info(`/v2/key-blocks/height/${RECENT}`)).to.equal('cb_recent');
    const current = JSON.parse((await api.request.get('/v2/generations/current').expect(200)).text) as {
      key_block: { info: string };
    };
    expect(current.key_block.info).to.equal('cb_top');
    expect(cache.stats().entries).to.equal(0);
  });

  it('clears everything once the LISTEN connection comes back after being lost', async () => {
    await info(`/v2/key-blocks/height/${FINAL}`);
    await rewrite(FINAL, 'cb_missed');
    await api.pool.query(
      `SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE query LIKE 'LISTEN%' AND pid <> pg_backend_pid()`,
    );
    await eventually(async () => String(cache.stats().entries), '0');
    expect(await info(`/v2/key-blocks/height/${FINAL}`)).to.equal('cb_missed');
  });
});

describe('response cache bounds', () => {
  it('holds no more bytes than configured while serving many final blocks', async () => {
    const cache = new ResponseCache({ maxBytes: 4096 });
    const api = await startApi({ responseCache: cache });
    try {
      for (let h = 0; h <= FINAL; h++) {
        await api.request.get(`/v2/key-blocks/height/${h}`).expect(200);
        expect(cache.stats().bytes).to.be.at.most(4096);
      }
      const { entries, evictions } = cache.stats();
      expect(entries).to.be.greaterThan(0);
      expect(evictions).to.equal(FINAL + 1 - entries);
    } finally {
      await api.close();
    }
  });
});
