/**
 * @module Accounts' balances read straight from a channel's off-chain trees (`ss_` state trees, `pi_` proofs of
 * inclusion) where they have the shape a channel's state takes: accounts of version 1 and the other trees empty. The
 * answer is aepp-sdk's unpackEntry's (channel-proofs.ts), whose loading and unpacking of every tree, node hashes and all,
 * were a tenth of the channels' part of a load (issue 88); any other shape is UNREAD, left to it. Pure.
 */
import { decode, encode, hash } from './encoding.ts';
import { bytesToInt, rlpDecode, rlpEncode, type RlpItem } from './rlp.ts';

/** UNREAD: trees of a shape left to aepp-sdk (anything unexpected, or what only its validation would tell). */
export const UNREAD: unique symbol = Symbol('unread');

/** The balance of each id asked (undefined: not in the trees), or UNREAD. */
export type ReadBalances = (bigint | undefined)[] | typeof UNREAD;

/** The entry tags read here (aec_object_tags, aepp-sdk's EntryTag). */
const TAG = { account: 10, poi: 60, stateTrees: 62, mtree: 63, mtreeValue: 64, contractsMtree: 621 } as const;

const isBytes = (item: RlpItem | undefined): item is Uint8Array => item instanceof Uint8Array;
const hex = (bytes: Uint8Array): string => Buffer.from(bytes.buffer, bytes.byteOffset, bytes.length).toString('hex');

/** small is a tag's or version's value as aepp-sdk reads it (one to six bytes, big-endian); -1 for anything else. */
function small(item: RlpItem | undefined): number {
  if (!isBytes(item) || item.length === 0 || item.length > 6) return -1;
  let n = 0;
  for (const b of item) n = n * 256 + b;
  return n;
}

/** record is an RLP list of `size` items led by `tag` and `version`, else undefined. */
function record(item: RlpItem | undefined, tag: number, version: number, size: number): RlpItem[] | undefined {
  return Array.isArray(item) && item.length === size && small(item[0]) === tag && small(item[1]) === version
    ? item
    : undefined;
}

/** mtreeValues are a wrapped tree's (`tag`) key-value entries (its Mtree's values), else undefined. */
function mtreeValues(item: RlpItem | undefined, tag: number): RlpItem[] | undefined {
  if (!isBytes(item)) return undefined;
  const wrapped = record(rlpDecode(item), tag, 1, 3);
  if (!wrapped || !isBytes(wrapped[2])) return undefined;
  const values = record(rlpDecode(wrapped[2]), TAG.mtree, 1, 3)?.[2];
  return Array.isArray(values) ? values : undefined;
}

/** accountBalance is a version 1 account's balance; UNREAD for another version, undefined for no account. */
function accountBalance(item: RlpItem | undefined): bigint | undefined | typeof UNREAD {
  if (!isBytes(item)) return undefined;
  const account = rlpDecode(item);
  if (Array.isArray(account) && small(account[0]) === TAG.account && small(account[1]) !== 1) return UNREAD;
  const v1 = record(account, TAG.account, 1, 4);
  // aepp-sdk reads an empty integer as no number at all
  return v1 && isBytes(v1[2]) && v1[2].length > 0 && isBytes(v1[3]) && v1[3].length > 0 ? bytesToInt(v1[3]) : undefined;
}

/**
 * stateTreesBalances are the balances of `ids` in state trees (aepp-sdk's unpackEntry of EntryTag.StateTrees, its
 * `accounts` by id) when every other tree is empty and every account of version 1 (a channel's off-chain state).
 */
export function stateTreesBalances(trees: string, ids: readonly string[]): ReadBalances {
  try {
    const top = record(rlpDecode(decode(trees, ['ss']).bytes), TAG.stateTrees, 0, 8);
    if (!top) return UNREAD;
    // contracts, calls, channels, names and oracles (tags 621–625), then the accounts (626)
    for (let i = 2; i < 7; i++) if (mtreeValues(top[i], TAG.contractsMtree + i - 2)?.length !== 0) return UNREAD;
    const values = mtreeValues(top[7], TAG.contractsMtree + 5);
    if (!values) return UNREAD;
    const balances = new Map<string, bigint>();
    for (const value of values) {
      const entry = isBytes(value) ? record(rlpDecode(value), TAG.mtreeValue, 1, 4) : undefined;
      if (!entry || !isBytes(entry[2]) || entry[2].length !== 32) return UNREAD;
      const balance = accountBalance(entry[3]);
      if (typeof balance !== 'bigint') return UNREAD;
      // aepp-sdk's object of them: a key given twice holds its last account
      balances.set(encode('ak', entry[2]), balance);
    }
    return ids.map((id) => balances.get(id));
  } catch {
    return UNREAD;
  }
}

/**
 * poiBalances are the balances of `ids` (ak_) in a proof of inclusion (aepp-sdk's unpackEntry of EntryTag.TreesPoi, its
 * accounts' Merkle Patricia tree's `get`) when it proves accounts alone, in one tree, of version 1 where reached.
 */
export function poiBalances(poi: string, ids: readonly string[]): ReadBalances {
  try {
    if (!ids.every((id) => id.startsWith('ak_'))) return UNREAD;
    const top = record(rlpDecode(decode(poi, ['pi']).bytes), TAG.poi, 1, 8);
    if (!top) return UNREAD;
    for (let i = 3; i < 8; i++) if (!Array.isArray(top[i]) || top[i]!.length !== 0) return UNREAD;
    const trees = top[2];
    if (!Array.isArray(trees) || trees.length > 1) return UNREAD;
    if (trees.length === 0) return ids.map(() => undefined);
    const tree = proofTree(trees[0]);
    if (tree === UNREAD) return UNREAD;
    const balances: (bigint | undefined)[] = [];
    for (const id of ids) {
      let key: string;
      try {
        key = hex(decode(id, ['ak']).bytes);
      } catch {
        balances.push(undefined);
        continue;
      }
      const balance = accountBalance(treeValue(tree, key));
      if (balance === UNREAD) return UNREAD;
      balances.push(balance);
    }
    return balances;
  } catch {
    return UNREAD;
  }
}

/** A proof's tree: its root's hash and its nodes by hash (hex). */
interface ProofTree {
  readonly root: string;
  readonly nodes: ReadonlyMap<string, RlpItem[]>;
}

/**
 * proofTree is a proof's Merkle Patricia tree checked as aepp-sdk's MPTree checks it (each node's hash, each node's
 * kind, an extension's node present); UNREAD where that check would fail.
 */
function proofTree(item: RlpItem | undefined): ProofTree | typeof UNREAD {
  if (!Array.isArray(item) || item.length !== 2 || !isBytes(item[0]) || !Array.isArray(item[1])) return UNREAD;
  const nodes = new Map<string, RlpItem[]>();
  for (const pair of item[1]) {
    if (!Array.isArray(pair) || pair.length !== 2 || !isBytes(pair[0]) || !Array.isArray(pair[1])) return UNREAD;
    nodes.set(hex(pair[0]), pair[1]);
  }
  const root = hex(item[0]);
  // a root without its node: an empty proof (none held), or one aepp-sdk rejects
  if (!nodes.has(root) && nodes.size > 0) return UNREAD;
  for (const [id, node] of nodes) {
    if (hex(hash(rlpEncode(node))) !== id) return UNREAD;
    if (node.length === 17) {
      if (!node.slice(0, 16).every(isBytes)) return UNREAD;
    } else if (node.length === 2) {
      const nibble = pathNibble(node);
      if (nibble < 0 || nibble > 3) return UNREAD;
      if (nibble <= 1 && !(isBytes(node[1]) && nodes.has(hex(node[1])))) return UNREAD;
    } else return UNREAD;
  }
  return { root, nodes };
}

/** pathNibble is a two-item node's path's first nibble (0, 1 extension; 2, 3 leaf), -1 without a path. */
function pathNibble(node: readonly RlpItem[]): number {
  const path = node[0];
  return isBytes(path) && path.length > 0 ? path[0]! >> 4 : -1;
}

/**
 * treeValue is the value at `key` (hex) in a proof's tree, walked as aepp-sdk's MPTree walks it; undefined where the
 * proof does not reach it (a node it does not hold, a path that leaves the key).
 */
function treeValue(tree: ProofTree, key: string): RlpItem | undefined {
  let at = tree.root;
  let rest = key;
  for (;;) {
    const node = tree.nodes.get(at);
    if (node === undefined) return undefined;
    if (node.length === 17) {
      if (rest.length === 0) return (node[16] as Uint8Array | RlpItem[]).length !== 0 ? node[16] : undefined;
      at = hex(node[parseInt(rest[0]!, 16)] as Uint8Array);
      rest = rest.slice(1);
      continue;
    }
    const nibble = pathNibble(node);
    const path = hex(node[0] as Uint8Array).slice(nibble === 0 || nibble === 2 ? 2 : 1);
    if (nibble <= 1) {
      if (rest.slice(0, path.length) !== path) return undefined;
      at = hex(node[1] as Uint8Array);
      rest = rest.slice(path.length);
    } else return path === rest ? node[1] : undefined;
  }
}
