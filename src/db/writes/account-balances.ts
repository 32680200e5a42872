/**
 * @module The populator's account_balances rows (migration 1007): which accounts stored heights touched, and their
 * balances as the node gave them. The account_wealth ranking and the holders' count follow by triggers.
 */
import { KEY_TAGS } from '../../chain/id-key.ts';
import type { Queryable } from '../connection/pool.ts';
import type { HeightRange } from '../queries/height-range.ts';

/**
 * An account a stored height touched: by its stored key (an `ak_` or `ok_` id of account_transactions; an oracle is
 * its account) or by its text (an internal transfer's account, a channel's party, the locked-coins account);
 * `contract` for a Lima contract's account, which its fork's amount credits.
 */
export interface TouchedAccount {
  readonly height: number;
  readonly key: Buffer | null;
  readonly id: string | null;
  readonly contract: boolean;
}

/**
 * The ids of account_transactions whose balance moves: accounts, and oracles (the same key as their account). A
 * contract's account is not touched by being named (most calls move none of its AE): the balances area adds those
 * whose AE a transaction or an internal call moved, or may have (account-balances.ts).
 */
const BALANCE_TAGS = [KEY_TAGS.ak!, KEY_TAGS.ok!];

/**
 * touchedAccounts lists the accounts the stored heights from..to touched, each with the highest such height, from
 * micro block `fromMicro` of height `from` on (−1: its key block too): every id a transaction names (its inner ones
 * and the accounts its names resolved to included), every internal transfer's account
 * (rewards, name fees and refunds, oracle rewards and refunds, genesis and fork credits, Lima's contracts' amounts),
 * both parties of a channel that closes, and the locked-coins account where a name's fee or an auction's winning bid moved to it.
 */
export async function touchedAccounts(
  db: Queryable,
  range: HeightRange,
  lockedCoins: string,
): Promise<TouchedAccount[]> {
  const { rows } = await db.query<TouchedAccount>({
    name: 'mdw_touched_accounts',
    text: `WITH own AS (
             SELECT t.height, t.account, NULL::text AS id, false AS contract FROM account_transactions t
              WHERE t.height BETWEEN $1 AND $2 AND (t.height > $1 OR t.micro_index >= $3)
                AND t.account & 7 = ANY ($4::int[])
             UNION ALL
             SELECT i.height, NULL, i.account_id, i.kind = 'contracts_lima' FROM internal_transfers i
              WHERE i.height BETWEEN $1 AND $2 AND (i.height > $1 OR i.micro_index >= $3)
                AND i.account_id LIKE 'ak\\_%'
             UNION ALL
             SELECT i.height, NULL, $5, false FROM internal_transfers i
              WHERE i.height BETWEEN $1 AND $2 AND (i.height > $1 OR i.micro_index >= $3)
                AND i.kind IN ('fee_lock_name', 'fee_spend_name')
             UNION ALL
             SELECT e.height, p.account, NULL, false FROM channel_events e
               JOIN channel_events c ON c.channel_id = e.channel_id AND c.tx_type = 'ChannelCreateTx'
               JOIN account_transactions p
                 ON p.height = c.height AND p.micro_index = c.micro_index AND p.tx_index = c.tx_index
                AND p.account & 7 = ANY ($4::int[])
              WHERE e.height BETWEEN $1 AND $2 AND (e.height > $1 OR e.micro_index >= $3) AND e.closes)
           -- each account's latest height first, then its key: one lookup per account, not one per row (a catch-up's
           -- 1000 mainnet-like heights: 67,000 rows, 150 ms -> 70 ms)
           , latest AS (SELECT max(height) AS height, account, id, bool_or(contract) AS contract FROM own GROUP BY account, id)
           SELECT max(l.height) AS height, a.key, l.id, bool_or(l.contract) AS contract
             FROM latest l LEFT JOIN account_ids a ON a.num = l.account
            GROUP BY a.key, l.id`,
    values: [range.from, range.to, range.fromMicro, BALANCE_TAGS, lockedCoins],
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
