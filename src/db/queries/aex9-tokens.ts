/** @module Read-side SQL for ae_mdw's /v3/aex9 token list, count and token: aexn_contracts with each token's holders and supplies. */
import type { Queryable } from '../connection/pool.ts';
import { keyset, type PageReader } from './positions.ts';
import { escapeLike } from './like-pattern.ts';

/** An AEX-9 token as /v3/aex9 shows it. */
export interface Aex9Row {
  readonly contractId: string;
  readonly txHash: string;
  readonly height: number;
  readonly microIndex: number;
  readonly txIndex: number;
  readonly name: string;
  readonly symbol: string;
  readonly decimals: number | null;
  readonly extensions: string[];
  readonly metaInvalid: boolean;
  /**
   * why its events could not explain its balances (negative_balance, negative_supply), at the first read of its state
   * (migration 1020: read from the contract's state since); null while they can
   */
  readonly stateReason: string | null;
  readonly initialSupply: string;
  readonly eventSupply: string;
  readonly holders: number;
  readonly eventsCount: number;
  /** balances may miss moves: unknown at creation, or calls after it stored without their call info (410) */
  readonly incomplete: boolean;
}

/**
 * The columns of a token and whether its balances are incomplete: its creation balances could not be read, or
 * a call at or after its creation height was stored without its call info (its events are unknown).
 */
const TOKEN_COLUMNS = `
  c.contract_id AS "contractId", c.tx_hash AS "txHash", c.height, c.micro_index AS "microIndex",
  c.tx_index AS "txIndex", c.name, c.symbol, c.decimals, c.extensions, c.meta_invalid AS "metaInvalid",
  (SELECT r.reason FROM aex9_state_reads r WHERE r.contract_id = c.contract_id
    ORDER BY r.height, r.micro_index, r.tx_index LIMIT 1) AS "stateReason",
  coalesce(s.initial_supply, 0)::text AS "initialSupply", coalesce(s.event_supply, 0)::text AS "eventSupply",
  coalesce(s.holders, 0) AS holders, coalesce(s.events_count, 0) AS "eventsCount",
  (c.balances_unknown OR EXISTS (SELECT 1 FROM contract_calls p WHERE p.call_info_pruned AND p.height >= c.height))
    AS incomplete`;

/** aex9Token reads one AEX-9 token (undefined when the contract is not one). */
export async function aex9Token(db: Queryable, contractId: string): Promise<Aex9Row | undefined> {
  const { rows } = await db.query<Aex9Row>(
    `SELECT ${TOKEN_COLUMNS}
       FROM aexn_contracts c LEFT JOIN aex9_contract_state s USING (contract_id)
      WHERE c.contract_id = $1 AND c.aexn_type = 'aex9'`,
    [contractId],
  );
  return rows[0];
}

/** aex9Count is the number of AEX-9 tokens. */
export async function aex9Count(db: Queryable): Promise<number> {
  const { rows } = await db.query<{ n: number }>(
    `SELECT count(*)::int AS n FROM aexn_contracts WHERE aexn_type = 'aex9'`,
  );
  return rows[0]!.n;
}

/** The orders of the token list: by lower-cased name or symbol (optionally a prefix of it), exact name or symbol, or creation. */
export type TokenOrder =
  | { readonly by: 'name' | 'symbol'; readonly prefix: string }
  | { readonly by: 'name' | 'symbol'; readonly exact: string }
  | { readonly by: 'creation' };

/** A place in the token list: the sort value and the contract (creation: its position). */
export type Aex9TokenKey =
  | { readonly value: string; readonly contractId: string }
  | { readonly height: number; readonly microIndex: number; readonly txIndex: number; readonly contractId: string };

/** aex9TokensPage reads up to n tokens in `order` walking from a key (inclusive). */
export const aex9TokensPage: PageReader<TokenOrder, Aex9TokenKey, { key: Aex9TokenKey; row: Aex9Row }> = async (
  db,
  order,
  { walk, from, n },
) => {
  const id = `(c.contract_id COLLATE "C")`;
  if (order.by === 'creation') {
    const ks = keyset(['c.height', 'c.micro_index', 'c.tx_index', id], walk, '$2::int, $3::int, $4::int, $5::text');
    const start = from && 'height' in from ? from : undefined;
    const { rows } = await db.query<Aex9Row>(
      `SELECT ${TOKEN_COLUMNS}
         FROM aexn_contracts c LEFT JOIN aex9_contract_state s USING (contract_id)
        WHERE c.aexn_type = 'aex9' AND ($2::int IS NULL OR ${ks.where})
        ORDER BY ${ks.order} LIMIT $1`,
      [n, start?.height ?? null, start?.microIndex ?? null, start?.txIndex ?? null, start?.contractId ?? null],
    );
    return rows.map((row) => ({ key: row, row }));
  }
  const exact = 'exact' in order;
  const column = exact ? `c.${order.by}` : `lower(c.${order.by})`;
  const ks = keyset([column, id], walk, '$3::text, $4::text');
  const start = from && 'value' in from ? from : undefined;
  const { rows } = await db.query<Aex9Row & { sortValue: string }>(
    `SELECT ${TOKEN_COLUMNS}, ${column} AS "sortValue"
       FROM aexn_contracts c LEFT JOIN aex9_contract_state s USING (contract_id)
      WHERE c.aexn_type = 'aex9' AND ${exact ? `${column} = $2` : `${column} LIKE lower($2)`}
        AND ($3::text IS NULL OR ${ks.where})
      ORDER BY ${ks.order} LIMIT $1`,
    [n, exact ? order.exact : `${escapeLike(order.prefix)}%`, start?.value ?? null, start?.contractId ?? null],
  );
  return rows.map(({ sortValue, ...row }) => ({ key: { value: sortValue, contractId: row.contractId }, row }));
};
