/**
 * @module Read-side SQL for ae_mdw's DEX swaps: swaps of the pairs that a DEX factory announced (one known by its code,
 * dex_pairs.factory_by_code, or the configured DEX_FACTORY), with their tokens' meta info.
 */
import type { ActivitySql } from './activities.ts';
import type { LogKey } from './contracts.ts';
import { logKeyset, logKeyValues, type Walk, type PageReader } from './positions.ts';

/** A swap with its pair's tokens (symbol and decimals null when the token is not a known AEX-9 contract). */
export interface SwapRow extends LogKey {
  readonly txHash: string;
  readonly microTime: string;
  readonly callerId: string;
  readonly toId: string;
  readonly amount0In: string;
  readonly amount1In: string;
  readonly amount0Out: string;
  readonly amount1Out: string;
  readonly token0: string;
  readonly token1: string;
  readonly symbol0: string | null;
  readonly symbol1: string | null;
  readonly decimals0: number | null;
  readonly decimals1: number | null;
  /** the token is a wrapped AE (known by its code, or DEX_WRAPPED_AE) */
  readonly wrapped0: boolean;
  readonly wrapped1: boolean;
}

/** Which swaps: all, one caller's, or those of the pairs a contract is (a pair) or is in (a token). */
/** caller: an account's swaps; contract: a pair's, or its tokens' pairs'; token: the pairs' of a token only. */
export type SwapFilter = { readonly caller?: string; readonly contract?: string; readonly token?: string };

/** A pair a factory announced: one known by its code, or the configured one (`$n`). */
const BY_A_FACTORY = (alias: string, n: number): string => `(${alias}.factory_by_code OR ${alias}.factory_id = $${n})`;

/**
 * swapsPage reads up to n swaps of the factories' pairs walking from a key (inclusive); `factory` the configured one.
 * A contract's or a token's swaps are those of its pairs: each pair's swaps are walked from the page's start, a page
 * at most each, and the page taken from those walks, so a page reads at most a page of swaps per pair, whatever the
 * chain holds, and a contract of no factory's pair reads none. A filter on the pairs inside one walk of every swap in
 * position order (`pair_id IN (…)`) read every swap of the chain for a contract of no pair or of rare swaps (the
 * scale chain's hot token: 2 134 swaps at 1 % of mainnet, to answer none). The walks are one plan whatever the pairs:
 * a walk per pair merged by UNION ALL read a page and no more, but took 258 ms to plan for 200 pairs.
 */
export const swapsPage: PageReader<{ readonly factory: string } & SwapFilter, LogKey, SwapRow> = async (
  db,
  { factory, ...filter },
  { walk, from, n },
) => {
  const ks = logKeyset('s', walk, 4);
  const ofPairs = filter.contract !== undefined || filter.token !== undefined;
  const values = [
    n,
    factory,
    filter.caller ?? null,
    ...logKeyValues(from),
    ...(ofPairs ? [filter.contract ?? null, filter.token ?? null] : []),
  ];
  const where = `($3::text IS NULL OR s.caller_id = $3) AND ($4::int IS NULL OR ${ks.where})`;
  const { rows } = await db.query<SwapRow>(
    `SELECT s.height, s.micro_index AS "microIndex", s.tx_index AS "txIndex", s.log_idx AS "logIdx", s.tx_hash AS "txHash",
            t.micro_time_ms::text AS "microTime", s.caller_id AS "callerId", s.to_id AS "toId",
            s.amount0_in::text AS "amount0In", s.amount1_in::text AS "amount1In",
            s.amount0_out::text AS "amount0Out", s.amount1_out::text AS "amount1Out",
            p.token0_id AS token0, p.token1_id AS token1, a0.symbol AS symbol0, a1.symbol AS symbol1,
            a0.decimals AS decimals0, a1.decimals AS decimals1,
            coalesce(a0.wrapped_ae, false) AS wrapped0, coalesce(a1.wrapped_ae, false) AS wrapped1
       FROM ${ofPairs ? pairsSwaps(walk, where, ks.order) : 'dex_swaps s'}
       CROSS JOIN LATERAL (SELECT token0_id, token1_id FROM dex_pairs p
                            WHERE p.pair_id = s.pair_id AND ${BY_A_FACTORY('p', 2)}
                            ORDER BY p.height, p.micro_index, p.tx_index, p.log_idx LIMIT 1) p
       JOIN transactions t ON (t.height, t.micro_index, t.tx_index) = (s.height, s.micro_index, s.tx_index)
       LEFT JOIN aexn_contracts a0 ON a0.contract_id = p.token0_id
       LEFT JOIN aexn_contracts a1 ON a1.contract_id = p.token1_id
      WHERE ${where}
      ORDER BY ${ks.order} LIMIT $1`,
    values,
  );
  return rows;
};

/**
 * pairsSwaps is the FROM of a contract's (`$8`: a pair, or a token of pairs) or a token's (`$9`) swaps, as `s`: the
 * factories' pairs it names, each walked from the page's start along dex_swaps_pair (`where` and `order`, a page at
 * most each), and the page taken from those walks.
 */
function pairsSwaps(walk: Walk, where: string, order: string): string {
  // OFFSET 0 keeps the walk apart: it runs per pair
  return `(SELECT w.* FROM (SELECT DISTINCT q.pair_id FROM dex_pairs q
                             WHERE ${BY_A_FACTORY('q', 2)}
                               AND ($8::text IS NULL OR $8 IN (q.pair_id, q.token0_id, q.token1_id))
                               AND ($9::text IS NULL OR $9 IN (q.token0_id, q.token1_id))) q
           CROSS JOIN LATERAL (SELECT s.* FROM dex_swaps s
                                WHERE s.pair_id = q.pair_id AND ${where} ORDER BY ${order} LIMIT $1 OFFSET 0) w
          ORDER BY ${logKeyset('w', walk, undefined).order} LIMIT $1) s`;
}

/**
 * DEX_ACTIVITIES: the swaps an account made, as /v3/accounts/{id}/activities lists them (after the
 * transaction, in log order): those of the pairs a factory announced (known by its code, or the configured one, `$7`),
 * as /v3/dex lists them.
 */
export const DEX_ACTIVITIES: ActivitySql = {
  source: 'swaps',
  from: `dex_swaps s LEFT JOIN aexn_contracts c ON c.contract_id = s.pair_id`,
  keyColumns: ['s.height', 's.micro_index', 's.tx_index', "'swap'::text", "lpad(s.log_idx::text, 10, '0')"],
  data: `json_build_object('tx_hash', s.tx_hash, 'token_name', c.name, 'amount', s.amount0_in + s.amount1_in)::text`,
  where: `s.caller_id = $2 AND s.height BETWEEN $3 AND $4 AND EXISTS (SELECT 1 FROM dex_pairs p WHERE p.pair_id = s.pair_id AND ${BY_A_FACTORY('p', 7)})
          AND ($5 OR true)`,
};
