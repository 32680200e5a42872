/**
 * @module The populator's account_balances rows (migration 1007): which accounts stored heights touched, and their
 * balances as the node gave them. The account_wealth ranking and the holders' count follow by triggers.
 */
import { KEY_TAGS } from '../../chain/id-key.ts';
import type { Queryable } from '../connection/pool.ts';
import type { HeightRange } from '../queries/height-range.ts';

/** An account a stored height touched, by its stored key (an `ak_` or `ok_` id: an oracle is its account). */
export interface TouchedAccount {
  readonly height: number;
  readonly key: Buffer;
}

/**
 * The ids of account_transactions whose balance moves: accounts, and oracles (the same key as their account). A
 * contract's account is not touched by being named (most calls move none of its AE): the balances area adds those
 * whose AE a transaction or an internal call moved, or may have (account-balances.ts).
 */
const BALANCE_TAGS = [KEY_TAGS.ak!, KEY_TAGS.ok!];

/**
 * touchedAccounts lists the accounts the stored heights from..to named, each with the highest such height, from
 * micro block `fromMicro` of height `from` on (−1: its key block too): every id a transaction names (its inner ones
 * and the accounts its names resolved to included) and both parties of a channel that closes. The accounts of the
 * range's internal transfers are not read here: the balances area has their rows already (balanceEvents), and
 * reading them twice was a third of this statement's cost.
 */
export async function touchedAccounts(db: Queryable, range: HeightRange): Promise<TouchedAccount[]> {
  const { rows } = await db.query<TouchedAccount>({
    name: 'mdw_touched_accounts',
    text: `WITH own AS (
             SELECT t.height, t.account FROM account_transactions t
              WHERE t.height BETWEEN $1 AND $2 AND (t.height > $1 OR t.micro_index >= $3)
                AND t.account & 7 = ANY ($4::int[])
             UNION ALL
             SELECT e.height, p.account FROM channel_events e
               JOIN channel_events c ON c.channel_id = e.channel_id AND c.tx_type = 'ChannelCreateTx'
               JOIN account_transactions p
                 ON p.height = c.height AND p.micro_index = c.micro_index AND p.tx_index = c.tx_index
                AND p.account & 7 = ANY ($4::int[])
              WHERE e.height BETWEEN $1 AND $2 AND (e.height > $1 OR e.micro_index >= $3) AND e.closes)
           -- each account's latest height first, then its key: one lookup per account, not one per row (a catch-up's
           -- 1000 mainnet-like heights: 67,000 rows, 150 ms -> 70 ms)
           , latest AS (SELECT max(height) AS height, account FROM own GROUP BY account)
           SELECT l.height, a.key FROM latest l JOIN account_ids a ON a.num = l.account`,
    values: [range.from, range.to, range.fromMicro, BALANCE_TAGS],
  });
  return rows;
}

/** A balance to store: the account's at the end of the range, at the last height of it that touched the account. */
export interface BalanceRow {
  readonly height: number;
  readonly accountId: string;
  readonly balance: bigint;
}

/**
 * replaceBalances stores the balances of a range in place of its rows: every row of heights from..to, or with
 * `fromMicro` ≥ 0 (micro blocks added to the stored top generation `from`), only the rows of the accounts given.
 */
export async function replaceBalances(db: Queryable, range: HeightRange, rows: readonly BalanceRow[]): Promise<void> {
  const accounts = rows.map((r) => r.accountId);
  await db.query({
    name: 'mdw_delete_account_balances',
    text: `DELETE FROM account_balances
            WHERE height BETWEEN $1 AND $2 AND ($3::int < 0 OR account_id = ANY ($4::text[]))`,
    values: [range.from, range.to, range.fromMicro, accounts],
  });
  if (rows.length === 0) return;
  await db.query({
    name: 'mdw_insert_account_balances',
    text: `INSERT INTO account_balances (height, account_id, balance)
           SELECT * FROM unnest($1::int[], $2::text[], $3::numeric[])`,
    values: [rows.map((r) => r.height), accounts, rows.map((r) => r.balance.toString())],
  });
}
