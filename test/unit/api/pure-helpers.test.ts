import { expect } from 'chai';
import { isFinal } from '../../../src/api/http/middleware/cache-headers.ts';
import type Koa from 'koa';
import { corsMethods, corsOrigin } from '../../../src/api/http/middleware/cors-policy.ts';
import { v3Methods } from '../../../src/api/mdw/rest/rest-routes.ts';
import { isListedOrigin } from '../../../src/config/origins.ts';
import { textProblem } from '../../../src/api/http/middleware/valid-text.ts';
import {
  hopByHopHeaders,
  isInternalPath,
  normalisedPath,
  withoutApiKey,
  withoutNodeCors,
} from '../../../src/api/http/proxy.ts';
import { feeShare } from '../../../src/api/legacy/routes/chain.ts';
import { generationsReport } from '../../../src/shapes/middleware.ts';
import { signedTx } from '../../../src/chain/signed-tx.ts';

describe('isInternalPath', () => {
  it('marks debug builders and key block submission, nothing else', () => {
    expect(isInternalPath('POST', '/v2/debug/oracles/register')).to.equal(true);
    expect(isInternalPath('GET', '/v2/debug/accounts/beneficiary')).to.equal(true);
    expect(isInternalPath('POST', '/v2/key-blocks')).to.equal(true);
    expect(isInternalPath('GET', '/v2/key-blocks/pending')).to.equal(false);
    expect(isInternalPath('POST', '/v2/transactions')).to.equal(false);
    expect(isInternalPath('GET', '/v2/debugger')).to.equal(false);
  });
  it('decides on the normalised path', () => {
    for (const p of ['/v2//debug/x', '/v2/%64ebug/x', '/v2/Debug/x', '/v2\\debug/x', '/v2/a/../debug'])
      expect(isInternalPath('GET', p), p).to.equal(true);
    expect(isInternalPath('post', '/v2/key-blocks//')).to.equal(true);
  });
  it("marks the same paths in the node's /v3", () => {
    expect(isInternalPath('POST', '/v3/debug/oracles/register')).to.equal(true);
    expect(isInternalPath('GET', '/V3//%64ebug/peers')).to.equal(true);
    expect(isInternalPath('POST', '/v3/key-blocks')).to.equal(true);
    expect(isInternalPath('GET', '/v3/key-blocks/pending')).to.equal(false);
    expect(isInternalPath('POST', '/v3/transactions')).to.equal(false);
    expect(isInternalPath('GET', '/v30/debug/peers')).to.equal(false);
    expect(isInternalPath('GET', '/mdw/v3/debug')).to.equal(false);
  });
});

describe('normalisedPath', () => {
  it('decodes once, lower-cases, drops empty and dot segments and applies ..', () => {
    expect(normalisedPath('/V2//a/./b/../%64ebug/')).to.equal('/v2/a/debug');
    expect(normalisedPath('/v2/%2564')).to.equal('/v2/%64');
    expect(normalisedPath('/../../x')).to.equal('/x');
    expect(normalisedPath('/v2/%zz')).to.equal('/v2/%zz');
  });
});

describe('hopByHopHeaders', () => {
  it('lists the fixed hop-by-hop headers and those named in Connection, lower case', () => {
    const h = hopByHopHeaders({ connection: 'Close, X-A ,x-b,' });
    expect(h).to.include.members(['connection', 'keep-alive', 'te', 'upgrade', 'x-a', 'x-b']);
    expect(hopByHopHeaders({})).to.not.include('');
  });
});

describe('withoutApiKey', () => {
  it('drops every apikey parameter, however encoded, and keeps the rest of the query as sent', () => {
    expect(withoutApiKey('/v2/status')).to.equal('/v2/status');
    expect(withoutApiKey('/v2/status?apikey=mdw_x')).to.equal('/v2/status');
    expect(withoutApiKey('/v2/a?b=1&apikey=x&c=%20+2')).to.equal('/v2/a?b=1&c=%20+2');
    expect(withoutApiKey('/v2/a?api%6Bey=x&apikey=y&int-as-string')).to.equal('/v2/a?int-as-string');
    expect(withoutApiKey('/v2/a?apikeys=1&apikey')).to.equal('/v2/a?apikeys=1');
  });
});

describe('withoutNodeCors', () => {
  it("drops every CORS header of the node's and adds its Vary to ours", () => {
    const headers = {
      'access-control-allow-origin': 'https://evil.example',
      'access-control-allow-credentials': 'true',
      'access-control-max-age': '1800',
      'content-type': 'application/json',
      vary: 'origin, accept-encoding',
    };
    withoutNodeCors(headers, 'Origin');
    expect(headers).to.deep.equal({ 'content-type': 'application/json', vary: 'Origin, accept-encoding' });
    const none: Record<string, string> = { 'content-type': 'text/plain' };
    withoutNodeCors(none, 'Origin');
    expect(none).to.deep.equal({ 'content-type': 'text/plain' });
  });
});

describe('textProblem', () => {
  it('finds NUL and invalid UTF-8 after percent-decoding, and passes everything else', () => {
    expect(textProblem('/a/%00')).to.match(/NUL/);
    expect(textProblem('/a/%FF')).to.match(/UTF-8/);
    expect(textProblem('/a/%C0%80')).to.match(/UTF-8/);
    expect(textProblem('/a/%ED%A0%80')).to.match(/UTF-8/);
    expect(textProblem('/a/\u00ff')).to.match(/UTF-8/);
    expect(textProblem('/a/%C3%A9/%F0%9F%98%80')).to.equal(undefined);
    expect(textProblem('q=100%&r=%zz')).to.equal(undefined);
    // plain ASCII (the fast path) and its edges: a raw NUL or a raw byte above 0x7f is not plain
    expect(textProblem('/v3/status')).to.equal(undefined);
    expect(textProblem('a=1&b=~x y')).to.equal(undefined);
    expect(textProblem('/a/\u0000')).to.match(/NUL/);
    expect(textProblem('/a/\u0080')).to.match(/UTF-8/);
  });
});

describe('isFinal', () => {
  it('is true only for blocks at least the fork window below the top', () => {
    expect(isFinal(70, 100, 30)).to.equal(true);
    expect(isFinal(71, 100, 30)).to.equal(false);
    expect(isFinal(0, undefined, 30)).to.equal(false);
  });
});

describe('feeShare', () => {
  it('is 0.6 × previous + 0.4 × own, exact beyond 2^64', () => {
    expect(feeShare('10', '10')).to.equal('10');
    expect(feeShare('1', '0')).to.equal('0.6');
    expect(feeShare('100000000000000000000000', '5')).to.equal('60000000000000000000002');
  });
});

describe('shapes', () => {
  const row = {
    hash: 'th_1',
    height: 3,
    microBlockHash: 'mh_1',
    microIndex: 0,
    txIndex: 0,
    microTimeMs: 5,
    txType: 'SpendTx',
    signatures: null,
    tx: { type: 'SpendTx', fee: 2n ** 70n },
    encoded: null,
  };
  it('signedTx omits signatures when the node omits them', () => {
    expect(signedTx(row)).to.deep.equal({ block_height: 3, block_hash: 'mh_1', hash: 'th_1', tx: row.tx });
    expect(signedTx({ ...row, signatures: ['sg_1'] }))
      .to.have.property('signatures')
      .deep.equal(['sg_1']);
  });
  it('generationsReport stringifies the nonce exactly and nests micro blocks and transactions', () => {
    const kb = { height: 3, hash: 'kh_3', timeMs: 1, data: { hash: 'kh_3', height: 3, nonce: 15041902164601590529n } };
    const mb = { hash: 'mh_1', height: 3, microIndex: 0, txCount: 1, header: { hash: 'mh_1', height: 3, time: 2 } };
    const report = generationsReport([kb], [mb], [row]) as {
      data: Record<string, { nonce: string; micro_blocks: Record<string, { transactions: Record<string, unknown> }> }>;
    };
    expect(report.data['3']!.nonce).to.equal('15041902164601590529');
    expect(report.data['3']!.micro_blocks.mh_1!.transactions.th_1).to.deep.equal(signedTx(row));
  });
});

describe('corsOrigin and isListedOrigin', () => {
  const ctx = (origin: string): Koa.Context => ({ get: () => origin }) as unknown as Koa.Context;
  it('answers * for any origin under *, and echoes (with credentials) only origins listed by name', () => {
    expect(corsOrigin(['*'])(ctx('https://a.example'))).to.equal('*');
    expect(isListedOrigin(['*'], 'https://a.example')).to.equal(false);
    expect(corsOrigin(['*', 'https://a.example'])(ctx('https://a.example'))).to.equal('https://a.example');
    expect(isListedOrigin(['*', 'https://a.example'], 'https://a.example')).to.equal(true);
    expect(corsOrigin(['https://a.example'])(ctx('https://b.example'))).to.equal('');
    expect(isListedOrigin(['*'], '*')).to.equal(false);
    expect(isListedOrigin(['https://a.example'], '')).to.equal(false);
  });
});

describe('corsMethods', () => {
  it('lets a page send every method the route table answers, HEAD, POST and OPTIONS, once each', () => {
    expect(corsMethods(v3Methods())).to.deep.equal(['GET', 'HEAD', 'POST', 'DELETE', 'PATCH', 'OPTIONS']);
    expect(corsMethods([])).to.deep.equal(['GET', 'HEAD', 'POST', 'OPTIONS']);
  });
});
