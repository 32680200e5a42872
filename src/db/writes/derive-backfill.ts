/**
 * @module derive_backfill (migration 1003): the derived areas some stored heights still lack, and the
 * reads and deletes that re-derive an area from the stored rows alone (no block is fetched again).
 */
import { isJsonObject, type Json } from '../../chain/json.ts';
import { renderStoredTx } from '../../chain/stored-tx.ts';
import { rewardFees } from '../../chain/reward-fees.ts';
import { callInfoSql } from '../queries/call-info.ts';
import { concurrently, type Queryable } from '../connection/pool.ts';
import { microBlockHashSql } from '../queries/transactions.ts';
import { txTypeCode } from '../../chain/id-key.ts';

/** recordFailure notes that an area's derivation failed (the first failure's time is kept), or clears it (null). */
export async function recordFailure(db: Queryable, area: string, error: string | null): Promise<void> {
  await db.query(
    `UPDATE derive_backfill SET last_error = $2,
            failing_since = CASE WHEN $2::text IS NULL THEN NULL ELSE coalesce(failing_since, now()) END
      WHERE area = $1`,
    [area, error],
  );
}

/**
 * withSavepoint runs `fn` so that its failure undoes only its own statements, not the caller's transaction:
 * the error is returned (undefined on success).
 */
export async function withSavepoint(db: Queryable, fn: () => Promise<void>): Promise<unknown> {
  await db.query('SAVEPOINT mdw_derive');
  try {
    await fn();
    await db.query('RELEASE SAVEPOINT mdw_derive');
    return undefined;
  } catch (err) {
    await db.query('ROLLBACK TO SAVEPOINT mdw_derive');
    return err;
  }
}

/** recordBackfill asks for an area's rows of heights from..to (merged with what is already asked). */
export async function recordBackfill(db: Queryable, area: string, from: number, to: number): Promise<void> {
  await db.query({
    name: 'mdw_record_backfill',
    text: `INSERT INTO derive_backfill AS b (area, next_height, to_height) VALUES ($1, $2, $3)
     ON CONFLICT (area) DO UPDATE SET next_height = least(b.next_height, excluded.next_height),
                                      to_height = greatest(b.to_height, excluded.to_height)`,
    values: [area, from, to],
  });
}

/** advanceBackfill records that an area is derived below `next` (the row goes once it passes to_height). */
export async function advanceBackfill(db: Queryable, area: string, next: number): Promise<void> {
  await db.query('UPDATE derive_backfill SET next_height = $2 WHERE area = $1', [area, next]);
  await db.query('DELETE FROM derive_backfill WHERE area = $1 AND next_height > to_height', [area]);
}

/** storedKeyBlockTargets gives the stored heights from..to (ascending) with their header's compact target. */
export async function storedKeyBlockTargets(
  db: Queryable,
  from: number,
  to: number,
): Promise<{ height: number; target: string }[]> {
  const { rows } = await db.query<{ height: number; target: string | null }>(
    `SELECT height, data->>'target' AS target FROM key_blocks WHERE height BETWEEN $1 AND $2 ORDER BY height`,
    [from, to],
  );
  return rows.map((r) => ({ height: r.height, target: r.target ?? '0' }));
}

/**
 * The types whose reward fees need the stored transaction and its calls: contract txs and force progresses (gas),
 * generalized accounts' (their own call's gas) and the wrappers of any tx (their inner tx's fee and gas).
 */
const FEE_WALKED = [
  'ContractCallTx',
  'ContractCreateTx',
  'ChannelForceProgressTx',
  'GAAttachTx',
  'GAMetaTx',
  'PayingForTx',
];

/**
 * replaceGenerationFees writes generation_fees of the stored heights from..to from their stored
 * transactions as the populator counts them (indexer/internal-transfers.ts `generationFees`, chain/reward-fees.ts):
 * every fee, of inner transactions (GAMetaTx, PayingForTx) too but a GAMetaTx's failed one's, and the gas used times
 * its price of each contract tx, each force progress's call (channel_events) and each GA's own call (ga_calls, which the
 * ga area stores).
 */
export async function replaceGenerationFees(db: Queryable, from: number, to: number): Promise<void> {
  await db.query('DELETE FROM generation_fees WHERE height BETWEEN $1 AND $2', [from, to]);
  // the fee column suffices but for contract and GA txs (gas) and wrappers (their inner tx's fee and gas), whose
  // stored transactions are rendered here (the binary form has no SQL reader)
  const [plain, special] = await concurrently(db, [
    () =>
      db.query<{ height: number; fees: string }>(
        `SELECT height, sum(fee)::text AS fees FROM transactions
        WHERE height BETWEEN $1 AND $2 AND tx_type <> ALL($3::smallint[]) GROUP BY height`,
        [from, to, FEE_WALKED.map(txTypeCode)],
      ),
    () =>
      db.query<{
        height: number;
        signed: Buffer;
        gas_used: string | null;
        ga_gas_used: string | null;
        ga_return: string | null;
      }>(
        `SELECT t.height, t.signed, coalesce(c.call_info->>'gas_used', e.gas_used::text) AS gas_used,
                g.gas_used::text AS ga_gas_used, g.return_type AS ga_return
         FROM transactions t LEFT JOIN contract_calls c ON c.tx_hash = t.hash
         LEFT JOIN ga_calls g ON g.height = t.height AND g.micro_index = t.micro_index AND g.tx_index = t.tx_index
         -- a force progress's call's gas (a wrapped one's too: its channel event is at its wrapper's place)
         LEFT JOIN channel_events e ON e.height = t.height AND e.micro_index = t.micro_index AND e.tx_index = t.tx_index
               AND e.tx_type = 'ChannelForceProgressTx'
        WHERE t.height BETWEEN $1 AND $2 AND t.tx_type = ANY($3::smallint[])`,
        [from, to, FEE_WALKED.map(txTypeCode)],
      ),
  ]);
  const fees = new Map<number, bigint>(plain.rows.map((r) => [r.height, BigInt(r.fees)]));
  for (const r of special.rows) {
    const tx = renderStoredTx(r.signed).tx;
    if (!isJsonObject(tx)) continue;
    const paid = rewardFees(tx, {
      ...(r.gas_used === null ? {} : { callGasUsed: BigInt(r.gas_used) }),
      ...(r.ga_gas_used === null ? {} : { gaGasUsed: BigInt(r.ga_gas_used) }),
      ...(r.ga_return === null ? {} : { gaOk: r.ga_return === 'ok' }),
    });
    fees.set(r.height, (fees.get(r.height) ?? 0n) + paid);
  }
  await db.query(
    `INSERT INTO generation_fees (height, fees)
     SELECT k.height, coalesce(v.fees, 0) FROM key_blocks k
       LEFT JOIN unnest($3::int[], $4::numeric[]) AS v(height, fees) ON v.height = k.height
      WHERE k.height BETWEEN $1 AND $2`,
    [from, to, [...fees.keys()], [...fees.values()].map(String)],
  );
}

/** deleteInternalTransfers removes the internal transfers of heights from..to (to derive them again). */
export async function deleteInternalTransfers(db: Queryable, from: number, to: number): Promise<void> {
  await db.query('DELETE FROM internal_transfers WHERE height BETWEEN $1 AND $2', [from, to]);
}

/** A stored transaction that may be or wrap a contract call or creation, with its call's stored row. */
export interface StoredContractTx {
  readonly height: number;
  readonly microIndex: number;
  readonly txIndex: number;
  readonly hash: string;
  readonly microBlockHash: string;
  readonly tx: Json;
  /** the contract_calls row, when the transaction has one */
  readonly call?: { readonly contractId: string; readonly callerId: string; readonly callInfo: Json | null };
}

/** storedContractTxs lists the stored transactions of heights from..to that are or wrap contract txs, in chain order. */
export async function storedContractTxs(db: Queryable, from: number, to: number): Promise<StoredContractTx[]> {
  const { rows } = await db.query<{
    height: number;
    micro_index: number;
    tx_index: number;
    hash: string;
    micro_block_hash: string;
    signed: Buffer;
    contract_id: string | null;
    caller_id: string | null;
    call_info: Json | null;
  }>(
    `SELECT t.height, t.micro_index, t.tx_index, t.hash, ${microBlockHashSql('t')} AS micro_block_hash, t.signed, c.contract_id, c.caller_id, 
            ${callInfoSql('c')} AS call_info
       FROM transactions t LEFT JOIN contract_calls c ON c.tx_hash = t.hash
      WHERE t.height BETWEEN $1 AND $2 AND t.tx_type IN (${FEE_WALKED.map(txTypeCode).join(', ')})
      ORDER BY t.height, t.micro_index, t.tx_index`,
    [from, to],
  );
  return rows.map((r) => ({
    height: r.height,
    microIndex: r.micro_index,
    txIndex: r.tx_index,
    hash: r.hash,
    microBlockHash: r.micro_block_hash,
    tx: renderStoredTx(r.signed).tx,
    ...(r.contract_id === null
      ? {}
      : { call: { contractId: r.contract_id, callerId: r.caller_id ?? '', callInfo: r.call_info } }),
  }));
}

/** deleteTokenRows removes the AEX-N, AEX-9, AEX-141 and DEX rows of heights from..to (their triggers follow). */
export async function deleteTokenRows(db: Queryable, from: number, to: number): Promise<void> {
  for (const table of [
    'aex9_events',
    'aex9_state_reads',
    'aex9_transfers',
    'aex141_events',
    'dex_swaps',
    'dex_pairs',
    'aexn_call_created',
    'aexn_contracts',
  ])
    await db.query(`DELETE FROM ${table} WHERE height BETWEEN $1 AND $2`, [from, to]);
}
