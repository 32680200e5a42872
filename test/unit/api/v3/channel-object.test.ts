import { expect } from 'chai';
import { encode } from '../../../../src/chain/encoding.ts';
import type { ChannelState } from '../../../../src/chain/channel-state.ts';
import { channelObject } from '../../../../src/api/mdw/resources/channels.ts';
import type { ChannelRow } from '../../../../src/db/queries/channels.ts';

const st = (round: number): string => encode('st', Buffer.alloc(32, round));
/** channel is a channel whose latest transaction left `state` */
const channel = (state: ChannelState | null): ChannelRow => ({
  channelId: 'ch_x',
  active: true,
  soloClosed: false,
  createTx: { type: 'ChannelCreateTx', lock_period: 10, state_hash: st(1), initiator_amount: 5, responder_amount: 7 },
  delegatesTx: undefined,
  last: {
    height: 9,
    microIndex: 0,
    txIndex: 0,
    blockHeight: 9,
    txHash: 'th_x',
    txType: 'ChannelDepositTx',
    updateType: 'ChannelDepositTx',
    timeMs: '0',
  },
  state,
  updatesCount: 2,
  deposited: '100000000000000000000',
  withdrawn: '1',
});
const shown = (c: ChannelRow) => {
  const { round, solo_round, state_hash, amount, initiator_amount, responder_amount } = channelObject(c);
  return { round, solo_round, state_hash, amount, initiator_amount, responder_amount };
};

describe('channelObject(channel): round, solo_round, state_hash and the amounts', () => {
  it('shows the state kept after its latest transaction, and the amounts it moved exactly', () => {
    const state = {
      round: 2n ** 70n,
      soloRound: 3n,
      stateHash: st(4),
      initiatorAmount: 2n ** 64n,
      responderAmount: 1n,
    };
    expect(shown(channel(state))).to.deep.equal({
      round: 2n ** 70n,
      solo_round: 3,
      state_hash: st(4),
      amount: 12n + 10n ** 20n - 1n,
      // the parties' on-chain amounts kept, which the deposit and withdrawal did not move
      initiator_amount: 2n ** 64n,
      responder_amount: 1n,
    });
  });

  it('shows null for a state not derived yet (a row stored before migration 1051, the channels area pending)', () => {
    expect(shown(channel(null))).to.include({ round: null, solo_round: null, state_hash: null });
    expect(shown(channel(null))).to.include({ initiator_amount: 5n, responder_amount: 7n });
  });
});
