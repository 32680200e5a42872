/**
 * @module Read-side SQL for AEX-9 balances: a token's holders (now, or at a block from its events), one account's
 * balance and its history, an account's tokens, and a token's transfers.
 */
import type { Queryable } from '../pool.ts';
import type { LogKey } from './contracts.ts';
import { keyset, logKeyset, logKeyValues, type Walk } from './positions.ts';
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
 * from a key (inclusive). Without `at` it reads the kept balances (an index walk); with it, the sums of the
 * events up to that block.
 */
export async function holdersPage(
  db: Queryable,
  { contractId, by, at }: HolderList,
  walk: Walk,
  from: HolderKey | undefined,
  n: number,
): Promise<HolderRow[]> {
  const values: unknown[] = [n, contractId, from?.account ?? null];
  const param = (value: unknown, type: string): string => `$${values.push(value)}::${type}`;
  const ks =
    by === 'amount'
      ? keyset(['b.amount', 'b.account'], walk, `${param(from?.amount ?? null, 'numeric')}, $3::text`)
      : keyset(['b.account'], walk, '$3::text');
  const last = (column: string): string =>
    `(array_agg(e.${column} ORDER BY e.height DESC, e.micro_index DESC, e.tx_index DESC, e.log_idx DESC))[1]`;
  const balances =
    at === undefined
      ? 'SELECT account, amount, height, micro_index, log_idx, tx_hash FROM aex9_balances WHERE contract_id = $2'
      : `SELECT e.account, sum(e.delta) AS amount, ${last('height')} AS height, ${last('micro_index')} AS micro_index,
                ${last('log_idx')} AS log_idx, ${last('tx_hash')} AS tx_hash
           FROM aex9_events e
          WHERE e.contract_id = $2
            AND (e.height, e.micro_index) <= (${param(at.height, 'int')}, ${param(at.microIndex, 'int')})
            ${by === 'pubkey' ? `AND ($3::text IS NULL OR ${keyset(['e.account'], walk, '$3::text').where})` : ''}
          GROUP BY e.account`;
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
      : `SELECT sum(delta)::text AS amount FROM aex9_events
          WHERE contract_id = $1 AND account = $2 AND (height, micro_index) <= ($3::int, $4::int)`,
    at === undefined ? [contractId, account] : [contractId, account, at.height, at.microIndex],
  );
  return rows[0]?.amount ?? null;
}

/** balanceChanges lists the net move of an account's balance of a token per height, ascending, below `before`. */
export async function balanceChanges(
  db: Queryable,
  contractId: string,
  account: string,
  before: number,
): Promise<{ height: number; delta: string }[]> {
  const { rows } = await db.query<{ height: number; delta: string }>(
    `SELECT height, sum(delta)::text AS delta FROM aex9_events
      WHERE contract_id = $1 AND account = $2 AND height < $3
      GROUP BY height ORDER BY height`,
    [contractId, account, before],
  );
  return rows;
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
export async function accountTokensPage(
  db: Queryable,
  account: string,
  walk: Walk,
  from: string | undefined,
  n: number,
): Promise<AccountTokenRow[]> {
  const ks = keyset(['(b.contract_id COLLATE "C")'], walk, '$3::text');
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
      ORDER BY ${keyset(['(p.contract_id COLLATE "C")'], walk, undefined).order}`,
    [n, account, from ?? null],
  );
  return rows;
}

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
export async function aex9TransfersPage(
  db: Queryable,
  contractId: string,
  filter: Aex9TransferFilter,
  walk: Walk,
  from: LogKey | undefined,
  n: number,
): Promise<Aex9TransferRow[]> {
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
}

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
