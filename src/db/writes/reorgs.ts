/** @module The reorg log's write (migrations/1028_reorgs.sql), in the transaction of the rollback or reload it records. */
import type { Queryable } from '../connection/pool.ts';
import type { StoredHash } from '../queries/block-hashes.ts';

/** Rows the log keeps: a server further behind than this many forks reads the rest from the blocks alone. */
const KEPT_ROWS = 1000;

/**
 * recordReorg logs the blocks a transaction dropped (chain order, at least one), with the stored top as the
 * transaction leaves it. The table's lock, held to the commit, numbers rows in commit order: a second writer waits
 * here until the first has committed, then numbers its row after it.
 */
export async function recordReorg(db: Queryable, dropped: readonly StoredHash[]): Promise<void> {
  await db.query('LOCK TABLE reorgs IN EXCLUSIVE MODE');
  await db.query(
    `WITH top AS (
       SELECT k.height, coalesce((SELECT m.hash FROM micro_blocks m WHERE m.height = k.height
                                   ORDER BY m.micro_index DESC LIMIT 1), k.hash) AS hash
         FROM key_blocks k ORDER BY k.height DESC LIMIT 1)
     INSERT INTO reorgs (seq, from_height, dropped, top_height, top_hash)
     SELECT coalesce((SELECT max(seq) FROM reorgs), 0) + 1, $1, $2::text[], (SELECT height FROM top), (SELECT hash FROM top)`,
    // chain order: the first is the lowest (a spread of a deep reload's hashes would overflow the stack)
    [dropped[0]!.height, dropped.map((d) => d.hash)],
  );
  await db.query('DELETE FROM reorgs WHERE seq <= (SELECT max(seq) FROM reorgs) - $1', [KEPT_ROWS]);
}
