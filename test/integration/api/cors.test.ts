/**
 * @module CORS_ORIGINS is the only CORS policy a browser sees, on every kind of answer: cached (from the database and
 * from memory), forwarded to the node (which allows every origin with credentials: its own headers are dropped),
 * errors and preflights; with a restricted policy and with `*` (issue 41, item 1).
 */
import { expect } from 'chai';
import type { Response } from 'supertest';
import { corsHeaders } from '../../../src/devnode/api/http.ts';
import { ResponseCache } from '../../../src/api/http/response-cache.ts';
import { startApi, type ApiUnderTest } from './harness.ts';

/** The methods a page may send: the route table's (DELETE and PATCH of a webhook), HEAD, POST and OPTIONS. */
const METHODS = 'GET,HEAD,POST,DELETE,PATCH,OPTIONS';

const GOOD = 'https://good.example';
const EVIL = 'https://evil.example';

/** A request of one kind of answer; `forwarded` says whether the node must have been asked. */
interface Ask {
  readonly kind: string;
  readonly forwarded: boolean;
  send(api: ApiUnderTest, origin: string): Promise<Response>;
}

const get =
  (path: string) =>
  (api: ApiUnderTest, origin: string): Promise<Response> =>
    api.request.get(path).set('Origin', origin);
const preflight =
  (path: string) =>
  (api: ApiUnderTest, origin: string): Promise<Response> =>
    api.request
      .options(path)
      .set('Origin', origin)
      .set('Access-Control-Request-Method', 'POST')
      .set('Access-Control-Request-Headers', 'content-type');

const ASKS: readonly Ask[] = [
  { kind: 'cached, from the database', forwarded: false, send: get('/v2/key-blocks/height/5') },
  { kind: 'cached, from memory', forwarded: false, send: get('/v2/key-blocks/height/5') },
  { kind: 'forwarded', forwarded: true, send: get('/v2/status') },
  { kind: "forwarded, the node's error", forwarded: true, send: get('/v2/accounts/ak_nobody') },
  { kind: "forwarded, the node's /v3", forwarded: true, send: get('/v3/status') },
  { kind: 'an error of ours (/v2)', forwarded: false, send: get('/v2/key-blocks/height/x') },
  { kind: "an error of ae_mdw's API", forwarded: false, send: get('/mdw/v3/key-blocks/xyz') },
  { kind: 'an error of the original API', forwarded: false, send: get('/middleware/nothing') },
  { kind: 'ae_mdw', forwarded: false, send: get('/mdw/v3/key-blocks?limit=1') },
  { kind: 'a preflight of a forwarded path', forwarded: false, send: preflight('/v2/transactions') },
  { kind: 'a preflight of GraphQL', forwarded: false, send: preflight('/mdw/graphql') },
];

/** POLICIES: CORS_ORIGINS, and what an origin is answered under it. */
const POLICIES = [
  {
    env: GOOD,
    expected: (origin: string) => (origin === GOOD ? { allow: GOOD, credentials: true } : undefined),
  },
  { env: '*', expected: () => ({ allow: '*', credentials: false }) },
  {
    env: `*,${GOOD}`,
    expected: (origin: string) =>
      origin === GOOD ? { allow: GOOD, credentials: true } : { allow: '*', credentials: false },
  },
] as const;

for (const policy of POLICIES) {
  describe(`CORS with CORS_ORIGINS=${policy.env}`, function () {
    this.timeout(30_000);
    let api: ApiUnderTest;
    before(async () => {
      api = await startApi({ env: { CORS_ORIGINS: policy.env }, responseCache: new ResponseCache({ maxBytes: 1e6 }) });
      // the node as it answers: every origin allowed, with credentials (aehttp_cors_middleware's defaults)
      api.node.respond = (req) => ({
        status: req.url.startsWith('/v2/accounts/') ? 404 : 200,
        body: req.method === 'OPTIONS' ? '' : '{"reason":"node"}',
        headers: {
          ...corsHeaders(req.headers.origin, req.headers['access-control-request-headers'] as string),
          vary: 'origin, accept-encoding',
        },
      });
    });
    after(async () => {
      await api?.close();
    });

    it('lets a page of an origin it lets in DELETE a webhook with its X-API-Key', async () => {
      const res = await api.request
        .options('/mdw/v3/webhooks/wh_1')
        .set('Origin', GOOD)
        .set('Access-Control-Request-Method', 'DELETE')
        .set('Access-Control-Request-Headers', 'x-api-key')
        .expect(204);
      expect(res.headers['access-control-allow-origin']).to.equal(policy.expected(GOOD)!.allow);
      expect(res.headers['access-control-allow-methods']!.split(',')).to.include('DELETE');
      expect(res.headers['access-control-allow-headers']!.toLowerCase().split(',')).to.include('x-api-key');
    });

    for (const origin of [GOOD, EVIL]) {
      it(`answers ${origin} by the policy alone on every kind of answer`, async () => {
        const expected = policy.expected(origin);
        for (const ask of ASKS) {
          const seen = api.node.seen.length;
          const res = await ask.send(api, origin);
          const where = `${ask.kind}: ${res.status} ${JSON.stringify(res.headers)}`;
          expect(res.status, where).to.be.below(500);
          expect(api.node.seen.length > seen, where).to.equal(ask.forwarded);
          expect(res.headers['access-control-allow-origin'], where).to.equal(expected?.allow);
          expect(res.headers['access-control-allow-credentials'], where).to.equal(
            expected?.credentials ? 'true' : undefined,
          );
          // the node's other CORS headers are gone too: it allows DELETE, PUT and PATCH
          expect(res.headers['access-control-allow-methods'], where).to.be.oneOf([undefined, METHODS]);
          expect(res.headers['access-control-max-age'], where).to.equal(undefined);
          // an answer that depends on the Origin says so to caches, whoever else it depends on
          expect(res.headers.vary, where).to.match(/\bOrigin\b/i);
          if (ask.forwarded) expect(res.headers.vary, where).to.match(/accept-encoding/i);
        }
      });
    }
  });
}
