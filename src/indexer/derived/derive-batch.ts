/**
 * @module A batch's derived areas (DERIVED_AREAS, derived-areas.ts), derived in the batch's transaction: an area
 * behind, failing, underived or gathered is recorded in derive_backfill for the backfill (derive-backfill.ts) instead.
 */
import { type Queryable } from '../../db/connection/pool.ts';
import { recordBackfill, recordFailure, withSavepoint } from '../../db/writes/derive-backfill.ts';
import { pendingBackfills } from '../../db/queries/pending-backfills.ts';
import type { GenerationRows } from '../rows/rows.ts';
import { errorMessage } from '../../base/errors.ts';
import { DERIVED_AREAS, type BatchDerivation } from './derived-areas.ts';

/**
 * deriveBatchAreas derives the areas of a batch just written (ascending generations) in the caller's transaction.
 * An area still behind (being backfilled), failing, underived or gathered is not derived here, nor is any area after
 * it (but a standalone one; none after a leaf, whose rows no area reads): their heights are added to derive_backfill,
 * where the populator's backfill derives them in order and reports a failure.
 */
export async function deriveBatchAreas(
  db: Queryable,
  gens: readonly GenerationRows[],
  derivation: BatchDerivation,
): Promise<void> {
  if (gens.length === 0) return;
  const underived = derivation.underived ?? new Map<string, string>();
  const from = gens[0]!.keyBlock.height;
  const to = gens.at(-1)!.keyBlock.height;
  const behind = new Set((await pendingBackfills(db)).map((p) => p.area));
  let deferred = false;
  const notDerived = new Set<string>();
  for (const [area, derive] of DERIVED_AREAS) {
    const gathered = derivation.gathering === true && derive.gathers !== undefined;
    // an area that names its reads waits for those only; another for every area before it that others read
    const held = derive.reads ? derive.reads.some((read) => notDerived.has(read)) : !derive.standalone && deferred;
    if (!held && !behind.has(area) && !gathered) {
      const batch = derive.batch;
      const err =
        underived.get(area) ??
        (batch === undefined ? undefined : await withSavepoint(db, () => batch(db, gens, derivation)));
      if (err === undefined) continue;
      notDerived.add(area);
      await recordBackfill(db, area, from, to);
      await recordFailure(db, area, failureText(from, to, err));
    } else {
      notDerived.add(area);
      await recordBackfill(db, area, from, to);
      // deferred behind another area, it says why it could not derive itself either (it fails until its turn)
      const own = underived.get(area);
      if (own !== undefined) await recordFailure(db, area, own);
    }
    deferred ||= !derive.standalone && !derive.leaf;
  }
}

/** failureText is what a failed derivation records and logs: the heights it failed on and the cause. */
export function failureText(from: number, to: number, err: unknown): string {
  return `heights ${from}-${to}: ${errorMessage(err)}`;
}
