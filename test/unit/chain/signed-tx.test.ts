import { expect } from 'chai';
import { parseJson, stringifyJson, type Json } from '../../../src/chain/json.ts';
import { nodeSignedTx, SIGNED_TX_KEYS, signedTx } from '../../../src/chain/signed-tx.ts';
import { readExchanges } from '../../support/real-node-recording.ts';

describe('signedTx (GenericSignedTx)', () => {
  const mined = {
    hash: 'th_1',
    height: 3,
    microBlockHash: 'mh_1',
    signatures: ['sg_1'],
    tx: { type: 'SpendTx', amount: 2n ** 70n },
  };

  it('prints its keys in the node order, with exact integers', () => {
    expect(Object.keys(signedTx(mined))).to.deep.equal([...SIGNED_TX_KEYS]);
    expect(stringifyJson(signedTx(mined))).to.equal(
      '{"block_hash":"mh_1","block_height":3,"hash":"th_1","signatures":["sg_1"],"tx":{"type":"SpendTx","amount":1180591620717411303424}}',
    );
  });

  it('omits signatures for a GAMetaTx (stored as null), keeping the order of the others', () => {
    const meta = signedTx({ ...mined, signatures: null, tx: { type: 'GAMetaTx' } });
    expect(Object.keys(meta)).to.deep.equal(['block_hash', 'block_height', 'hash', 'tx']);
  });
});

describe("nodeSignedTx (a 7.x node's GenericSignedTx)", () => {
  it('prints every recorded transaction of a real 7.2.2 node as it did, byte for byte, encoded_tx in its place', () => {
    const recorded = readExchanges('chain.ndjson.gz').filter(
      (e) => e.status === 200 && /^\/v[23]\/transactions\/th_[^/?]+$/.test(e.path),
    );
    for (const e of recorded) {
      const node = parseJson(e.body) as { readonly [key: string]: Json };
      const mined = {
        hash: node.hash as string,
        height: node.block_height as number,
        microBlockHash: node.block_hash as string,
        signatures: node.signatures as string[],
        tx: node.tx!,
      };
      expect(stringifyJson(nodeSignedTx(mined, node.encoded_tx as string)), e.path).to.equal(e.body);
    }
    // every recorded transaction, by /v2 and /v3
    expect(recorded.length).to.be.at.least(357 * 2);
  });

  it('is signedTx where the signed transaction is unknown (kept as the JSON of a node that did not send it)', () => {
    const mined = { hash: 'th_1', height: 3, microBlockHash: 'mh_1', signatures: null, tx: { type: 'GAMetaTx' } };
    expect(stringifyJson(nodeSignedTx(mined, null))).to.equal(stringifyJson(signedTx(mined)));
    expect(Object.keys(nodeSignedTx(mined, 'tx_1'))).to.deep.equal([
      'block_hash',
      'block_height',
      'encoded_tx',
      'hash',
      'tx',
    ]);
  });
});
