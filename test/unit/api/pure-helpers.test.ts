import { expect } from 'chai';
import { isFinal } from '../../../src/api/middleware/cache-headers.ts';
import { isInternalPath } from '../../../src/api/proxy.ts';
import { feeShare } from '../../../src/api/routes/chain.ts';
import { generationsReport } from '../../../src/api/shapes.ts';
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
