/** @module The node's channel state rules as the middleware folds them: one case per rule of aesc_channels. */
import { expect } from 'chai';
import { encode } from '../../../src/chain/encoding.ts';
import { intToBytes, rlpEncode } from '../../../src/chain/rlp.ts';
import { channelState, SOLO_ROUND_SWITCH_HEIGHT, type ChannelTx } from '../../../src/chain/channel-state.ts';

const CHANNEL = encode('ch', Buffer.alloc(32, 7));
const st = (round: number): string => encode('st', Buffer.alloc(32, round));
/** offChain is a signed `[57, 2, channel_id, round, state_hash]`, as a solo transaction's payload carries it. */
const offChain = (round: number): string => {
  const id = Buffer.concat([Buffer.from([6]), Buffer.alloc(32, 7)]);
  const tx = rlpEncode([intToBytes(57), intToBytes(2), id, intToBytes(round), Buffer.alloc(32, round)]);
  return encode('tx', rlpEncode([intToBytes(11), intToBytes(1), [], tx]));
};
const EMPTY = 'tx_';

// the transactions of one channel, as channel_events holds them (unwrapped), each at height 10 unless moved
const create: ChannelTx = { height: 1, tx: { type: 'ChannelCreateTx', state_hash: st(1) } };
const co = (type: string, round: number): ChannelTx => ({
  height: 10,
  tx: { type, channel_id: CHANNEL, round, state_hash: st(round) },
});
const solo = (type: string, payload: string, height = 10): ChannelTx => ({ height, tx: { type, payload } });
const forced = (round: number, payload = EMPTY, height = 10): ChannelTx => ({
  height,
  tx: { type: 'ChannelForceProgressTx', payload, round, state_hash: st(round) },
});
const at = (round: number, soloRound: number, stateRound = round) => ({
  round: BigInt(round),
  soloRound: BigInt(soloRound),
  stateHash: st(stateRound),
});
const LATE = SOLO_ROUND_SWITCH_HEIGHT;

describe('channelState(txs) (aesc_channels: round, solo_round and state_hash per transaction)', () => {
  const cases: Array<[string, ChannelTx[], ReturnType<typeof at>]> = [
    ['is round 1 and the create’s state hash at creation', [create], at(1, 0)],
    [
      'takes a deposit’s and a withdrawal’s own round',
      [create, co('ChannelDepositTx', 4), co('ChannelWithdrawTx', 6)],
      at(6, 0),
    ],
    ['takes a snapshot’s payload', [create, solo('ChannelSnapshotSoloTx', offChain(3))], at(3, 0)],
    ['takes a solo close’s payload', [create, solo('ChannelCloseSoloTx', offChain(2))], at(2, 0)],
    [
      'keeps the last state at a solo close on an empty payload',
      [create, co('ChannelDepositTx', 2), solo('ChannelCloseSoloTx', EMPTY)],
      at(2, 0),
    ],
    [
      'takes a slash’s payload',
      [create, solo('ChannelCloseSoloTx', offChain(2)), solo('ChannelSlashTx', offChain(5))],
      at(5, 0),
    ],
    ['takes a delegates change’s payload', [create, solo('ChannelSetDelegatesTx', offChain(4))], at(4, 0)],
    [
      'keeps the last state at a delegates change on an empty payload',
      [create, solo('ChannelSetDelegatesTx', EMPTY)],
      at(1, 0),
    ],
    ['sets solo_round at a force progress', [create, forced(2)], at(2, 2)],
    ['keeps the first of a chain of forced states', [create, forced(2), forced(3, offChain(2)), forced(4)], at(4, 2)],
    [
      'resets solo_round at a co-signed state, also one below the forced ones',
      [create, forced(2), forced(3), co('ChannelDepositTx', 2)],
      at(2, 0),
    ],
    ['resets it at a snapshot', [create, forced(2), solo('ChannelSnapshotSoloTx', offChain(3))], at(3, 0)],
    [
      'keeps it at a solo close and a slash on a payload before the switch height',
      [create, forced(2), solo('ChannelCloseSoloTx', offChain(3)), solo('ChannelSlashTx', offChain(4))],
      at(4, 2),
    ],
    [
      'resets it at a solo close on a payload from the switch height',
      [create, forced(2), solo('ChannelCloseSoloTx', offChain(3), LATE)],
      at(3, 0),
    ],
    [
      'resets it at a slash from the switch height',
      [create, forced(2), solo('ChannelCloseSoloTx', EMPTY), solo('ChannelSlashTx', offChain(3), LATE)],
      at(3, 0),
    ],
    [
      'starts a new chain at a force progress on a payload from the switch height',
      [create, forced(2), forced(3, offChain(2), LATE)],
      at(3, 3),
    ],
    [
      'keeps the chain at a force progress on an empty payload from the switch height',
      [create, forced(2), forced(3, EMPTY, LATE)],
      at(3, 2),
    ],
    [
      'keeps the last state at a settle and a mutual close',
      [create, forced(2), { height: 20, tx: { type: 'ChannelSettleTx' } }],
      at(2, 2),
    ],
  ];
  for (const [what, txs, expected] of cases) it(what, () => expect(channelState(txs)).to.deep.equal(expected));
});
