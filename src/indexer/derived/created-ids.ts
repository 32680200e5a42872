/**
 * @module The `created` area: the created id of each stored transaction that was written before the writer stored
 * it (migration 1013), computed from its stored bytes as the writer computes it for a new one.
 */
import { renderStoredTx } from '../../chain/stored-tx.ts';
import { createdIdOf } from '../../chain/tx-fields.ts';
import type { Queryable } from '../../db/connection/pool.ts';
import { txsWithoutCreatedId, writeCreatedIds } from '../../db/writes/created-ids.ts';

/** deriveCreatedIds stores the created ids of heights from..to that have none. */
export async function deriveCreatedIds(db: Queryable, from: number, to: number): Promise<void> {
  const rows = [];
  for (const t of await txsWithoutCreatedId(db, from, to)) {
    const createdId = createdIdOf(renderStoredTx(t.signed).tx);
    if (createdId !== null) rows.push({ height: t.height, microIndex: t.microIndex, txIndex: t.txIndex, createdId });
  }
  await writeCreatedIds(db, rows);
}
