/**
 * @module Write-side SQL of ae_mdw's internal transfers: the populator's per-batch statements
 * (the rows it computes, and the ones that follow from the rows the batch has just written).
 */
import type { Queryable } from '../connection/pool.ts';
import { insertMany } from './bulk-load.ts';

/** A transfer row; micro and tx index −1 at key-block level, ref '' when no transaction caused it. */
export interface InternalTransferRow {
  readonly height: number;
  readonly microIndex: number;
  readonly txIndex: number;
  readonly kind: string;
  readonly accountId: string;
  readonly refTxHash: string;
  readonly amount: bigint;
}

/** insertInternalTransfers writes computed transfers in one statement (a row already there stays). */
export async function insertInternalTransfers(db: Queryable, rows: readonly InternalTransferRow[]): Promise<void> {
  await insertMany(
    db,
    'internal_transfers',
    [
      ['height', 'int'],
      ['micro_index', 'int'],
      ['tx_index', 'int'],
      ['kind', 'text'],
      ['account_id', 'text'],
      ['ref_tx_hash', 'text'],
      ['amount', 'numeric'],
    ],
    [
      rows.map((r) => r.height),
      rows.map((r) => r.microIndex),
      rows.map((r) => r.txIndex),
      rows.map((r) => r.kind),
      rows.map((r) => r.accountId),
      rows.map((r) => r.refTxHash),
      rows.map((r) => r.amount.toString()),
    ],
  );
}

/**
 * deleteAuctionTransfers removes the auctions' refunds and locks of heights from..to (auction-transfers.ts), to derive
 * them again: an auction's lock is at key-block level (a claim without an auction locks its fee at its transaction,
 * a row that stays).
 */
export async function deleteAuctionTransfers(db: Queryable, from: number, to: number): Promise<void> {
  await db.query({
    name: 'mdw_delete_auction_transfers',
    text: `DELETE FROM internal_transfers
            WHERE height BETWEEN $1 AND $2 AND (kind = 'fee_refund_name' OR kind = 'fee_lock_name' AND micro_index = -1)`,
    values: [from, to],
  });
}

/**
 * addGenerationFees adds what the transactions just written paid to their generations' fees: a batch
 * that continues a generation adds to its row (one entry per height per call).
 */
export async function addGenerationFees(
  db: Queryable,
  rows: readonly { height: number; fees: bigint }[],
): Promise<void> {
  await db.query({
    name: 'mdw_add_generation_fees',
    text: `INSERT INTO generation_fees AS g (height, fees)
           SELECT * FROM unnest($1::int[], $2::numeric[])
           ON CONFLICT (height) DO UPDATE SET fees = g.fees + EXCLUDED.fees`,
    values: [rows.map((r) => r.height), rows.map((r) => r.fees.toString())],
  });
}

/** A stored key block with its generation's fees, as the rewards need them. */
export interface RewardInput {
  readonly height: number;
  readonly beneficiary: string;
  readonly version: number;
  readonly fees: bigint;
}

/** rewardInputs reads the key blocks at `heights` (written ones, this batch's included) and their generations' fees. */
export async function rewardInputs(db: Queryable, heights: readonly number[]): Promise<Map<number, RewardInput>> {
  if (heights.length === 0) return new Map();
  const { rows } = await db.query<{ height: number; beneficiary: string; version: number; fees: string }>({
    name: 'mdw_reward_inputs',
    text: `SELECT k.height, k.beneficiary, coalesce((k.data->>'version')::int, 1) AS version,
            (SELECT coalesce(sum(f.fees), 0) FROM generation_fees f WHERE f.height = k.height)::text AS fees
       FROM key_blocks k WHERE k.height = ANY($1::int[])`,
    values: [heights],
  });
  return new Map(rows.map((r) => [r.height, { ...r, fees: BigInt(r.fees) }]));
}

/**
 * deriveInternalTransfers adds the transfers that follow from the stored rows at heights
 * from..to (written by this batch, so everything before them is stored too), as ae_mdw books them:
 * a claim without an auction locks its name fee (the fixed 3 aettos before Lima, which had no
 * name fee); a claim or bid in an auction spends its fee (a name transaction's: the name events of contracts' AENS
 * calls, `local_idx`, are not read); a response pays the query fee to the oracle's account; a query expiring
 * unanswered returns its fee to the sender at the key block after its expiry (when the node prunes it). A generation
 * continued by a later batch finds its key-block rows there already. The auctions' refunds and locks are the
 * caller's (auction-transfers.ts, from every claim and bid, the contracts' among them).
 */
export async function deriveInternalTransfers(db: Queryable, from: number, to: number): Promise<void> {
  await db.query({
    name: 'mdw_internal_transfers_derive',
    text: `INSERT INTO internal_transfers (height, micro_index, tx_index, kind, account_id, ref_tx_hash, amount)
     SELECT e.height, e.micro_index, e.tx_index, 'fee_lock_name', e.owner, e.tx_hash, coalesce(e.name_fee, 3)
       FROM name_events e
      WHERE e.local_idx IS NULL AND e.height BETWEEN $1 AND $2 AND e.kind = 'claim' AND e.auction_end IS NULL
     UNION ALL
     SELECT e.height, e.micro_index, e.tx_index, 'fee_spend_name', e.owner, e.tx_hash, e.name_fee
       FROM name_events e
      WHERE e.local_idx IS NULL AND e.height BETWEEN $1 AND $2 AND e.kind IN ('claim', 'bid') AND e.auction_end IS NOT NULL
        AND e.name_fee IS NOT NULL
     UNION ALL
     SELECT r.height, r.micro_index, r.tx_index, 'reward_oracle', 'ak_' || substr(q.oracle_id, 4), r.tx_hash, q.fee
       FROM oracle_responses r JOIN oracle_queries q ON q.query_id = r.query_id
      WHERE r.height BETWEEN $1 AND $2
     UNION ALL
     SELECT q.expires_at + 1, -1, -1, 'fee_refund_oracle', q.sender_id, q.tx_hash, q.fee
       FROM oracle_queries q
      WHERE q.expires_at BETWEEN $1 - 1 AND $2 - 1
        AND NOT EXISTS (SELECT 1 FROM oracle_responses r WHERE r.query_id = q.query_id)
     ON CONFLICT DO NOTHING`,
    values: [from, to],
  });
}
