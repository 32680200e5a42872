import { expect } from 'chai';
import { lockedUntil } from '../../../../src/api/mdw/resources/channels.ts';
import type { ChannelRow } from '../../../../src/db/queries/channels.ts';

/** channel is a channel with a lock period of 10 whose latest transaction is `updateType` in a micro block at 57. */
const channel = (updateType: string, soloClosed: boolean, txType = updateType): ChannelRow => ({
  channelId: 'ch_x',
  active: true,
  soloClosed,
  createTx: { type: 'ChannelCreateTx', lock_period: 10 },
  delegatesTx: undefined,
  last: {
    height: 56,
    microIndex: 0,
    txIndex: 0,
    blockHeight: 57,
    txHash: 'th_x',
    txType,
    updateType,
    timeMs: '0',
  },
  state: { round: 3n, soloRound: 0n, stateHash: null, initiatorAmount: 1n, responderAmount: 2n },
  updatesCount: 3,
  deposited: '0',
  withdrawn: '0',
});

describe('lockedUntil(channel) (aesc_channels: the latest lock-setting transaction’s height plus the lock period)', () => {
  const cases: Array<[string, ChannelRow, number]> = [
    ['0 while open', channel('ChannelDepositTx', false), 0],
    ['from a solo close', channel('ChannelCloseSoloTx', true), 67],
    ['restarted by a slash', channel('ChannelSlashTx', true), 67],
    ['restarted by a force progress of the closing channel', channel('ChannelForceProgressTx', true), 67],
    ['0 after a force progress of an open channel', channel('ChannelForceProgressTx', false), 0],
    ['from a solo close paid for by another account', channel('ChannelCloseSoloTx', true, 'PayingForTx'), 67],
    ['0 once settled', channel('ChannelSettleTx', true), 0],
  ];
  for (const [what, row, expected] of cases) it(`is ${what}`, () => expect(lockedUntil(row)).to.equal(expected));
});
