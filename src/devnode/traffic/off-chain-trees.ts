/**
 * @module Off-chain trees that channel transactions carry, made for the parties' balances of an off-chain state: a
 * solo close's or slash's proof of inclusion (`pi_`) and a force progress's state trees (`ss_`). The devnode checks
 * neither against a state hash, but reads the parties' balances in them (src/chain/channel-proofs.ts). Pure.
 */
import { decode, encode, hash } from '../../chain/encoding.ts';
import { intToBytes, rlpEncode, type RlpItem } from '../../chain/rlp.ts';
import { entryBuilder, type EntryBuilder } from '../../chain/sdk-entry.ts';

/** Balances are accounts' balances in an off-chain state: [ak_…, balance] pairs. */
export type Balances = readonly (readonly [string, bigint])[];

/** EMPTY_POI is a proof of inclusion with no trees: `[60, 1, [], [], [], [], [], []]`. */
export const EMPTY_POI = encode('pi', rlpEncode([intToBytes(60), intToBytes(1), [], [], [], [], [], []]));

const packedAccount = (balance: bigint): Uint8Array => {
  const { packEntry, EntryTag } = entryBuilder();
  return decode(packEntry({ tag: EntryTag.Account, version: 1, nonce: 0, balance })).bytes;
};

/**
 * poiOfBalances is a proof of inclusion of an off-chain state holding two accounts with these balances: its accounts
 * tree a Merkle Patricia tree of a branch, after an extension for the keys' common nibbles, and two leaves, each node
 * named by its blake2b hash, the accounts packed by aepp-sdk (aec_trees:poi, aec_poi).
 */
export function poiOfBalances(balances: Balances): string {
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
    branch[parseInt(key[common]!, 16)] = named([path(key.slice(common + 1), true), packedAccount(balance)]);
  }
  const top = named(branch);
  const root = common === 0 ? top : named([path(a.slice(0, common), false), top]);
  return encode('pi', rlpEncode([intToBytes(60), intToBytes(1), [[root, nodes]], [], [], [], [], []]));
}

/** treesOfBalances is off-chain state trees (`ss_`, aec_trees) whose accounts are these, packed by aepp-sdk. */
export function treesOfBalances(balances: Balances): string {
  const { packEntry, EntryTag } = entryBuilder();
  const accounts = Object.fromEntries(balances.map(([id, balance]) => [id, { version: 1, nonce: 0, balance }]));
  // aepp-sdk types the map's entries as the latest account version: version 1 is what a channel's accounts are
  return packEntry({
    tag: EntryTag.StateTrees,
    contracts: {},
    calls: {},
    channels: {},
    ns: {},
    oracles: {},
    accounts,
  } as unknown as Parameters<EntryBuilder['packEntry']>[0]);
}
