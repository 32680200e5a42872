import { expect } from 'chai';
import { SOURCE_TX, SOURCE_TX_EVENT } from '../../../../src/shapes/v3/field-groups.ts';
import { sourceTxFields, txBody } from '../../../../src/shapes/v3/render-source-tx.ts';

describe("v3 source transaction (an object's or event's block, hash, type and tx body)", () => {
  const row = { blockHash: 'mh_block', txHash: 'th_tx', txType: 'NameClaimTx', height: 7 };

  it('writes the three fields the SOURCE_TX group declares, from the row', () => {
    const fields = sourceTxFields(row);
    expect(fields).to.deep.equal({ block_hash: 'mh_block', source_tx_hash: 'th_tx', source_tx_type: 'NameClaimTx' });
    expect(Object.keys(fields).sort()).to.deep.equal(Object.keys(SOURCE_TX).sort());
  });

  it('carries the tx without its type and version, every other field as it was (an amount above 2^53 exact)', () => {
    const body = txBody({ type: 'NameClaimTx', version: 2, name: 'a.chain', name_fee: 2n ** 60n + 1n, nonce: 3 });
    expect(body).to.deep.equal({ name: 'a.chain', name_fee: 2n ** 60n + 1n, nonce: 3 });
    expect(Object.keys({ ...sourceTxFields(row), tx: body }).sort()).to.deep.equal(Object.keys(SOURCE_TX_EVENT).sort());
  });

  it('leaves the stored tx untouched', () => {
    const tx = { type: 'OracleExtendTx', version: 1, oracle_id: 'ok_x' };
    txBody(tx);
    expect(tx).to.deep.equal({ type: 'OracleExtendTx', version: 1, oracle_id: 'ok_x' });
  });
});
