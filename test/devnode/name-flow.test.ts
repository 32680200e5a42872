/** @module The naming flow end to end over HTTP with sdk signing: preclaim, claim, update, spend to the name, transfer, revoke. */
import { expect } from 'chai';
import { produceNameId } from '@aeternity/aepp-sdk';
import { encode } from '../../src/chain/encoding.ts';
import { startTestNode, FUNDS, type TestNode } from './harness.ts';

describe('devnode naming flow over HTTP', () => {
  let t: TestNode;
  beforeEach(async () => {
    t = await startTestNode();
  });
  afterEach(() => t.node.stop());

  it('claims one generation after the preclaim, then updates, receives, transfers and revokes', async () => {
    const [owner, friend, payer] = t.accounts as [
      (typeof t.accounts)[0],
      (typeof t.accounts)[0],
      (typeof t.accounts)[0],
    ];
    const name = 'devnodenameflow.chain';
    const nameId = produceNameId(name);
    expect(await t.get(`/v2/names/${name}`))
      .to.include({ status: 404 })
      .and.to.have.deep.property('body', { reason: 'Name not found', error_code: 'name_not_found' });

    const salt = 2n ** 120n + 7n;
    const commitment = await t.getInternal(`/v2/debug/names/commitment-id?name=${name}&salt=${salt}`);
    expect(commitment.status).to.equal(200);
    const preclaim = await t.submit(
      'names/preclaim',
      { account_id: owner.address, commitment_id: commitment.body.commitment_id, fee: 1 },
      owner,
    );
    expect(preclaim.status, preclaim.text).to.equal(200);
    await t.node.mineMicroBlock();

    const early = await t.submit('names/claim', { account_id: owner.address, name, name_salt: salt, fee: 1 }, owner);
    expect(early.status).to.equal(400);
    expect(early.body.reason).to.match(/same generation as its preclaim/);

    await t.node.mineKeyBlock();
    const claimedAt = t.node.height();
    const claim = await t.submit('names/claim', { account_id: owner.address, name, name_salt: salt, fee: 1 }, owner);
    expect(claim.status, claim.text).to.equal(200);
    expect((await t.get(`/v2/names/${name}`)).status).to.equal(404);
    await t.node.mineKeyBlock();
    const claimed = await t.get(`/v2/names/${name}`);
    expect(claimed.body).to.deep.equal({ id: nameId, ttl: claimedAt + 180000, owner: owner.address, pointers: [] });

    const update = await t.submit(
      'names/update',
      {
        account_id: owner.address,
        name_id: nameId,
        name_ttl: 1000,
        client_ttl: 60,
        fee: 1,
        pointers: [{ key: 'account_pubkey', id: friend.address }],
      },
      owner,
    );
    expect(update.status, update.text).to.equal(200);
    const updatedAt = t.node.height();
    await t.node.mineKeyBlock();
    const updated = await t.get(`/v2/names/${name}`);
    expect(updated.body).to.include({ ttl: updatedAt + 1000 });
    expect(updated.body.pointers).to.deep.equal([
      { encoded_key: encode('ba', Buffer.from('account_pubkey')), id: friend.address, key: 'account_pubkey' },
    ]);

    const spend = await t.submit(
      'transactions/spend',
      { sender_id: payer.address, recipient_id: nameId, amount: 777, fee: 1 },
      payer,
    );
    expect(spend.status, spend.text).to.equal(200);
    await t.node.mineKeyBlock();
    expect((await t.get(`/v2/accounts/${friend.address}`)).body.balance).to.equal(FUNDS + 777n);
    expect((await t.get(`/v2/transactions/${spend.body.tx_hash}`)).body.tx.recipient_id).to.equal(nameId);

    const transfer = await t.submit(
      'names/transfer',
      { account_id: owner.address, name_id: nameId, recipient_id: friend.address, fee: 1 },
      owner,
    );
    expect(transfer.status, transfer.text).to.equal(200);
    await t.node.mineKeyBlock();
    expect((await t.get(`/v2/names/${name}`)).body.owner).to.equal(friend.address);

    const notOwner = await t.submit('names/revoke', { account_id: owner.address, name_id: nameId, fee: 1 }, owner);
    expect(notOwner.status).to.equal(400);
    const revoke = await t.submit('names/revoke', { account_id: friend.address, name_id: nameId, fee: 1 }, friend);
    expect(revoke.status, revoke.text).to.equal(200);
    await t.node.mineKeyBlock();
    expect(await t.get(`/v2/names/${name}`))
      .to.include({ status: 404 })
      .and.to.have.deep.property('body', { reason: 'Name revoked', error_code: 'name_revoked' });
  });

  it('serves a name through the generation its ttl ends in, and answers it revoked from the next one', async () => {
    const [owner] = t.accounts as [(typeof t.accounts)[0]];
    const name = 'devnodenameends.chain';
    const nameId = produceNameId(name);
    const claim = await t.submit('names/claim', { account_id: owner.address, name, name_salt: 0, fee: 1 }, owner);
    expect(claim.status, claim.text).to.equal(200);
    await t.node.mineKeyBlock();
    const update = { account_id: owner.address, name_id: nameId, name_ttl: 2, client_ttl: 0, fee: 1, pointers: [] };
    expect((await t.submit('names/update', update, owner)).status).to.equal(200);
    const ttl = t.node.height() + 2;
    while (t.node.height() < ttl) await t.node.mineKeyBlock();
    // key block ttl + 1 revokes it (aens_state_tree:prune); until then it is claimed, and its owner may act on it
    expect((await t.get(`/v3/names/${name}`)).body).to.include({ id: nameId, ttl });
    const transfer = { account_id: owner.address, name_id: nameId, recipient_id: owner.address, fee: 1 };
    expect((await t.submit('names/transfer', transfer, owner)).status).to.equal(200);
    await t.node.mineKeyBlock();
    expect((await t.get(`/v3/names/${name}`)).body).to.deep.equal({
      reason: 'Name revoked',
      error_code: 'name_revoked',
    });
  });

  it('accepts the seed claim form with an nm_-encoded name and rejects invalid names', async () => {
    const [owner] = t.accounts as [(typeof t.accounts)[0]];
    const encodedName = encode('nm', Buffer.from('seedform.chain'));
    const built = await t.postInternal('/v2/debug/names/claim', {
      account_id: owner.address,
      name: encodedName,
      name_salt: 5,
      fee: 1,
    });
    expect(built.status, built.text).to.equal(200);
    const bad = await t.postInternal('/v2/debug/names/claim', {
      account_id: owner.address,
      name: 'x.test',
      name_salt: 5,
      fee: 1,
    });
    expect(bad)
      .to.include({ status: 400 })
      .and.to.have.deep.property('body', { reason: 'Name validation failed with a reason: registrar_unknown' });
    expect((await t.get('/v2/names/nope')).body).to.deep.equal({
      reason: 'Name validation failed with a reason: no_registrar',
      error_code: 'no_registrar',
    });
  });
});
