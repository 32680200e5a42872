import { expect } from 'chai';
import { buildTx, Tag, encode, Encoding } from '@aeternity/aepp-sdk';
import { offChainRound } from '../../../src/chain/channel-payload.ts';

describe('offChainRound', () => {
  const channelId = encode(Buffer.alloc(32, 7), Encoding.Channel);
  const stateHash = encode(Buffer.alloc(32, 9), Encoding.State);
  /** payload is a signed ChannelOffChainTx at `round`, serialised by the SDK (the independent oracle) */
  const payload = (round: number | string): string =>
    buildTx({
      tag: Tag.SignedTx,
      encodedTx: buildTx({ tag: Tag.ChannelOffChainTx, channelId, round, stateHash }),
      signatures: [Buffer.alloc(64, 1)],
    });

  it("reads the round of the off-chain state a channel transaction's payload carries", () => {
    expect(offChainRound(payload(1))).to.equal(1n);
    expect(offChainRound(payload(4242))).to.equal(4242n);
    // exact above 2^53
    expect(offChainRound(payload('18446744073709551617'))).to.equal(18446744073709551617n);
  });

  it('has none for an empty payload, another transaction or text that is no transaction', () => {
    expect(offChainRound(encode(Buffer.alloc(0), Encoding.Transaction))).to.equal(undefined);
    const spend = buildTx({
      tag: Tag.SpendTx,
      senderId: encode(Buffer.alloc(32, 1), Encoding.AccountAddress),
      recipientId: encode(Buffer.alloc(32, 2), Encoding.AccountAddress),
      amount: 1,
      nonce: 1,
      fee: 20000000000000,
    });
    expect(offChainRound(buildTx({ tag: Tag.SignedTx, encodedTx: spend, signatures: [] }))).to.equal(undefined);
    expect(offChainRound(spend)).to.equal(undefined);
    expect(offChainRound('tx_notbase64')).to.equal(undefined);
    expect(offChainRound(null)).to.equal(undefined);
  });
});
