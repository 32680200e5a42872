/**
 * @module Read-side SQL for AEX-9 balances: a token's holders (now, or at a block from its events), one account's
 * balance and its history, an account's tokens, and a token's transfers.
 */
import type { Queryable } from '../connection/pool.ts';
import type { LogKey } from './contracts.ts';
import { keyset, logKeyset, logKeyValues, type PageReader } from './positions.ts';
import { txTypeNameSql } from './transactions.ts';

/**
 * A state of the chain: after every event up to this micro block of this height (inclusive). A key block at
 * height h stands for the state before generation h's micro blocks: (h - 1, MAX_MICRO).
 */
export interface BlockBound {
  readonly height: number;
  readonly microIndex: number;
}

/** Above any micro index: the end of a generation. */
export const MAX_MICRO = 2 ** 31 - 1;

/** A holder's balance with its latest event at that state. */
export interface HolderRow {
  readonly account: string;
  readonly amount: string;
  readonly height: number;
  readonly blockHash: string;
  readonly lastTxHash: string;
  readonly lastLogIdx: number;
}

/** A place in a holders list: the account, and the amount when ordered by amount. */
export interface HolderKey {
  readonly account: string;
  readonly amount?: string;
}

/** Which holders list a holdersPage reads: a token's, by account or by amount, now or at a block. */
export interface HolderList {
  readonly contractId: string;
  readonly by: 'pubkey' | 'amount';
  readonly at?: BlockBound | undefined;
}

/**
 * holdersPage reads up to n positive balances of a token, by account key or by amount (then account), walking
 * from a key (inclusive). Without `at` it reads the kept balances (an index walk); with it, each account's balance
 * kept at its latest event up to that block (aex9_event_balances, migration 1050: a probe per account), walking the
 * token's accounts by key, or all of them for the order by amount.
 */
export const holdersPage: PageReader<HolderList, HolderKey, HolderRow> = async (
  db,
  { contractId, by, at },
  { walk, from, n },
) => {
  const values: unknown[] = [n, contractId, from?.account ?? null];
  const param = (value: unknown, type: string): string => `$${values.push(value)}::${type}`;
  const ks =
    by === 'amount'
      ? keyset(['b.amount', 'b.account'], walk, `${param(from?.amount ?? null, 'numeric')}, $3::text`)
      : keyset(['b.account'], walk, '$3::text');
  const balances =
    at === undefined
      ? 'SELECT account, amount, height, micro_index, log_idx, tx_hash FROM aex9_balances WHERE contract_id = $2'
      : `SELECT a.account, r.balance AS amount, r.height, r.micro_index, r.log_idx,
                (SELECT e.tx_hash FROM aex9_events e
                  WHERE e.contract_id = a.contract_id AND e.account = a.account AND e.height = r.height
                    AND e.micro_index = r.micro_index AND e.tx_index = r.tx_index AND e.log_idx = r.log_idx
                    AND e.side = r.side) AS tx_hash
           FROM aex9_balances a
           CROSS JOIN LATERAL (${balanceAtSql('a.contract_id', 'a.account', param(at.height, 'int'), param(at.microIndex, 'int'))}) r
          WHERE a.contract_id = $2
            ${by === 'pubkey' ? `AND ($3::text IS NULL OR ${keyset(['a.account'], walk, '$3::text').where})` : ''}`;
  const { rows } = await db.query<HolderRow>(
    `SELECT b.account, b.amount::text AS amount, b.height, m.hash AS "blockHash", b.tx_hash AS "lastTxHash",
            b.log_idx AS "lastLogIdx"
       FROM (${balances}) b
       JOIN micro_blocks m ON m.height = b.height AND m.micro_index = b.micro_index
      WHERE b.amount > 0 AND ($3::text IS NULL OR ${ks.where})
      ORDER BY ${ks.order} LIMIT $1`,
    values,
  );
  return rows;
};

/**
 * balanceAtSql is the kept balance row of one account's token (`contract`, `account`: SQL expressions) at its latest
 * event up to the end of micro block `micro` of `height` (no row: the account had no event by then).
 */
function balanceAtSql(contract: string, account: string, height: string, micro: string): string {
  return `SELECT r.balance, r.height, r.micro_index, r.tx_index, r.log_idx, r.side FROM aex9_event_balances r
           WHERE r.contract_id = ${contract} AND r.account = ${account} AND (r.height, r.micro_index) <= (${height}, ${micro})
           ORDER BY r.height DESC, r.micro_index DESC, r.tx_index DESC, r.log_idx DESC, r.side DESC LIMIT 1`;
}

/** accountAmount is an account's balance of a token, now or at a block (null: the account never held it). */
export async function accountAmount(
  db: Queryable,
  contractId: string,
  account: string,
  at?: BlockBound,
): Promise<string | null> {
  const { rows } = await db.query<{ amount: string | null }>(
    at === undefined
      ? `SELECT (SELECT amount::text FROM aex9_balances WHERE contract_id = $1 AND account = $2) AS amount`
      : `SELECT (SELECT balance::text FROM (${balanceAtSql('$1', '$2', '$3::int', '$4::int')}) r) AS amount`,
    at === undefined ? [contractId, account] : [contractId, account, at.height, at.microIndex],
  );
  return rows[0]?.amount ?? null;
}

/**
 * balancesBefore is an account's balance of a token before each of the given heights (at the key block: after every
 * event of the heights below), one probe each; null before its first event.
 */
export async function balancesBefore(
  db: Queryable,
  contractId: string,
  account: string,
  heights: readonly number[],
): Promise<(string | null)[]> {
  const { rows } = await db.query<{ amount: string | null }>(
    `SELECT (SELECT balance::text FROM (${balanceAtSql('$1', '$2', 'h.height - 1', String(MAX_MICRO))}) r) AS amount
       FROM unnest($3::int[]) WITH ORDINALITY h(height, i)
      ORDER BY h.i`,
    [contractId, account, heights],
  );
  return rows.map((r) => r.amount);
}

/** An account's balance of one token with the token's meta info and the balance's latest transaction. */
export interface AccountTokenRow {
  readonly contractId: string;
  readonly amount: string;
  readonly name: string;
  readonly symbol: string;
  readonly decimals: number | null;
  readonly height: number;
  readonly blockHash: string;
  readonly txHash: string;
  /** ae_mdw's txi of that transaction (int8 as text; null for a generation without its generation_txis row) */
  readonly txIndex: string | null;
  readonly txType: string;
  readonly incomplete: boolean;
}

/** accountTokensPage reads up to n of an account's AEX-9 balances, by token key, walking from a token (inclusive). */
export const accountTokensPage: PageReader<string, string, AccountTokenRow> = async (db, account, window) => {
  const ks = keyset(['(b.contract_id COLLATE "C")'], window.walk, '$3::text');
  // the page is chosen among the account's balances first; only its rows are joined with their blocks
  const { rows } = await db.query<AccountTokenRow>(
    `SELECT p.contract_id AS "contractId", p.amount::text AS amount, p.name, p.symbol, p.decimals, p.height,
            m.hash AS "blockHash", p.tx_hash AS "txHash", ${txTypeNameSql('t')} AS "txType",
            ((SELECT g.first_txi FROM generation_txis g WHERE g.height = p.height)
              + (SELECT coalesce(sum(x.tx_count), 0) FROM micro_blocks x
                  WHERE x.height = p.height AND x.micro_index < p.micro_index)
              + t.tx_index)::text AS "txIndex",
            coalesce(p.balances_unknown OR p.created <= (SELECT max(x.height) FROM contract_calls x WHERE x.call_info_pruned),
                     false) AS incomplete
       FROM (SELECT b.contract_id, b.amount, b.height, b.micro_index, b.tx_hash, c.name, c.symbol, c.decimals,
                    c.balances_unknown, c.height AS created
               FROM aex9_balances b
               JOIN aexn_contracts c ON c.contract_id = b.contract_id AND NOT c.meta_invalid
              WHERE b.account = $2 AND ($3::text IS NULL OR ${ks.where})
              ORDER BY ${ks.order} LIMIT $1) p
       JOIN micro_blocks m ON m.height = p.height AND m.micro_index = p.micro_index
       JOIN transactions t ON t.hash = p.tx_hash
      ORDER BY ${keyset(['(p.contract_id COLLATE "C")'], window.walk, undefined).order}`,
    [window.n, account, window.from ?? null],
  );
  return rows;
};

/** A Transfer event of a token. */
export interface Aex9TransferRow extends LogKey {
  readonly contractId: string;
  readonly sender: string;
  readonly recipient: string;
  readonly amount: string;
  readonly txHash: string;
  readonly microTime: string;
}

/** Which transfers of a token: from an account, to one, or either. */
export type Aex9TransferFilter =
  { readonly sender: string } | { readonly recipient: string } | { readonly account: string };

/** aex9TransfersPage reads up to n transfers of a token matching the filter, walking from an event (inclusive). */
export const aex9TransfersPage: PageReader<
  { readonly contractId: string } & Aex9TransferFilter,
  LogKey,
  Aex9TransferRow
> = async (db, { contractId, ...filter }, { walk, from, n }) => {
  const ks = logKeyset('x', walk, 4);
  const side = 'sender' in filter ? 'sender' : 'recipient' in filter ? 'recipient' : undefined;
  const account = 'sender' in filter ? filter.sender : 'recipient' in filter ? filter.recipient : filter.account;
  // a side's page walks that side's index (the account's transfers in chain order) until it holds a page of the
  // token's; either side's page is the merge of the two sides' own pages (a transfer to oneself once), never all of
  // the account's transfers sorted
  const sidePage = (column: string): string =>
    `(SELECT * FROM aex9_transfers x WHERE x.${column} = $3 AND x.contract_id = $2 AND ($4::int IS NULL OR ${ks.where})
       ORDER BY ${ks.order} LIMIT $1)`;
  const matching = side === undefined ? `(${sidePage('sender')} UNION ${sidePage('recipient')})` : sidePage(side);
  const { rows } = await db.query<Aex9TransferRow>(
    `SELECT x.contract_id AS "contractId", x.sender, x.recipient, x.amount::text AS amount, x.height,
            x.micro_index AS "microIndex", x.tx_index AS "txIndex", x.log_idx AS "logIdx", x.tx_hash AS "txHash",
            t.micro_time_ms::text AS "microTime"
       FROM ${matching} x
       JOIN transactions t ON t.hash = x.tx_hash
      ORDER BY ${ks.order} LIMIT $1`,
    [n, contractId, account, ...logKeyValues(from)],
  );
  return rows;
};

/** blockBound is the state a stored block hash stands for (undefined when no stored block has the hash). */
export async function blockBound(db: Queryable, hash: string): Promise<BlockBound | undefined> {
  const { rows } = await db.query<BlockBound>(
    `SELECT height, micro_index AS "microIndex" FROM micro_blocks WHERE hash = $1
     UNION ALL
     SELECT height - 1, ${MAX_MICRO} FROM key_blocks WHERE hash = $1`,
    [hash],
  );
  return rows[0];
}
