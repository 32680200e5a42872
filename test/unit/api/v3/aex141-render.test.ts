/** @module AEX-141 answers' pure parts: metadata as ae_mdw shapes it, limits and editions. */
import { expect } from 'chai';
import { readMetadata } from '../../../../src/api/mdw/resources/aex141-metadata.ts';
import { templateToken, type TokenRow } from '../../../../src/db/queries/aex141-collections.ts';
import { limitsObject, templateObject, templateTokenObject } from '../../../../src/shapes/v3/render-aex141.ts';

describe('AEX-141 rendering', () => {
  it('gives a metadata string under the collection metadata type, a map as {map}, and null for None or a strange value', () => {
    expect(readMetadata({ 1: [{ 0: ['ipfs://x'] }] }, 'ipfs')).to.deep.equal({ ipfs: 'ipfs://x' });
    expect(readMetadata({ 1: [{ 1: [new Map([['name', 'cat']])] }] }, 'map')).to.deep.equal({ map: { name: 'cat' } });
    expect(readMetadata({ 0: [] }, 'map')).to.equal(null);
    expect(readMetadata({ 1: [{ 2: ['x'] }] }, 'map')).to.equal(null);
    expect(readMetadata('junk', 'map')).to.equal(null);
  });

  it('gives both limits with where the later of them was set, and null without any', () => {
    const token = { value: '100', txHash: 'th_a', logIdx: 0, position: [5, 0, 1, 0] as const };
    const template = { value: '7', txHash: 'th_b', logIdx: 2, position: [5, 0, 1, 2] as const };
    expect(limitsObject(token, template)).to.deep.equal({
      token_limit: 100n,
      template_limit: 7n,
      limit_tx_hash: 'th_b',
      limit_log_idx: 2,
    });
    expect(limitsObject(null, template)).to.deep.include({ token_limit: null, limit_tx_hash: 'th_b' });
    expect(limitsObject(null, null)).to.equal(null);
  });

  it('gives an edition with the parts it has, null with none', () => {
    const base = { templateId: '3', txHash: 'th_t', logIdx: 1, supplyTxHash: null, supplyLogIdx: null };
    expect(templateObject('ct_c', { ...base, editionLimit: null, supply: 0 }).edition).to.equal(null);
    expect(
      templateObject('ct_c', {
        ...base,
        editionLimit: { value: '5', txHash: 'th_l', logIdx: 0, position: [1, 0, 0, 0] },
        supply: 0,
      }).edition,
    ).to.deep.equal({ limit: 5n, limit_tx_hash: 'th_l', limit_log_idx: 0 });
    expect(
      templateObject('ct_c', { ...base, editionLimit: null, supply: 2, supplyTxHash: 'th_s', supplyLogIdx: 3 }).edition,
    ).to.deep.equal({ supply: 2, supply_tx_hash: 'th_s', supply_log_idx: 3 });
  });

  it("gives a template's token with its mint, and refuses one listed by a template without it (never a null tx_hash)", () => {
    const token: TokenRow = {
      contractId: 'ct_c',
      tokenId: '9007199254740993',
      ownerId: 'ak_o',
      templateId: '3',
      mintTxHash: 'th_m',
      mintLogIdx: 1,
      edition: null,
    };
    // ae_mdw's Aex141TemplateTokensResponse requires owner_id, token_id, tx_hash (a th_ hash) and log_idx
    expect(templateTokenObject(templateToken(token))).to.deep.equal({
      token_id: 9007199254740993n,
      owner_id: 'ak_o',
      tx_hash: 'th_m',
      log_idx: 1,
      edition: null,
    });
    expect(() => templateToken({ ...token, mintTxHash: null, mintLogIdx: null })).to.throw(/no template mint/);
  });
});
