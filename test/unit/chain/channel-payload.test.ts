import { expect } from 'chai';
import { buildTx, Tag, encode, Encoding } from '@aeternity/aepp-sdk';
import { intToBytes, rlpEncode } from '../../../src/chain/rlp.ts';
import { offChainRound, offChainState } from '../../../src/chain/channel-payload.ts';

describe('offChainRound, offChainState', () => {
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

  it('reads its channel and state hash too, from a version 2 state and from a version 1 one (with updates)', () => {
    expect(offChainState(payload(3))).to.deep.equal({ channelId, round: 3n, stateHash });
    // [57, 1, channel_id, round, updates, state_hash] (aesc_offchain_tx ?INITIAL_VSN, before Fortuna)
    const v1 = rlpEncode([
      intToBytes(57),
      intToBytes(1),
      Buffer.concat([Buffer.from([6]), Buffer.alloc(32, 7)]),
      intToBytes(4),
      [Buffer.from('update')],
      Buffer.alloc(32, 9),
    ]);
    const signed = encode(Buffer.from(rlpEncode([intToBytes(11), intToBytes(1), [], v1])), Encoding.Transaction);
    expect(offChainState(signed)).to.deep.equal({ channelId, round: 4n, stateHash });
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
