/** @module The node's channel state rules as the middleware folds them: one case per rule of aesc_channels. */
import { expect } from 'chai';
import { encode } from '../../../src/chain/encoding.ts';
import { intToBytes, rlpEncode } from '../../../src/chain/rlp.ts';
import { channelState, SOLO_ROUND_SWITCH_HEIGHT, type ChannelTx } from '../../../src/chain/channel-state.ts';
import { EMPTY_POI, poiOfBalances, treesOfBalances } from '../../support/channel-txs.ts';

const CHANNEL = encode('ch', Buffer.alloc(32, 7));
const st = (round: number): string => encode('st', Buffer.alloc(32, round));
/** offChain is a signed `[57, 2, channel_id, round, state_hash]`, as a solo transaction's payload carries it. */
const offChain = (round: number): string => {
  const id = Buffer.concat([Buffer.from([6]), Buffer.alloc(32, 7)]);
  const tx = rlpEncode([intToBytes(57), intToBytes(2), id, intToBytes(round), Buffer.alloc(32, round)]);
  return encode('tx', rlpEncode([intToBytes(11), intToBytes(1), [], tx]));
};
const EMPTY = 'tx_';

const [I, R] = [encode('ak', Buffer.alloc(32, 1)), encode('ak', Buffer.alloc(32, 2))];
// the transactions of one channel, as channel_events holds them (unwrapped), each at height 10 unless moved
const create: ChannelTx = {
  height: 1,
  tx: {
    type: 'ChannelCreateTx',
    initiator_id: I,
    initiator_amount: 100,
    responder_id: R,
    responder_amount: 50,
    channel_reserve: 10,
    state_hash: st(1),
  },
};
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
  initiatorAmount: 100n,
  responderAmount: 50n,
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

describe("channelState(txs): the parties' on-chain amounts (aesc_channels: creation, close_solo_int, force_progress)", () => {
  const amounts = (txs: ChannelTx[]): [bigint, bigint] => {
    const s = channelState(txs);
    return [s.initiatorAmount, s.responderAmount];
  };
  const moved = (type: string, round: number): ChannelTx => ({
    ...co(type, round),
    tx: { ...co(type, round).tx, amount: 30 },
  });
  const proven = (type: string, i: bigint, r: bigint): ChannelTx => ({
    height: 10,
    tx: {
      type,
      payload: offChain(5),
      poi: poiOfBalances([
        [I, i],
        [R, r],
      ]),
    },
  });
  const progressed = (i: bigint, r: bigint, caller: string, amount: number): ChannelTx => ({
    height: 10,
    tx: {
      ...forced(6).tx,
      offchain_trees: treesOfBalances([
        [I, i],
        [R, r],
      ]),
      update: { op: 'OffChainCallContract', caller_id: caller, amount },
    },
  });

  it("keeps the creation's through deposits and withdrawals, which move the channel's amount only", () => {
    expect(amounts([create, moved('ChannelDepositTx', 2), moved('ChannelWithdrawTx', 3)])).to.deep.equal([100n, 50n]);
  });

  it("takes a solo close's and a slash's proof, and keeps them at a proof without both parties", () => {
    expect(amounts([create, proven('ChannelCloseSoloTx', 70n, 80n)])).to.deep.equal([70n, 80n]);
    expect(amounts([create, proven('ChannelCloseSoloTx', 70n, 80n), proven('ChannelSlashTx', 1n, 2n)])).to.deep.equal([
      1n,
      2n,
    ]);
    const empty: ChannelTx = { height: 10, tx: { type: 'ChannelCloseSoloTx', payload: EMPTY, poi: EMPTY_POI } };
    expect(amounts([create, moved('ChannelDepositTx', 2), empty])).to.deep.equal([100n, 50n]);
  });

  it("takes a force progress's trees after its call: its amount leaves a caller that keeps the reserve", () => {
    expect(amounts([create, progressed(40n, 60n, R, 7)])).to.deep.equal([40n, 53n]);
    // a caller left below the reserve (10): the call fails, nothing moves
    expect(amounts([create, progressed(40n, 15n, R, 7)])).to.deep.equal([40n, 15n]);
    // trees without the parties keep them
    const blind: ChannelTx = { height: 10, tx: { ...forced(6).tx, offchain_trees: encode('ss', Buffer.alloc(16)) } };
    expect(amounts([create, proven('ChannelCloseSoloTx', 70n, 80n), blind])).to.deep.equal([70n, 80n]);
  });
});
