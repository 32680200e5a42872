import { expect } from 'chai';
import { stringifyJson } from '../../../src/chain/json.ts';
import { SIGNED_TX_KEYS, signedTx } from '../../../src/chain/signed-tx.ts';

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
