/** @module The created id a transaction shows, stored once (migration 1013) and read back by the renderer. */
import { expect } from 'chai';
import { randomBytes } from 'node:crypto';
import { buildContractId, produceNameId } from '@aeternity/aepp-sdk';
import { encode } from '../../../src/chain/encoding.ts';
import { createdIdOf, storedCreatedIds } from '../../../src/chain/tx-fields.ts';

const ak = (): `ak_${string}` => encode('ak', randomBytes(32)) as `ak_${string}`;

describe('chain/tx-fields: the shown created id', () => {
  const owner = ak();
  const create = { type: 'ContractCreateTx', owner_id: owner, nonce: 7, code: 'cb_Xfbg4g==' };
  const claim = { type: 'NameClaimTx', account_id: owner, name: 'hello.chain', nonce: 3, name_salt: 1 };
  const wrap = (type: string, inner: object): { [key: string]: never } =>
    ({ type, tx: { signatures: [], tx: inner } }) as never;

  it("is a creating transaction's own id, as the SDK computes it", () => {
    expect(createdIdOf(create)).to.equal(buildContractId(owner, 7));
    expect(createdIdOf(claim)).to.equal(produceNameId('hello.chain'));
    expect(createdIdOf({ type: 'SpendTx', sender_id: owner, recipient_id: owner })).to.equal(null);
  });

  it("is a wrapped transaction's, but a wrapped ContractCreateTx's (ae_mdw adds none to it)", () => {
    expect(createdIdOf(wrap('GAMetaTx', claim))).to.equal(produceNameId('hello.chain'));
    expect(createdIdOf(wrap('PayingForTx', claim))).to.equal(produceNameId('hello.chain'));
    expect(createdIdOf(wrap('PayingForTx', create))).to.equal(null);
  });

  it('is none for a query sent to a name (its oracle is not known without the pointer)', () => {
    const query = { type: 'OracleQueryTx', sender_id: owner, oracle_id: produceNameId('o.chain'), nonce: 1 };
    expect(createdIdOf(query)).to.equal(null);
  });

  it('is read from the row under the field of the type that creates it, never hashed again', () => {
    // a stored id that no hash of these fields gives: the renderer shows what is stored
    const stored = buildContractId(ak(), 1);
    expect(storedCreatedIds(create, stored)).to.deep.equal({ contract_id: stored });
    expect(storedCreatedIds({ type: 'GAAttachTx', owner_id: owner, nonce: 2 }, stored)).to.deep.equal({
      contract_id: stored,
    });
    // the wrapper itself shows none; a type that creates nothing shows none whatever is stored
    expect(storedCreatedIds(wrap('GAMetaTx', claim), produceNameId('hello.chain'))).to.deep.equal({});
    expect(storedCreatedIds({ type: 'SpendTx' }, null)).to.deep.equal({});
  });

  it('is computed for a row the backfill has not reached yet', () => {
    expect(storedCreatedIds(create, null)).to.deep.equal({ contract_id: buildContractId(owner, 7) });
  });
});
