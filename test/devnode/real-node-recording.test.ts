/** @module The recording's kinds and shapes (test/support/real-node-recording.ts), alone, on recorded lines. */
import { expect } from 'chai';
import { parseJson } from '../../src/chain/json.ts';
import {
  exchangeKind,
  readExchanges,
  routeOf,
  shapeDifferences,
  type Exchange,
} from '../support/real-node-recording.ts';

const line = (e: Partial<Exchange>): Exchange => ({
  method: 'GET',
  path: '/',
  request_body: null,
  status: 200,
  headers: {},
  body: '',
  ...e,
});

describe('the real node recording: kinds and shapes', () => {
  it('names a route’s variable parts and keeps the query that selects the answer', () => {
    expect(
      routeOf('/v3/micro-blocks/hash/mh_2Ev7vNEj64tkUr2KguwjPc68HJDiP6td8paYyH7bNNnhwgTnDw/transactions/index/1'),
    ).to.equal('/v3/micro-blocks/hash/{mh}/transactions/index/{n}');
    expect(routeOf('/v3/accounts/ct_223vybq7Ljr2VKaVhRyveFoSJMBZ8CyBCpPAFZ1BxgvMXggAA/height/-1')).to.equal(
      '/v3/accounts/{ct}/height/{n}',
    );
    expect(routeOf('/v3/names/auct47089.chain?int-as-string=true')).to.equal('/v3/names/{name}?int-as-string=true');
    expect(routeOf('/v3/oracles/ok_2chX/queries?type=open')).to.equal('/v3/oracles/{ok}/queries?type=open');
  });

  it('tells kinds apart by port, status, transaction type, call result and error', () => {
    const tx = (type: string) => JSON.stringify({ block_hash: 'mh_1', hash: 'th_1', tx: { type } });
    expect(exchangeKind(line({ path: '/v3/transactions/th_8WWz', body: tx('SpendTx') }))).to.equal(
      'external GET /v3/transactions/{th} 200 SpendTx',
    );
    const paying = JSON.stringify({ tx: { type: 'PayingForTx', tx: { signatures: [], tx: { type: 'SpendTx' } } } });
    expect(exchangeKind(line({ path: '/v2/transactions/th_8WWz', body: paying }))).to.equal(
      'external GET /v2/transactions/{th} 200 PayingForTx(SpendTx)',
    );
    const revert = JSON.stringify({ call_info: { return_type: 'revert' } });
    expect(exchangeKind(line({ path: '/v3/transactions/th_8WWz/info', body: revert }))).to.equal(
      'external GET /v3/transactions/{th}/info 200 call revert',
    );
    const error = '{"error_code":"name_revoked","reason":"Name revoked"}';
    expect(exchangeKind(line({ path: '/v3/names/x.chain', status: 404, body: error }))).to.equal(
      `external GET /v3/names/{name} 404 ${error}`,
    );
    expect(exchangeKind(line({ path: '/v3/status', status: 404, port: 'internal' }))).to.equal(
      'internal GET /v3/status 404',
    );
  });

  it('requires the same keys in the same order, the same JSON types and an id’s prefix', () => {
    const node = parseJson('{"balance":100418100000000000000,"id":"ak_2a1j","kind":"basic","nonce":0,"payable":true}');
    expect(
      shapeDifferences(node, parseJson('{"balance":5,"id":"ak_xyz","kind":"basic","nonce":7,"payable":false}')),
    ).to.deep.equal([]);
    expect(
      shapeDifferences(node, parseJson('{"id":"ak_x","balance":5,"kind":"basic","nonce":7,"payable":true}')),
    ).to.deep.equal(["$: keys id,balance,kind,nonce,payable, the node's balance,id,kind,nonce,payable"]);
    expect(
      shapeDifferences(node, parseJson('{"balance":"5","id":"ct_x","kind":"basic","nonce":7,"payable":true}')),
    ).to.deep.equal(["$.balance: string, the node's is number", "$.id: string ct_, the node's is string ak_"]);
  });

  it('matches each element of an array against one of the node’s, says nothing of an empty one, and leaves out what it is told', () => {
    const node = parseJson('{"transactions":[{"hash":"th_a","tx":{"amount":1}},{"hash":"th_b","tx":{"name":"x"}}]}');
    expect(shapeDifferences(node, parseJson('{"transactions":[{"hash":"th_c","tx":{"name":"y"}}]}'))).to.deep.equal([]);
    expect(shapeDifferences(node, parseJson('{"transactions":[]}'))).to.deep.equal([]);
    expect(shapeDifferences(node, parseJson('{"transactions":[{"hash":"th_c","tx":{"fee":1}}]}'))).to.have.length(1);
    const withExtra = parseJson('{"transactions":[{"encoded_tx":"tx_1","hash":"th_c","tx":{"amount":2}}]}');
    expect(shapeDifferences(node, withExtra)).to.have.length(1);
    expect(shapeDifferences(node, withExtra, (key) => key === 'encoded_tx')).to.deep.equal([]);
  });

  it('reads the recorded files, every line an exchange the node answered', () => {
    const errors = readExchanges('errors.ndjson.gz');
    expect(errors).to.have.length(128);
    expect(errors.find((e) => e.method === 'HEAD')).to.include({ path: '/v3/status', status: 405, body: '' });
  });
});
