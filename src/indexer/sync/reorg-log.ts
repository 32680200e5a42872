/**
 * @module What a rollback or a reload dropped, for the reorg log (migrations/1028_reorgs.sql): the blocks stored before
 * that the transaction does not write again. A reload that writes the same blocks, or a fork that kept a generation's
 * first micro blocks, drops only what changed.
 */
import type { Queryable } from '../../db/connection/pool.ts';
import { blockHashesInOrder, type StoredHash } from '../../db/queries/block-hashes.ts';
import { recordReorg } from '../../db/writes/reorgs.ts';
import type { FetchedGeneration } from '../rows/rows.ts';

/** droppedBlocks lists the blocks of `before` (chain order) that `written` does not hold. Pure. */
export function droppedBlocks(before: readonly StoredHash[], written: readonly FetchedGeneration[]): StoredHash[] {
  const kept = new Set(
    written.flatMap((g) => [String(g.keyBlock.hash), ...g.microBlocks.map((m) => String(m.header.hash))]),
  );
  return before.filter((b) => !kept.has(b.hash));
}

/**
 * ReorgLog reads the stored blocks a transaction is about to delete (every height from `from` on, or the heights
 * listed) and, once the transaction wrote its generations, logs those it dropped, in the same transaction.
 */
export class ReorgLog {
  readonly #before: readonly StoredHash[];

  private constructor(before: readonly StoredHash[]) {
    this.#before = before;
  }

  static async before(db: Queryable, heights: { from: number } | readonly number[]): Promise<ReorgLog> {
    return new ReorgLog(await blockHashesInOrder(db, heights));
  }

  /** record logs what `written` does not hold again (nothing when it holds every block deleted). */
  async record(db: Queryable, written: readonly FetchedGeneration[]): Promise<void> {
    const dropped = droppedBlocks(this.#before, written);
    if (dropped.length > 0) await recordReorg(db, dropped);
  }
}
