import { expect } from 'chai';
import { encode } from '../../../../src/chain/encoding.ts';
import { channelObject } from '../../../../src/api/mdw/resources/channels.ts';
import type { ChannelRow, ChannelTxRow } from '../../../../src/db/queries/channels.ts';

const st = (round: number): string => encode('st', Buffer.alloc(32, round));
const create: ChannelTxRow = {
  type: 'ChannelCreateTx',
  blockHeight: 5,
  tx: { type: 'ChannelCreateTx', lock_period: 10, state_hash: st(1) },
};
/** channel is a channel of `txs`, the last one its latest */
const channel = (txs: ChannelTxRow[]): ChannelRow => {
  const last = txs.at(-1)!;
  return {
    channelId: 'ch_x',
    active: true,
    soloClosed: false,
    createTx: create.tx,
    delegatesTx: undefined,
    last: {
      height: last.blockHeight,
      microIndex: 0,
      txIndex: 0,
      blockHeight: last.blockHeight,
      txHash: 'th_x',
      txType: String(last.tx.type),
      updateType: last.type,
      timeMs: '0',
    },
    txs,
    updatesCount: txs.length,
    deposited: '0',
    withdrawn: '0',
  };
};
const state = (c: ChannelRow) => {
  const { round, solo_round, state_hash } = channelObject(c);
  return { round, solo_round, state_hash };
};

describe('channelObject(channel): round, solo_round and state_hash', () => {
  it('reads them from the channel transaction a PayingForTx wraps, not the outer one', () => {
    const deposit = { type: 'ChannelDepositTx', round: 4, state_hash: st(4) };
    const paid = { type: 'PayingForTx', payer_id: 'ak_p', tx: { tx: deposit, signatures: [] } };
    const row: ChannelTxRow = { type: 'ChannelDepositTx', blockHeight: 6, tx: paid };
    expect(state(channel([create, row]))).to.deep.equal({ round: 4, solo_round: 0, state_hash: st(4) });
  });

  it('follows the channel’s transactions before its latest one (the first forced state’s round)', () => {
    const forced = (round: number): ChannelTxRow => ({
      type: 'ChannelForceProgressTx',
      blockHeight: 5 + round,
      tx: { type: 'ChannelForceProgressTx', payload: encode('tx', Buffer.alloc(0)), round, state_hash: st(round) },
    });
    expect(state(channel([create, forced(2), forced(3)]))).to.deep.equal({
      round: 3,
      solo_round: 2,
      state_hash: st(3),
    });
  });
});
