/**
 * @module The parts of the channel transactions the tests script against the devnode (which checks no proof and runs
 * no off-chain code): made-up state hashes, unsigned off-chain payloads, an empty proof of inclusion or one of two
 * parties' balances and off-chain state trees of theirs (the devnode's, off-chain-trees.ts), a forced call.
 */
import { encode } from '../../src/chain/encoding.ts';
import { encodeSignedTx, encodeTx } from '../../src/devnode/tx-codec.ts';

export { EMPTY_POI, poiOfBalances, treesOfBalances } from '../../src/devnode/traffic/off-chain-trees.ts';

/** stateHash is a made-up state hash, one per round. */
export const stateHash = (round: number): string => encode('st', Buffer.alloc(32, round));

/** offChainPayload is a ChannelOffChainTx of `round` (with stateHash(round)) as a payload, without signatures. */
export function offChainPayload(channel: string, round: number): string {
  const tx = { type: 'ChannelOffChainTx', version: 2, channel_id: channel, round, state_hash: stateHash(round) };
  return encode('tx', encodeSignedTx([], encodeTx(tx)));
}

/** forcedCall is a force progress's update: a contract call by `caller` (the devnode runs none). */
export const forcedCall = (caller: string): { [key: string]: string | number | [] } => ({
  op: 'OffChainCallContract',
  caller_id: caller,
  contract_id: encode('ct', Buffer.alloc(32, 7)),
  abi_version: 3,
  amount: 0,
  call_data: encode('cb', Buffer.alloc(8, 1)),
  call_stack: [],
  gas_price: 1_000_000_000,
  gas: 10_000,
});
