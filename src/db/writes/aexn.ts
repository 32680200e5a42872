/**
 * @module AEX-N contracts (migration 1002): the populator's writes of the contracts it detected and of the
 * contracts created inside calls it checked, and the lookups its detector makes.
 */
import type { Queryable } from '../connection/pool.ts';
import type { AexnRows } from './token-rows.ts';
import { insertMany } from './bulk-load.ts';
import { writeAex9Rows } from './aex9.ts';

/** writeAexnRows writes a batch's AEX-N rows (the caller owns the transaction; the batch's key blocks are written). */
export async function writeAexnRows(db: Queryable, batch: readonly AexnRows[]): Promise<void> {
  const contracts = batch.flatMap((r) => r.contracts);
  if (contracts.length > 0)
    await insertMany(
      db,
      'aexn_contracts',
      [
        ['contract_id', 'text'],
        ['aexn_type', 'text'],
        ['height', 'int'],
        ['micro_index', 'int'],
        ['tx_index', 'int'],
        ['tx_hash', 'text'],
        ['created_by_call', 'boolean'],
        ['name', 'text'],
        ['symbol', 'text'],
        ['decimals', 'int'],
        ['base_url', 'text'],
        ['metadata_type', 'text'],
        ['extensions', 'text[]'],
        ['meta_invalid', 'boolean'],
        ['balances_unknown', 'boolean'],
        ['wrapped_ae', 'boolean'],
      ],
      [
        contracts.map((c) => c.contractId),
        contracts.map((c) => c.aexnType),
        contracts.map((c) => c.height),
        contracts.map((c) => c.microIndex),
        contracts.map((c) => c.txIndex),
        contracts.map((c) => c.txHash),
        contracts.map((c) => c.createdByCall),
        contracts.map((c) => c.name),
        contracts.map((c) => c.symbol),
        contracts.map((c) => c.decimals),
        contracts.map((c) => c.baseUrl),
        contracts.map((c) => c.metadataType),
        // extension names never hold a space (insertMany passes text[] space-joined)
        contracts.map((c) => c.extensions.join(' ')),
        contracts.map((c) => c.metaInvalid),
        contracts.map((c) => c.balancesUnknown),
        contracts.map((c) => c.wrappedAe),
      ],
    );
  const created = batch.flatMap((r) => r.callCreated);
  if (created.length > 0)
    await insertMany(
      db,
      'aexn_call_created',
      [
        ['contract_id', 'text'],
        ['height', 'int'],
        ['micro_index', 'int'],
        ['tx_index', 'int'],
        ['tx_hash', 'text'],
        ['aexn_type', 'text'],
      ],
      [
        created.map((c) => c.contractId),
        created.map((c) => c.height),
        created.map((c) => c.microIndex),
        created.map((c) => c.txIndex),
        created.map((c) => c.txHash),
        created.map((c) => c.aexnType),
      ],
    );
  await writeAex9Rows(db, batch);
}

/** Where a contract was created: the height and micro block of its creating transaction. */
export interface CreatedAt {
  readonly height: number;
  readonly microIndex: number;
}

/**
 * contractsCreatedAt maps each of `ids` that is a stored contract (created by a transaction, or inside a call
 * and checked) to where it was created.
 */
export async function contractsCreatedAt(db: Queryable, ids: readonly string[]): Promise<Map<string, CreatedAt>> {
  if (ids.length === 0) return new Map();
  const { rows } = await db.query<{ contract_id: string; height: number; micro_index: number }>({
    name: 'mdw_contracts_created_at',
    text: `SELECT c.contract_id, c.height, t.micro_index
       FROM contracts c JOIN transactions t ON t.hash = c.create_tx_hash
      WHERE c.contract_id = ANY($1::text[])
     UNION ALL
     SELECT contract_id, height, micro_index FROM aexn_call_created WHERE contract_id = ANY($1::text[])`,
    values: [ids],
  });
  return new Map(rows.map((r) => [r.contract_id, { height: r.height, microIndex: r.micro_index }]));
}
