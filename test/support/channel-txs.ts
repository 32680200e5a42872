/**
 * @module The parts of the channel transactions the tests script against the devnode (which checks no proof and runs
 * no off-chain code): made-up state hashes, unsigned off-chain payloads, an empty proof of inclusion or one of two
 * parties' balances, a forced call.
 */
import { EntryTag, hash, packEntry } from '@aeternity/aepp-sdk';
import { decode, encode } from '../../src/chain/encoding.ts';
import { intToBytes, rlpEncode, type RlpItem } from '../../src/chain/rlp.ts';
import { encodeSignedTx, encodeTx } from '../../src/devnode/tx-codec.ts';

/** stateHash is a made-up state hash, one per round. */
export const stateHash = (round: number): string => encode('st', Buffer.alloc(32, round));

/** EMPTY_POI is a proof of inclusion with no trees (the devnode checks none). */
export const EMPTY_POI = encode('pi', rlpEncode([intToBytes(60), intToBytes(1), [], [], [], [], [], []]));

/**
 * poiOfBalances is a proof of inclusion of an off-chain state holding two accounts with these balances (the parties',
 * which a solo close or slash makes the channel's amounts): its accounts tree a Merkle Patricia tree of a branch, after
 * an extension for the keys' common nibbles, and two leaves, each node named by its blake2b hash, the accounts packed
 * by aepp-sdk (aec_trees:poi, aec_poi).
 */
export function poiOfBalances(balances: readonly (readonly [string, bigint])[]): string {
  const nibbles = (id: string): string => decode(id).bytes.toString('hex');
  const [a, b] = balances.map(([id]) => nibbles(id)) as [string, string];
  let common = 0;
  while (a[common] === b[common]) common += 1;
  // a path's hex prefix: its kind (0 extension, 2 leaf) plus 1 when its length is odd, then its nibbles
  const path = (rest: string, leaf: boolean): Uint8Array =>
    Buffer.from(`${(leaf ? 2 : 0) + (rest.length % 2)}${rest.length % 2 ? '' : '0'}${rest}`, 'hex');
  const nodes: [Uint8Array, RlpItem][] = [];
  const named = (node: RlpItem): Uint8Array => {
    const id = hash(rlpEncode(node));
    nodes.push([id, node]);
    return id;
  };
  const branch: RlpItem[] = Array.from({ length: 17 }, () => new Uint8Array(0));
  for (const [id, balance] of balances) {
    const key = nibbles(id);
    const account = decode(packEntry({ tag: EntryTag.Account, version: 1, nonce: 0, balance })).bytes;
    branch[parseInt(key[common]!, 16)] = named([path(key.slice(common + 1), true), account]);
  }
  const top = named(branch);
  const root = common === 0 ? top : named([path(a.slice(0, common), false), top]);
  return encode('pi', rlpEncode([intToBytes(60), intToBytes(1), [[root, nodes]], [], [], [], [], []]));
}

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
