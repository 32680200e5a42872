/**
 * @module The balances area's account_balance_changes rows (migration 1100): a range's rows replaced by those derived
 * again (a batch's, or stored heights' the backfill derives).
 */
import type { Queryable } from '../connection/pool.ts';
import type { HeightRange } from '../queries/height-range.ts';
import { insertMany } from './bulk-load.ts';

/** A change of an account's balance at its place, with the balance after it. */
export interface BalanceChangeRow {
  readonly accountId: string;
  readonly height: number;
  readonly microIndex: number;
  readonly txIndex: number;
  readonly seq: number;
  readonly kind: string;
  readonly txHash: string | null;
  readonly delta: bigint;
  readonly balance: bigint;
}

/**
 * replaceBalanceChanges stores a range's changes in place of its rows: those of heights from..to, from micro block
 * `fromMicro` of `from` on (a generation's key-block rows stay when a batch adds micro blocks to it).
 */
export async function replaceBalanceChanges(
  db: Queryable,
  range: HeightRange,
  rows: readonly BalanceChangeRow[],
): Promise<void> {
  await db.query({
    name: 'mdw_delete_balance_changes',
    text: `DELETE FROM account_balance_changes
            WHERE height BETWEEN $1 AND $2 AND (height > $1 OR micro_index >= $3)`,
    values: [range.from, range.to, range.fromMicro],
  });
  await insertMany(
    db,
    'account_balance_changes',
    [
      ['account_id', 'text'],
      ['height', 'int'],
      ['micro_index', 'int'],
      ['tx_index', 'int'],
      ['seq', 'smallint'],
      ['kind', 'text'],
      ['tx_hash', 'text'],
      ['delta', 'numeric'],
      ['balance', 'numeric'],
    ],
    [
      rows.map((r) => r.accountId),
      rows.map((r) => r.height),
      rows.map((r) => r.microIndex),
      rows.map((r) => r.txIndex),
      rows.map((r) => r.seq),
      rows.map((r) => r.kind),
      rows.map((r) => r.txHash),
      rows.map((r) => r.delta.toString()),
      rows.map((r) => r.balance.toString()),
    ],
  );
}
