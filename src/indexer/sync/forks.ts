/**
 * @module Fork detection: compare the stored top K key hashes and the top generation's micro
 * blocks with the node's; find how far down a reorg reaches by walking parent links.
 */
import type { Queryable } from '../../db/connection/pool.ts';
import { keyHashAt, microBlockHashesAt, topKeyHashes, type StoredHash } from '../../db/queries/block-hashes.ts';
import type { NodeClient } from '../../node/client.ts';
import { isJsonObject } from '../../chain/json.ts';
import { NodeError } from '../../node/errors.ts';
import { mapLimit } from '../../base/workers.ts';
import { microBlockHashes } from './fetch.ts';
import type { FetchedGeneration } from '../rows/rows.ts';

/**
 * lowestMismatch is the lowest height (of a descending-or-any-order list) whose stored hash differs
 * from the node's (null: the node has no block there). Pure.
 */
export function lowestMismatch(
  stored: readonly StoredHash[],
  nodeHashes: readonly (string | null)[],
): number | undefined {
  let lowest: number | undefined;
  stored.forEach((s, i) => {
    if (nodeHashes[i] !== s.hash && (lowest === undefined || s.height < lowest)) lowest = s.height;
  });
  return lowest;
}

/**
 * linkBreak says where a generation does not follow the one stored (or fetched) below it: its
 * prev_key_hash must be the previous key hash and its prev_hash the previous generation's last
 * micro block (the key hash when it has none). Returns the previous height when broken. Pure.
 */
export function linkBreak(
  gen: FetchedGeneration,
  prev: { height: number; keyHash: string; lastMicroHash: string | null },
): number | undefined {
  if (prev.height !== gen.height - 1) return undefined;
  const kb = gen.keyBlock;
  return kb.prev_key_hash === prev.keyHash && kb.prev_hash === (prev.lastMicroHash ?? prev.keyHash)
    ? undefined
    : prev.height;
}

async function nodeKeyHash(node: NodeClient, height: number): Promise<string | null> {
  try {
    return String((await node.keyBlock(height)).hash);
  } catch (err) {
    if (err instanceof NodeError && err.notFound) return null;
    throw err;
  }
}

/**
 * agreeingBelow walks down from `height` until a stored key hash equals the node's; returns that
 * height (-1 when none agrees). The matched height is reloaded too, to refresh its micro blocks.
 * Not below `floor`: when the node disagrees there too, the fork reaches deeper and `floor - 1` is
 * returned at once, one request instead of a walk down a chain the node does not share; a floor above `height`
 * returns `height`.
 */
export async function agreeingBelow(db: Queryable, node: NodeClient, height: number, floor = 0): Promise<number> {
  // a walk that would start below its floor: the caller saw `height + 1` disagree already, so the fork reaches below
  // the floor from there (a whole FORK_WINDOW wider than MAX_FORK_DEPTH); -1 here named height 0 (issue 59)
  if (floor > height) return height;
  if (floor > 0) {
    const stored = await keyHashAt(db, floor);
    if (stored !== undefined && (await nodeKeyHash(node, floor)) !== stored) return floor - 1;
  }
  for (let h = height; h >= Math.max(0, floor); h--) {
    const stored = await keyHashAt(db, h);
    if (stored === undefined) return h; // a gap: nothing stored to disagree with below here
    if ((await nodeKeyHash(node, h)) === stored) return h;
  }
  return -1;
}

/** How the node's micro blocks of the stored top generation relate to the stored ones. */
export type TopChange = 'same' | 'grew' | 'forked';

/**
 * classifyTopMicroBlocks: 'grew' when the stored list is a strict prefix of the node's (the
 * generation only gained micro blocks), 'forked' when a stored hash is not at its position on the
 * node any more (replaced or dropped). Pure.
 */
export function classifyTopMicroBlocks(stored: readonly string[], node: readonly string[]): TopChange {
  if (stored.length > node.length || stored.some((h, i) => h !== node[i])) return 'forked';
  return stored.length === node.length ? 'same' : 'grew';
}

/** What the poll-time check found: a fork to roll back from, or a top generation that only grew. */
export type ForkCheck =
  | { readonly kind: 'fork'; readonly from: number }
  | { readonly kind: 'grew'; readonly height: number; readonly stored: number };

/**
 * checkForks compares the top `window` stored generations with the node: a key hash mismatch or
 * a changed micro block is a fork (from the lowest affected height); new micro blocks at the top
 * are growth. Undefined when everything agrees. A fork is looked for down to `maxDepth` generations
 * below the stored top; one deeper is reported as starting just below that. The node's key block at the stored top
 * is asked first: when it is the stored one, so is every generation below it (a key block's hash covers the key block
 * and the micro block before it, each of which covers the one before), and the rest of the window is not asked, one
 * request a poll instead of `window` while nothing forks.
 */
export async function checkForks(
  db: Queryable,
  node: NodeClient,
  window: number,
  concurrency: number,
  maxDepth = Infinity,
): Promise<ForkCheck | undefined> {
  const stored = await topKeyHashes(db, window);
  if (stored.length === 0) return undefined;
  const topHash = await nodeKeyHash(node, stored[0]!.height);
  const mismatch =
    topHash === stored[0]!.hash
      ? undefined
      : lowestMismatch(stored, [
          topHash,
          ...(await mapLimit(stored.slice(1), concurrency, (s) => nodeKeyHash(node, s.height))),
        ]);
  if (mismatch !== undefined) {
    const bottom = stored.at(-1)!;
    // the whole window differs: the reorg may be deeper than K, follow it down
    if (mismatch === bottom.height && bottom.height > 0) {
      // the walk stops below the deepest fork the populator may follow: the caller refuses a deeper one
      const floor = Math.max(0, stored[0]!.height - maxDepth + 1);
      return { kind: 'fork', from: Math.max(0, await agreeingBelow(db, node, bottom.height - 1, floor)) };
    }
    return { kind: 'fork', from: mismatch };
  }
  const top = stored[0]!;
  const storedMicro = await microBlockHashesAt(db, top.height);
  const generation = await node.generation(top.height);
  // the node may have replaced its top since its key hashes were read: a generation of another key block is a fork,
  // never growth (its micro blocks would be appended under the stored key block)
  const keyBlock = generation.key_block;
  if (isJsonObject(keyBlock) && keyBlock.hash !== top.hash) return { kind: 'fork', from: top.height };
  const change = classifyTopMicroBlocks(storedMicro, microBlockHashes(generation, top.height));
  if (change === 'same') return undefined;
  return change === 'grew'
    ? { kind: 'grew', height: top.height, stored: storedMicro.length }
    : { kind: 'fork', from: top.height };
}
