/**
 * @module Read-side SQL of account_balance_changes (migration 1100): an account's balance at a place (one index probe
 * on its latest change at or before it) and its changes in keyset pages, each with its block's time.
 */
import type { Queryable } from '../connection/pool.ts';
import type { PageReader } from './positions.ts';

/** A change's key in an account's history: its place and its order there. */
export interface ChangeKey {
  readonly height: number;
  readonly microIndex: number;
  readonly txIndex: number;
  readonly seq: number;
}

/** A stored change with its block's time. */
export interface BalanceChange extends ChangeKey {
  readonly kind: string;
  readonly txHash: string | null;
  readonly delta: string;
  readonly balance: string;
  readonly timeMs: string;
}

/** The end of a block: after everything at (height, microIndex); microIndex 2^31−1 for a whole generation. */
export interface BlockEnd {
  readonly height: number;
  readonly microIndex: number;
}

const MAX = 2_147_483_647;

/** AFTER_BLOCK: the `tx_index` of an 'unexplained' change, after every transaction of the block it is found at. */
export const AFTER_BLOCK = MAX;

/** WHOLE_GENERATION: the micro index that places a balance after all of a generation. */
export const WHOLE_GENERATION = MAX;

// a change's block: its micro block, or its key block at key-block level (and for a generation without micro blocks)
const TIME = `coalesce((SELECT m.time_ms FROM micro_blocks m WHERE m.height = c.height AND m.micro_index = c.micro_index),
                       (SELECT k.time_ms FROM key_blocks k WHERE k.height = c.height))::text AS "timeMs"`;
// a change's cause: the transaction it names, else the one at its place (balance-changes.ts keeps no hash it can read)
const TX_HASH = `coalesce(c.tx_hash, (SELECT t.hash FROM transactions t WHERE t.height = c.height
                                        AND t.micro_index = c.micro_index AND t.tx_index = c.tx_index)) AS "txHash"`;
const COLUMNS = `c.height, c.micro_index AS "microIndex", c.tx_index AS "txIndex", c.seq, c.kind, ${TX_HASH},
                 c.delta::text AS delta, c.balance::text AS balance, ${TIME}`;

/** lastChangeAt is an account's latest change at or before the end of a block (undefined: none). */
export async function lastChangeAt(db: Queryable, account: string, end: BlockEnd): Promise<BalanceChange | undefined> {
  const { rows } = await db.query<BalanceChange>({
    name: 'mdw_balance_change_at',
    text: `SELECT ${COLUMNS} FROM account_balance_changes c
            WHERE c.account_id = $1 AND (c.height, c.micro_index) <= ($2, $3)
            ORDER BY c.height DESC, c.micro_index DESC, c.tx_index DESC, c.seq DESC LIMIT 1`,
    values: [account, end.height, end.microIndex],
  });
  return rows[0];
}

/** firstChangeAfter is an account's first change after the end of a block (undefined: none). */
export async function firstChangeAfter(
  db: Queryable,
  account: string,
  end: BlockEnd,
): Promise<BalanceChange | undefined> {
  const { rows } = await db.query<BalanceChange>({
    name: 'mdw_balance_change_after',
    text: `SELECT ${COLUMNS} FROM account_balance_changes c
            WHERE c.account_id = $1 AND (c.height, c.micro_index) > ($2, $3)
            ORDER BY c.height, c.micro_index, c.tx_index, c.seq LIMIT 1`,
    values: [account, end.height, end.microIndex],
  });
  return rows[0];
}

/**
 * changesPage reads up to `n` of an account's changes walking forward or backward from `from` (inclusive; the
 * history's end for the walk without one), within heights first..last: a keyset walk of its index.
 */
export const changesPage: PageReader<
  { account: string; heights: { readonly first: number; readonly last: number } },
  ChangeKey,
  BalanceChange
> = async (db, { account, heights }, { walk, from, n }) => {
  const start =
    from ??
    (walk === 'forward'
      ? { height: heights.first, microIndex: -1, txIndex: -1, seq: -1 }
      : {
          height: heights.last,
          microIndex: MAX,
          txIndex: MAX,
          seq: 32_767,
        });
  const forward = walk === 'forward';
  const { rows } = await db.query<BalanceChange>({
    name: forward ? 'mdw_balance_changes_forward' : 'mdw_balance_changes_backward',
    text: forward
      ? `SELECT ${COLUMNS} FROM account_balance_changes c
          WHERE c.account_id = $1 AND (c.height, c.micro_index, c.tx_index, c.seq) >= ($2, $3, $4, $5)
            AND c.height <= $7
          ORDER BY c.height, c.micro_index, c.tx_index, c.seq LIMIT $6`
      : `SELECT ${COLUMNS} FROM account_balance_changes c
          WHERE c.account_id = $1 AND (c.height, c.micro_index, c.tx_index, c.seq) <= ($2, $3, $4, $5)
            AND c.height >= $7
          ORDER BY c.height DESC, c.micro_index DESC, c.tx_index DESC, c.seq DESC LIMIT $6`,
    values: [
      account,
      start.height,
      start.microIndex,
      start.txIndex,
      start.seq,
      n,
      forward ? heights.last : heights.first,
    ],
  });
  return rows;
};

/** blockAtTime is the end of the last stored block whose time is at or before `ms` (undefined: none is). */
export async function blockAtTime(db: Queryable, ms: number): Promise<BlockEnd | undefined> {
  const { rows } = await db.query<{ height: number; micro: number }>({
    name: 'mdw_block_at_time',
    text: `SELECT k.height,
                  coalesce((SELECT max(m.micro_index) FROM micro_blocks m
                             WHERE m.height = k.height AND m.time_ms <= $1), -1) AS micro
             FROM key_blocks k WHERE k.time_ms <= $1 ORDER BY k.time_ms DESC, k.height DESC LIMIT 1`,
    values: [ms],
  });
  return rows[0] ? { height: rows[0].height, microIndex: rows[0].micro } : undefined;
}

/**
 * blockOfHash is the end of the stored block a hash names: a key block's (its generation's key-block level, where its
 * rewards are: the state the node answers at `/v3/accounts/{id}/hash/kh_…`) or a micro block's (undefined: none is).
 */
export async function blockOfHash(db: Queryable, hash: string): Promise<BlockEnd | undefined> {
  const { rows } = await db.query<BlockEnd>({
    name: 'mdw_balance_block_of_hash',
    text: `SELECT height, micro_index AS "microIndex" FROM micro_blocks WHERE hash = $1
           UNION ALL
           SELECT height, -1 FROM key_blocks WHERE hash = $1`,
    values: [hash],
  });
  return rows[0];
}

/** blockHashAt is the hash of the block a block end is after: its last stored micro block, else its key block. */
export async function blockHashAt(db: Queryable, end: BlockEnd): Promise<string> {
  const { rows } = await db.query<{ hash: string }>({
    name: 'mdw_balance_block_hash_at',
    text: `SELECT coalesce((SELECT m.hash FROM micro_blocks m WHERE m.height = $1 AND m.micro_index <= $2
                             ORDER BY m.micro_index DESC LIMIT 1),
                           (SELECT k.hash FROM key_blocks k WHERE k.height = $1)) AS hash`,
    values: [end.height, end.microIndex],
  });
  return rows[0]!.hash;
}
