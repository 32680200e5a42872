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
    expect((await t.get(`/v2/channels/${channelId}`)).body).to.deep.equal({ reason: 'Channel not found' });
    expect((await t.get(`/v2/accounts/${responder.address}`)).body.balance).to.equal(FUNDS - 500n + 799n);
  });
});
