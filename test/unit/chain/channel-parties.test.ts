import { expect } from 'chai';
import { PARTY_TX_TYPES, partiesChannel, partiesOf, withParties } from '../../../src/chain/channel-parties.ts';
import type { Json } from '../../../src/chain/json.ts';

type Tx = { [key: string]: Json };

describe('channel parties (ae_mdw put_channel_participants)', () => {
  const channel = 'ch_2KWchaBpbGc4Aw9GafDQoB3PCobgU39hTYp5cHxKfgH3JzAxDL';
  const parties = { initiator_id: 'ak_initiator', responder_id: 'ak_responder' };
  const wrap = (type: string, tx: Tx): Tx => ({
    type,
    fee: 1,
    tx: { signatures: [], tx },
  });

  it('names the channel of the transactions ae_mdw shows with parties, wrapped or not, and of no other', () => {
    expect(PARTY_TX_TYPES.size).to.equal(6);
    for (const type of PARTY_TX_TYPES) {
      expect(partiesChannel({ type, channel_id: channel }), type).to.equal(channel);
      expect(partiesChannel(wrap('GAMetaTx', { type, channel_id: channel })), type).to.equal(channel);
    }
    for (const type of ['ChannelCreateTx', 'ChannelDepositTx', 'ChannelWithdrawTx', 'ChannelSetDelegatesTx', 'SpendTx'])
      expect(partiesChannel({ type, channel_id: channel }), type).to.equal(undefined);
  });

  it('reads the parties from the creation, and adds them to the transaction or the one it wraps', () => {
    const create = { type: 'ChannelCreateTx', ...parties, nonce: 1 };
    expect(partiesOf(create)).to.deep.equal(parties);
    expect(partiesOf(wrap('PayingForTx', create))).to.deep.equal(parties);
    expect(partiesOf({ type: 'ChannelDepositTx' })).to.equal(undefined);
    const close = { type: 'ChannelSettleTx', channel_id: channel };
    expect(withParties(close, parties)).to.deep.equal({ ...close, ...parties });
    const wrapped = wrap('GAMetaTx', close);
    expect(withParties(wrapped, parties)).to.deep.equal({
      ...wrapped,
      tx: { signatures: [], tx: { ...close, ...parties } },
    });
    // the input is left as it was
    expect(close).to.deep.equal({ type: 'ChannelSettleTx', channel_id: channel });
  });
});
