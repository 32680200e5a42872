/** @module Read-side SQL of /v3/transfers: internal transfers in ae_mdw's order (height, position, kind, account, causing tx). */
import type { Queryable } from '../../pool.ts';
import { keyset, type Walk } from './positions.ts';

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
export async function transfersPage(
  db: Queryable,
  filter: TransferFilter,
  walk: Walk,
  from: TransferKey | undefined,
  n: number,
): Promise<TransferRow[]> {
  const ks = keyset(KEY, walk, from === undefined ? undefined : '$6, $7, $8, $9, $10, $11');
  const values: unknown[] = [n, filter.kindPrefix ?? null, filter.accountId ?? null, filter.first, filter.last];
  if (from) values.push(from.height, from.microIndex, from.txIndex, from.kind, from.accountId, from.ref);
  // a kind prefix is a range of the text order (kinds are lower-case ASCII), so the index can still be walked
  const { rows } = await db.query<TransferRow>({
    name: `mdw_v3_transfers_${walk}${from ? '_from' : ''}`,
    text: `SELECT x.height, x.micro_index AS "microIndex", x.tx_index AS "txIndex", x.kind, x.account_id AS "accountId",
                  x.ref_tx_hash AS ref, x.amount::text AS amount, t.tx_type AS "refTxType", t.micro_block_hash AS "refBlockHash"
             FROM internal_transfers x
             LEFT JOIN transactions t ON x.ref_tx_hash <> '' AND t.hash = x.ref_tx_hash
            WHERE x.height BETWEEN $4 AND $5
              AND ($2::text IS NULL OR starts_with(x.kind, $2::text))
              AND ($3::text IS NULL OR x.account_id = $3::text)
              AND ${ks.where}
            ORDER BY ${ks.order} LIMIT $1`,
    values,
  });
  return rows;
}
