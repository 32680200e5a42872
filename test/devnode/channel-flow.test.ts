/** @module Channel create and mutual close over HTTP, signed by both parties with the sdk. */
import { expect } from 'chai';
import {
  Tag,
  buildTx,
  decode as sdkDecode,
  encode as sdkEncode,
  Encoding,
  type MemoryAccount,
} from '@aeternity/aepp-sdk';
import { channelId as deriveChannelId } from '../../src/devnode/ids.ts';
import { poiOfBalances } from '../support/channel-txs.ts';
import { startTestNode, FUNDS, type TestNode } from './harness.ts';

async function signedByBoth(
  t: TestNode,
  builder: string,
  body: Record<string, unknown>,
  parties: MemoryAccount[],
): Promise<string> {
  const built = await t.postInternal(`/v2/debug/${builder}`, body);
  expect(built.status, built.text).to.equal(200);
  const message = Buffer.concat([Buffer.from('ae_devnet'), sdkDecode(built.body.tx)]);
  const signatures = await Promise.all(parties.map((p) => p.sign(message)));
  return buildTx({ tag: Tag.SignedTx, encodedTx: built.body.tx, signatures });
}

describe('devnode channel flow over HTTP', () => {
  let t: TestNode;
  beforeEach(async () => {
    t = await startTestNode();
  });
  afterEach(() => t.node.stop());

  it('opens a channel signed by both parties and closes it mutually', async () => {
    const [initiator, responder] = t.accounts as [MemoryAccount, MemoryAccount];
    const create = {
      initiator_id: initiator.address,
      initiator_amount: 1000,
      responder_id: responder.address,
      responder_amount: 500,
      channel_reserve: 10,
      lock_period: 5,
      fee: 1,
      state_hash: sdkEncode(Buffer.alloc(32, 1), Encoding.State),
    };
    const onlyOne = await t.submit('channels/create', create, initiator);
    expect(onlyOne.status).to.equal(400);
    expect(onlyOne.body.reason).to.match(/invalid signature.*ak_/);

    const opened = await t.post('/v2/transactions', {
      tx: await signedByBoth(t, 'channels/create', create, [initiator, responder]),
    });
    expect(opened.status, opened.text).to.equal(200);
    await t.node.mineKeyBlock();
    const tx = (await t.get(`/v2/transactions/${opened.body.tx_hash}`)).body;
    expect(tx.signatures).to.have.length(2);
    const channelId = deriveChannelId(initiator.address, 1, responder.address);
    const channel = await t.get(`/v2/channels/${channelId}`);
    expect(channel.body).to.include({
      id: channelId,
      initiator_amount: 1000,
      responder_amount: 500,
      channel_amount: 1500,
    });

    const close = {
      channel_id: channelId,
      from_id: initiator.address,
      initiator_amount_final: 700,
      responder_amount_final: 799,
      fee: 1,
    };
    const closed = await t.post('/v2/transactions', {
      tx: await signedByBoth(t, 'channels/close/mutual', close, [initiator, responder]),
    });
    expect(closed.status, closed.text).to.equal(200);
    await t.node.mineKeyBlock();
    expect((await t.get(`/v2/channels/${channelId}`)).body).to.deep.equal({
      reason: 'Channel not found',
      error_code: 'not_found',
    });
    expect((await t.get(`/v2/accounts/${responder.address}`)).body.balance).to.equal(FUNDS - 500n + 799n);
  });

  it('runs the solo lifecycle: deposit, withdraw, snapshot, close solo, slash, settle', async () => {
    const [initiator, responder] = t.accounts as [MemoryAccount, MemoryAccount];
    const stateHash = (n: number): string => sdkEncode(Buffer.alloc(32, n), Encoding.State);
    const create = {
      initiator_id: initiator.address,
      initiator_amount: 1000,
      responder_id: responder.address,
      responder_amount: 500,
      channel_reserve: 10,
      lock_period: 3,
      fee: 1,
      state_hash: stateHash(1),
    };
    await t.post('/v2/transactions', { tx: await signedByBoth(t, 'channels/create', create, [initiator, responder]) });
    await t.node.mineKeyBlock();
    const channel_id = deriveChannelId(initiator.address, 1, responder.address);
    /** offChain is a state of `round` signed by both parties (a ChannelOffChainTx), the payload of solo txs */
    const offChain = async (round: number): Promise<string> => {
      const tx = buildTx({ tag: Tag.ChannelOffChainTx, channelId: channel_id, round, stateHash: stateHash(round) });
      const message = Buffer.concat([Buffer.from('ae_devnet'), sdkDecode(tx)]);
      const signatures = await Promise.all([initiator, responder].map((p) => p.sign(message)));
      return buildTx({ tag: Tag.SignedTx, encodedTx: tx, signatures });
    };
    // the off-chain state the solo transactions prove: the deposit and the withdrawal moved, 950 and 600
    const poi = poiOfBalances([
      [initiator.address, 950n],
      [responder.address, 600n],
    ]);
    const step = async (builder: string, body: Record<string, unknown>, signer: MemoryAccount): Promise<void> => {
      const res = await t.submit(builder, { channel_id, fee: 1, ...body }, signer);
      expect(res.status, `${builder}: ${res.text}`).to.equal(200);
      await t.node.mineKeyBlock();
    };
    const channel = async () => (await t.get(`/v2/channels/${channel_id}`)).body;

    await step(
      'channels/deposit',
      { from_id: responder.address, amount: 100, state_hash: stateHash(2), round: 2 },
      responder,
    );
    await step(
      'channels/withdraw',
      { to_id: initiator.address, amount: 50, state_hash: stateHash(3), round: 3 },
      initiator,
    );
    // a deposit and a withdrawal move the channel's amount, not the parties' (aesc_channels deposit, withdraw)
    expect(await channel()).to.include({
      channel_amount: 1550,
      initiator_amount: 1000,
      responder_amount: 500,
      round: 3,
      locked_until: 0,
    });
    const stale = await t.submit(
      'channels/snapshot/solo',
      { channel_id, from_id: initiator.address, payload: await offChain(3), fee: 1 },
      initiator,
    );
    expect(stale.body.reason).to.match(/old_round/);
    await step('channels/snapshot/solo', { from_id: initiator.address, payload: await offChain(4) }, initiator);
    const closedAt = t.node.height();
    await step('channels/close/solo', { from_id: initiator.address, payload: await offChain(5), poi }, initiator);
    expect(await channel()).to.include({
      initiator_amount: 950,
      responder_amount: 600,
      round: 5,
      locked_until: closedAt + 3,
    });
    const slashedAt = t.node.height();
    await step('channels/slash', { from_id: responder.address, payload: await offChain(6), poi }, responder);
    expect(await channel()).to.include({ round: 6, locked_until: slashedAt + 3 });
    const finals = { from_id: responder.address, initiator_amount_final: 950, responder_amount_final: 600 };
    const early = await t.submit('channels/settle', { channel_id, fee: 1, ...finals }, responder);
    expect(early.body.reason).to.match(/not closed yet/);
    // settled from locked_until on (aesc_channels:is_solo_closed)
    while (t.node.height() < slashedAt + 3) await t.node.mineKeyBlock();
    await step('channels/settle', finals, responder);
    expect(await channel()).to.deep.equal({ reason: 'Channel not found', error_code: 'not_found' });
    expect((await t.get(`/v2/accounts/${initiator.address}`)).body.balance).to.equal(FUNDS - 1000n + 50n - 4n + 950n);
  });
});
