/** @module A reorg notice: what a websocket subscriber to `Reorgs` (`reorgs`) is told of a fork, once, before the new chain's blocks. Pure. */
import type { Reorg } from '../db/queries/reorgs.ts';

/** ReorgNotice is one logged reorg as the feed delivers it: its payload serialised once for every client. */
export interface ReorgNotice {
  /** the height from which this server sends the new chain's blocks (above the fork's when it is deeper than the memory) */
  readonly resentFrom: number;
  /** the blocks dropped */
  readonly dropped: readonly string[];
  readonly payload: string;
}

/**
 * reorgNotice is the message of a reorg: `height`, the lowest height a block was dropped at (the chain stepped back to
 * below it: every block under it stays); `dropped`, the key and micro block hashes gone, in chain order; `top`, the
 * stored top the fork left (its last block; null when nothing was left); `resent_from`, where this server's blocks of
 * the new chain start (`height`, unless the fork reaches deeper than the server remembers sending: then the blocks
 * between are not sent, read them over HTTP).
 */
export function reorgNotice(reorg: Reorg, resentFrom: number): ReorgNotice {
  const payload = JSON.stringify({
    height: reorg.fromHeight,
    dropped: reorg.dropped,
    top: reorg.top ?? null,
    resent_from: resentFrom,
  });
  return { resentFrom, dropped: reorg.dropped, payload };
}
