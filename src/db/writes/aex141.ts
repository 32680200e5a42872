/** @module The writer's SQL for AEX-141: a batch's candidate events, kept only for registered AEX-141 collections. */
import type { Queryable } from '../connection/pool.ts';
import { arrayParameter } from '../connection/array-text.ts';
import type { Aex141EventRow } from './token-rows.ts';

/**
 * insertAex141Events inserts the events of contracts registered as AEX-141 (aexn_contracts, written
 * earlier in the same transaction, so collections created in this batch count): an AEX-9 Transfer
 * has the same topics as an NFT's, and NFT logs of other contracts are ignored, as ae_mdw does.
 * The statement's trigger recomputes the owners of the tokens it touched.
 */
export async function insertAex141Events(db: Queryable, rows: readonly Aex141EventRow[]): Promise<void> {
  if (rows.length === 0) return;
  const col = <T>(f: (r: Aex141EventRow) => T): T[] => rows.map(f);
  await db.query({
    name: 'mdw_aex141_insert_events',
    text: `INSERT INTO aex141_events (height, micro_index, tx_index, tx_hash, log_idx, contract_id, kind, from_id, to_id,
                                      token_id, template_id, limit_value, edition)
           SELECT u.* FROM unnest($1::int[], $2::int[], $3::int[], $4::text[], $5::int[], $6::text[], $7::text[],
                                  $8::text[], $9::text[], $10::numeric[], $11::numeric[], $12::numeric[], $13::text[])
                    AS u(height, micro_index, tx_index, tx_hash, log_idx, contract_id, kind, from_id, to_id,
                         token_id, template_id, limit_value, edition)
            WHERE u.contract_id IN (SELECT a.contract_id FROM aexn_contracts a
                                     WHERE a.aexn_type = 'aex141' AND a.contract_id = ANY($6::text[]))`,
    values: [
      col((r) => r.height),
      col((r) => r.microIndex),
      col((r) => r.txIndex),
      col((r) => r.txHash),
      col((r) => r.logIdx),
      col((r) => r.contractId),
      col((r) => r.kind),
      col((r) => r.fromId),
      col((r) => r.toId),
      col((r) => r.tokenId),
      col((r) => r.templateId),
      col((r) => r.limit),
      col((r) => r.edition),
    ].map(arrayParameter),
  });
}
