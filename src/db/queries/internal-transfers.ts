/**
 * @module Read-side SQL of internal transfers: /v3/transfers in ae_mdw's order (height, position, kind, account, causing
 * tx), whether a key block holds some (the populator's check of the protocol forks) and the lowest key block that
 * holds some (its check of rewards a hyperchain never pays).
 */
import type { Queryable } from '../connection/pool.ts';
import { keyset, type PageReader } from './positions.ts';
import { microBlockHashSql, txTypeNameSql } from './transactions.ts';

/** A place in the list of transfers: its primary key. */
export interface TransferKey {
  readonly height: number;
  readonly microIndex: number;
  readonly txIndex: number;
  readonly kind: string;
  readonly accountId: string;
  /** the causing transaction, '' for none */
  readonly ref: string;
}

/** A transfer with the causing transaction's type and block. */
export interface TransferRow extends TransferKey {
  readonly amount: string;
  readonly refTxType: string | null;
  readonly refBlockHash: string | null;
}

const KEY = ['x.height', 'x.micro_index', 'x.tx_index', 'x.kind', 'x.account_id', 'x.ref_tx_hash'];

/** The filters of /v3/transfers: a kind prefix, an account, heights. */
export interface TransferFilter {
  readonly kindPrefix: string | undefined;
  readonly accountId: string | undefined;
  readonly first: number;
  readonly last: number;
}

/** transfersPage reads up to n transfers matching the filter, walking from a key (inclusive). */
export const transfersPage: PageReader<TransferFilter, TransferKey, TransferRow> = async (
  db,
  filter,
  { walk, from, n },
) => {
  const values: unknown[] = [n, filter.first, filter.last];
  // only the filters given are in the statement (one prepared plan per combination, each with its index)
  const where = ['x.height BETWEEN $2 AND $3'];
  if (filter.kindPrefix !== undefined) {
    values.push(filter.kindPrefix);
    where.push(`starts_with(x.kind, $${values.length}::text)`);
  }
  if (filter.accountId !== undefined) {
    values.push(filter.accountId);
    where.push(`x.account_id = $${values.length}`);
  }
  const at = values.length;
  if (from) values.push(from.height, from.microIndex, from.txIndex, from.kind, from.accountId, from.ref);
  const start = [1, 2, 3, 4, 5, 6].map((i) => `$${at + i}`).join(', ');
  const ks = keyset(KEY, walk, from === undefined ? undefined : start);
  const shape = `${filter.kindPrefix === undefined ? 0 : 1}${filter.accountId === undefined ? 0 : 1}`;
  const { rows } = await db.query<TransferRow>({
    name: `mdw_v3_transfers_${walk}_${shape}${from ? '_from' : ''}`,
    text: `SELECT x.height, x.micro_index AS "microIndex", x.tx_index AS "txIndex", x.kind, x.account_id AS "accountId",
                  x.ref_tx_hash AS ref, x.amount::text AS amount, ${txTypeNameSql('t')} AS "refTxType", ${microBlockHashSql('t')} AS "refBlockHash"
             FROM internal_transfers x
             LEFT JOIN transactions t ON x.ref_tx_hash <> '' AND t.hash = x.ref_tx_hash
            WHERE ${where.join(' AND ')} AND ${ks.where}
            ORDER BY ${ks.order} LIMIT $1`,
    values,
  });
  return rows;
};

/** hasKeyBlockTransfers is true when the key block at `height` holds a transfer of one of `kinds`. */
export async function hasKeyBlockTransfers(db: Queryable, height: number, kinds: readonly string[]): Promise<boolean> {
  const { rows } = await db.query(
    `SELECT 1 FROM internal_transfers WHERE height = $1 AND micro_index = -1 AND tx_index = -1 AND kind = ANY($2::text[]) LIMIT 1`,
    [height, kinds],
  );
  return rows.length > 0;
}

/** lowestKeyBlockTransfer is the lowest height whose key block holds a transfer of one of `kinds`; undefined if none. */
export async function lowestKeyBlockTransfer(db: Queryable, kinds: readonly string[]): Promise<number | undefined> {
  const { rows } = await db.query<{ height: number | null }>(
    `SELECT min(height) AS height FROM internal_transfers WHERE micro_index = -1 AND tx_index = -1 AND kind = ANY($1::text[])`,
    [kinds],
  );
  return rows[0]?.height ?? undefined;
}
