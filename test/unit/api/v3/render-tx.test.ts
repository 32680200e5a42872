import { expect } from 'chai';
import type { Json } from '../../../../src/chain/json.ts';
import type { TxRow } from '../../../../src/db/queries/transactions.ts';
import { mdwTx } from '../../../../src/shapes/v3/render-tx.ts';
import { aeMdwCallWithoutObject } from '../../../support/ae-mdw-call-none.ts';

type Obj = { [key: string]: Json };

const inner: Obj = {
  type: 'ContractCallTx',
  version: 1,
  caller_id: 'ak_2a1j2Mk9YSmC1gioUq4PWRm3bsv887MbuRVwyv4KaUGoR1eiKi',
  nonce: 0,
  contract_id: 'ct_2mRwPYjhcbFmPsMwhqWaW1XX9nSfPV4hs5iJvkEz4GWr8F3Jma',
  abi_version: 3,
  amount: 10,
  gas: 10000,
  gas_price: 1000000000,
  fee: 200000000000000,
  call_data: 'cb_KxHEoqavG58CoHA2',
};

/** a GAMetaTx of `inner`, its GA call returning `returnType`, with what the page's read gives its row */
function metaRow(returnType: string, extra: Partial<TxRow>): TxRow {
  return {
    hash: 'th_2Kc1vJYz8Ad4i3y1mm5bGBQ6GjyQLuUmqnhmSrFqpYdMffT5h4',
    height: 5,
    microBlockHash: 'mh_2dGrfwmKsGpSZmKmzz1BdtGS2ZTMcjJU4fFTBSEdQbavmmTGvB',
    microIndex: 0,
    txIndex: 0,
    microTimeMs: '1700000000000',
    txType: 'GAMetaTx',
    signed: Buffer.alloc(0),
    encoded: null,
    createdId: null,
    signatures: [],
    tx: { type: 'GAMetaTx', version: 2, ga_id: inner.caller_id!, fee: 1, tx: { signatures: [], tx: inner } },
    call: null,
    gaCall: { gas_used: '2984', return_type: returnType, auth_fun_name: null, args: null },
    name: null,
    parties: null,
    ...extra,
  };
}

describe('mdwTx of a GAMetaTx', () => {
  it("shows a failed inner call as ae_mdw's format_call_info shows a call the node holds none of", () => {
    const tx = mdwTx(metaRow('error', { unmadeCallStandard: 'aex9' }));
    expect([tx.return_type, tx.gas_used]).to.deep.equal(['error', 2984n]);
    expect((tx.tx as Obj).tx as Obj).to.deep.equal(aeMdwCallWithoutObject(inner, 'aex9'));
  });

  it('shows an inner call that ran with its outcome, from its call row', () => {
    const call = {
      function: 'transfer',
      arguments: [{ type: 'int', value: 7 }],
      result: 7,
      call_info: { gas_used: 1200, return_type: 'ok', log: [], return_value: 'cb_' },
      aexn_type: 'aex9',
    };
    const shown = (mdwTx(metaRow('ok', { call })).tx as Obj).tx as Obj;
    expect(shown).to.include({
      return_type: 'ok',
      gas_used: 1200,
      function: 'transfer',
      result: 'ok',
      aexn_type: 'aex9',
    });
    expect(shown).to.not.have.property('call_id');
  });
});
