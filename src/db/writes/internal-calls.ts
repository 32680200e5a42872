/**
 * @module The int_calls area's rows (migration 1097): the transactions of the stored micro blocks that hold contract
 * calls (what the area runs again through the node's dry-run), and the internal calls and gaps it stores.
 */
import { txTypeCode } from '../../chain/id-key.ts';
import { stringifyJson, type Json } from '../../chain/json.ts';
import { microHeaderSql } from '../queries/blocks.ts';
import type { Queryable } from '../connection/pool.ts';
import type { HeightRange } from '../queries/height-range.ts';

/** A stored transaction of a micro block holding contract calls, with what a re-run of the block needs. */
export interface ReplayableTx {
  readonly height: number;
  readonly microIndex: number;
  readonly txIndex: number;
  readonly txType: string;
  /** the type a GAMetaTx or PayingForTx wraps */
  readonly innerType: string | null;
  /** a contract or GA transaction's gas */
  readonly gas: string | null;
  readonly size: number;
  readonly signed: Uint8Array;
  /** the block before the transaction's micro block: the state the block's transactions ran on */
  readonly prevHash: string;
  /** a contract transaction's contract (the one it calls or creates) */
  readonly contractId: string | null;
  /** a contract transaction's outcome (`ok`, `revert`, `error`) where its call info is known */
  readonly returnType: string | null;
}

/** The types whose call runs contract code (a ContractCreateTx's `init` included). */
export const CONTRACT_TX_TYPES: readonly string[] = ['ContractCallTx', 'ContractCreateTx'];

/** replayableTransactions lists every transaction of the micro blocks of a range that hold a contract call. */
export async function replayableTransactions(db: Queryable, range: HeightRange): Promise<ReplayableTx[]> {
  const { rows } = await db.query<Omit<ReplayableTx, 'gas'> & { gas: string | null }>({
    name: 'mdw_replayable_transactions',
    text: `WITH blocks AS (
             SELECT DISTINCT t.height, t.micro_index FROM transactions t
              WHERE t.height BETWEEN $1 AND $2 AND (t.height > $1 OR t.micro_index >= $3)
                AND (t.tx_type = ANY ($4::smallint[]) OR t.inner_type = ANY ($5::text[])))
           SELECT t.height, t.micro_index AS "microIndex", t.tx_index AS "txIndex",
                  tx_type_name(t.tx_type) AS "txType", t.inner_type AS "innerType", t.gas::text AS gas, t.size,
                  t.signed, ${microHeaderSql('m')} ->> 'prev_hash' AS "prevHash",
                  c.contract_id AS "contractId", c.call_info ->> 'return_type' AS "returnType"
             FROM blocks b
             JOIN transactions t ON t.height = b.height AND t.micro_index = b.micro_index
             JOIN micro_blocks m ON m.height = b.height AND m.micro_index = b.micro_index
             LEFT JOIN contract_calls c
               ON c.height = t.height AND c.micro_index = t.micro_index AND c.tx_index = t.tx_index
            ORDER BY t.height, t.micro_index, t.tx_index`,
    values: [range.from, range.to, range.fromMicro, CONTRACT_TX_TYPES.map(txTypeCode), CONTRACT_TX_TYPES],
  });
  return rows;
}

/** The position of a contract call. */
export interface CallPosition {
  readonly height: number;
  readonly microIndex: number;
  readonly txIndex: number;
}

/** One internal call of the contract call at its position. */
export interface StoredInternalCall extends CallPosition {
  readonly localIdx: number;
  readonly function: string;
  readonly internalTx: { readonly [key: string]: Json };
}

/** A contract call whose internal calls no dry-run told, and why. */
export interface InternalCallGap extends CallPosition {
  readonly reason: string;
}

/**
 * replaceInternalCalls stores the internal calls and gaps of a range in place of its rows; the ids each call concerns
 * (contract_internal_call_ids, migration 1110) follow from its trigger.
 */
export async function replaceInternalCalls(
  db: Queryable,
  range: HeightRange,
  calls: readonly StoredInternalCall[],
  gaps: readonly InternalCallGap[],
): Promise<void> {
  for (const table of ['contract_internal_calls', 'contract_internal_call_gaps', 'contract_internal_call_ids'])
    await db.query({
      name: `mdw_${table}_delete`,
      text: `DELETE FROM ${table} WHERE height BETWEEN $1 AND $2 AND (height > $1 OR micro_index >= $3)`,
      values: [range.from, range.to, range.fromMicro],
    });
  if (calls.length > 0)
    await db.query({
      name: 'mdw_contract_internal_calls_insert',
      // each with its call's contract (migration 1135), the stored call's: none would fail the insert (NOT NULL)
      text: `INSERT INTO contract_internal_calls
                    (height, micro_index, tx_index, local_idx, function, internal_tx, contract_id)
             SELECT u.*, (SELECT c.contract_id FROM contract_calls c
                           WHERE c.height = u.h AND c.micro_index = u.m AND c.tx_index = u.t)
               FROM unnest($1::int[], $2::int[], $3::int[], $4::int[], $5::text[], $6::jsonb[]) u (h, m, t, l, f, j)`,
      values: [
        calls.map((c) => c.height),
        calls.map((c) => c.microIndex),
        calls.map((c) => c.txIndex),
        calls.map((c) => c.localIdx),
        calls.map((c) => c.function),
        // exact integers: written as JSON text by the chain's own writer, never through JSON.stringify
        calls.map((c) => stringifyJson(c.internalTx)),
      ],
    });
  if (gaps.length > 0)
    await db.query({
      name: 'mdw_contract_internal_call_gaps_insert',
      text: `INSERT INTO contract_internal_call_gaps (height, micro_index, tx_index, reason)
             SELECT * FROM unnest($1::int[], $2::int[], $3::int[], $4::text[])`,
      values: [
        gaps.map((g) => g.height),
        gaps.map((g) => g.microIndex),
        gaps.map((g) => g.txIndex),
        gaps.map((g) => g.reason),
      ],
    });
}
