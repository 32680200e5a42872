/** @module Which wrapped transactions took effect, read from a transaction's info as node 7.2.2 gives it. */
import { expect } from 'chai';
import { effectiveTxs, failedInner, listedTx } from '../../../src/chain/ga-outcome.ts';
import type { Json } from '../../../src/chain/json.ts';
import { referencedIds } from '../../../src/chain/tx-fields.ts';

type Obj = { [key: string]: Json };

const spend: Obj = { type: 'SpendTx', sender_id: 'ak_ga', recipient_id: 'ak_to', amount: 1, fee: 1, nonce: 0 };
const meta = (inner: Obj, ga = 'ak_ga'): Obj => ({
  type: 'GAMetaTx',
  ga_id: ga,
  fee: 1,
  tx: { tx: inner, signatures: [] },
});
const payingFor = (inner: Obj): Obj => ({
  type: 'PayingForTx',
  payer_id: 'ak_payer',
  tx: { tx: inner, signatures: [] },
});
/** a GA call's info as the node prints it (aega_call:serialize_for_client), its inner object as given */
const gaCall = (returnType: string, inner: Obj): Obj => ({
  gas_used: 10,
  return_type: returnType,
  inner_object: inner,
});

describe('effectiveTxs and listedTx (ga-outcome.ts)', () => {
  it('keeps every level of a GAMetaTx whose GA call returned ok', () => {
    const tx = meta(spend);
    expect(effectiveTxs(tx, { ga_info: gaCall('ok', { tx_info: 'spend_tx' }) })).to.deep.equal([tx, spend]);
    expect(listedTx(tx, 2)).to.equal(tx);
  });

  it('ends at a GAMetaTx whose GA call returned error, and lists it without the ids of its inner transaction', () => {
    const tx = meta(spend);
    const effective = effectiveTxs(tx, { ga_info: gaCall('error', { tx_info: 'spend_tx' }) });
    expect(effective).to.deep.equal([tx]);
    const listed = listedTx(tx, effective.length);
    expect([...referencedIds(listed).keys()]).to.deep.equal(['ak_ga']);
    // the transaction itself is left as it is
    expect([...referencedIds(tx).keys()]).to.deep.equal(['ak_ga', 'ak_to']);
  });

  it('takes every level as done without an info (not asked, garbage-collected)', () => {
    const tx = meta(spend);
    expect(effectiveTxs(tx, undefined)).to.deep.equal([tx, spend]);
  });

  it("reads a PayingForTx's info at the level of the GAMetaTx it pays for (its call_info)", () => {
    const ga = meta(spend);
    const tx = payingFor(ga);
    expect(effectiveTxs(tx, { call_info: gaCall('error', { tx_info: 'spend_tx' }) })).to.deep.equal([tx, ga]);
    const listed = listedTx(tx, 2);
    expect([...referencedIds(listed).keys()]).to.deep.equal(['ak_payer', 'ak_ga']);
  });

  it("reads a nested GAMetaTx's outcome from its wrapper's inner object", () => {
    const innerGa = meta(spend, 'ak_ga2');
    const tx = meta(innerGa);
    const info = { ga_info: gaCall('ok', { ga_info: gaCall('error', { tx_info: 'spend_tx' }) }) };
    expect(effectiveTxs(tx, info)).to.deep.equal([tx, innerGa]);
    expect([...referencedIds(listedTx(tx, 2)).keys()]).to.deep.equal(['ak_ga', 'ak_ga2']);
  });

  it('names the transaction a failed GA call undid, at any depth, and none where every level took effect', () => {
    const tx = meta(spend);
    expect(failedInner(tx, { ga_info: gaCall('error', { tx_info: 'spend_tx' }) })).to.equal(spend);
    expect(failedInner(tx, { ga_info: gaCall('ok', { tx_info: 'spend_tx' }) })).to.equal(undefined);
    expect(failedInner(tx, undefined), 'no info: taken as done').to.equal(undefined);
    const innerGa = meta(spend, 'ak_ga2');
    const nested = payingFor(meta(innerGa));
    const info = { call_info: gaCall('ok', { ga_info: gaCall('error', { tx_info: 'spend_tx' }) }) };
    expect(failedInner(nested, info)).to.equal(spend);
    expect(failedInner(nested, { call_info: gaCall('error', { tx_info: 'ga_meta_tx' }) })).to.equal(innerGa);
  });
});
