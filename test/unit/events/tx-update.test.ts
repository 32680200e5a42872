/** @module Tests of the mempool diff behind tx_update. */
import { expect } from 'chai';
import { parseJson } from '../../../src/chain/json.ts';
import { diffPending } from '../../../src/events/tx-update.ts';

function pendingBody(...hashes: string[]): ReturnType<typeof parseJson> {
  const txs = hashes.map((hash) => ({
    block_hash: 'none',
    block_height: -1,
    hash,
    signatures: [],
    tx: { type: 'SpendTx', fee: 1 },
  }));
  return parseJson(JSON.stringify({ transactions: txs }));
}

describe('diffPending', () => {
  it('reports every transaction of the first poll, in the node order', () => {
    const { fresh, known } = diffPending(new Set(), pendingBody('th_a', 'th_b'));
    expect(fresh.map((p) => JSON.parse(p).hash)).to.deep.equal(['th_a', 'th_b']);
    expect([...known]).to.deep.equal(['th_a', 'th_b']);
  });

  it('reports only transactions new since the last poll', () => {
    const { fresh, known } = diffPending(new Set(['th_a', 'th_b']), pendingBody('th_b', 'th_c'));
    expect(fresh.map((p) => JSON.parse(p).hash)).to.deep.equal(['th_c']);
    expect([...known]).to.deep.equal(['th_b', 'th_c']);
  });

  it('keeps big integers exact in the reported payload', () => {
    const body = parseJson(
      '{"transactions":[{"hash":"th_x","block_height":-1,"block_hash":"none","tx":{"amount":123456789012345678901234567890}}]}',
    );
    expect(diffPending(new Set(), body).fresh[0]).to.contain('"amount":123456789012345678901234567890');
  });

  it('ignores a body that is not a pending list', () => {
    expect(diffPending(new Set(['th_a']), parseJson('{"reason":"nope"}'))).to.deep.equal({
      fresh: [],
      known: new Set(),
    });
    expect(diffPending(new Set(), parseJson('{"transactions":[1,{"nohash":true}]}')).fresh).to.deep.equal([]);
  });
});
