/** @module Read-side SQL for ae_mdw's transfers (the v3_transfers view) and account activities (an id's transactions and transfers). */
import type { Queryable } from '../../pool.ts';
import { keyset, type Walk } from './positions.ts';

/** A place in a list of transfers or activities: a transaction position (-1, -1 for key-block items), an index, the causing tx. */
export interface EventKey {
  readonly height: number;
  readonly microIndex: number;
  readonly txIndex: number;
  readonly localIdx: number;
  readonly ref: string;
}

/** A transfer with the transaction that caused it and the block it is in. */
export interface TransferRow extends EventKey {
  readonly accountId: string;
  readonly amount: string;
  readonly kind: string;
  readonly refTxType: string | null;
  readonly refBlockHash: string | null;
  readonly blockTime: string | null;
}

const KEY = ['x.height', 'x.micro_index', 'x.tx_index', 'x.local_idx', 'x.ref'];
const START = '$3::int, $4::int, $5::int, $6::int, $7::text';

function startValues(from: EventKey | undefined): unknown[] {
  return from ? [from.height, from.microIndex, from.txIndex, from.localIdx, from.ref] : [];
}

/** transfersPage reads up to n transfers (optionally whose kind starts with `kindPrefix`) walking from a key. */
export async function transfersPage(
  db: Queryable,
  kindPrefix: string | undefined,
  range: { first: number; last: number },
  walk: Walk,
  from: EventKey | undefined,
  n: number,
): Promise<TransferRow[]> {
  // the start is always in the statement (null without a cursor): every placeholder keeps a type
  const ks = keyset(KEY, walk, START);
  const values: unknown[] = [n, kindPrefix ?? null, ...(from ? startValues(from) : [null, null, null, null, null])];
  values.push(range.first, range.last);
  const { rows } = await db.query<TransferRow>(
    `SELECT x.height, x.micro_index AS "microIndex", x.tx_index AS "txIndex", x.local_idx AS "localIdx", x.ref,
            x.account_id AS "accountId", x.amount::text AS amount, x.kind, t.tx_type AS "refTxType",
            coalesce(t.micro_block_hash, k.hash) AS "refBlockHash", coalesce(t.micro_time_ms, k.time_ms)::text AS "blockTime"
       FROM (SELECT v.*, v.ref_tx_hash AS ref FROM v3_transfers v) x
       LEFT JOIN transactions t ON t.hash = x.ref AND x.micro_index >= 0
       LEFT JOIN key_blocks k ON k.height = x.height AND x.micro_index < 0
      WHERE ($2::text IS NULL OR starts_with(x.kind, $2::text)) AND x.height BETWEEN $8 AND $9
        AND ($3::int IS NULL OR ${ks.where}) ORDER BY ${ks.order} LIMIT $1`,
    values,
  );
  return rows;
}

/** An activity of an id: one of its transactions, or a transfer to it. */
export interface ActivityRow extends EventKey {
  readonly source: 'tx' | 'transfer';
  readonly kind: string | null;
  readonly amount: string | null;
  readonly blockHash: string;
  readonly blockTime: string;
}

/** activitiesPage reads up to n activities of an id (transactions, transfers or both) walking from a key. */
export async function activitiesPage(
  db: Queryable,
  id: string,
  include: { transactions: boolean; transfers: boolean },
  range: { first: number; last: number },
  walk: Walk,
  from: EventKey | undefined,
  n: number,
): Promise<ActivityRow[]> {
  // the start is always in the statement (null without a cursor): every placeholder keeps a type
  const ks = keyset(KEY, walk, START);
  const values: unknown[] = [n, id, ...(from ? startValues(from) : [null, null, null, null, null])];
  values.push(range.first, range.last, include.transactions, include.transfers);
  const { rows } = await db.query<ActivityRow>(
    `SELECT x.height, x.micro_index AS "microIndex", x.tx_index AS "txIndex", x.local_idx AS "localIdx", x.ref, x.source,
            x.kind, x.amount, coalesce(t.micro_block_hash, k.hash) AS "blockHash", coalesce(t.micro_time_ms, k.time_ms)::text AS "blockTime"
       FROM (SELECT a.height, a.micro_index, a.tx_index, 0 AS local_idx, a.tx_hash AS ref, 'tx' AS source, NULL::text AS kind, NULL::text AS amount
               FROM account_transactions a WHERE $10::boolean AND a.account = $2 AND a.height BETWEEN $8 AND $9
             UNION ALL
             SELECT v.height, v.micro_index, v.tx_index, 1 + v.local_idx, v.ref_tx_hash, 'transfer', v.kind, v.amount::text
               FROM v3_transfers v WHERE $11::boolean AND v.account_id = $2 AND v.height BETWEEN $8 AND $9) x
       LEFT JOIN transactions t ON t.hash = x.ref AND x.micro_index >= 0
       LEFT JOIN key_blocks k ON k.height = x.height AND x.micro_index < 0
      WHERE ($3::int IS NULL OR ${ks.where}) ORDER BY ${ks.order} LIMIT $1`,
    values,
  );
  return rows;
}
