/**
 * @module `mdw -v`'s check of the derived areas (internal transfers, generation fees, statistics and their
 * aggregates): every stored height re-derived from the stored rows into temporary twins of the tables, by the same
 * functions the populator's backfill runs (derive-backfill.ts), and compared row by row with what is stored.
 */
import { ProgressLine, type ProgressOptions } from '../../base/progress-line.ts';
import type { Pool } from '../../db/connection/pool.ts';
import { withShadowTables } from '../../db/queries/derive-check.ts';
import { pendingBackfills, type PendingBackfill } from '../../db/queries/pending-backfills.ts';
import { DERIVED_AREAS } from '../derived/derived-areas.ts';
import type { TransferRules } from '../derived/internal-transfers.ts';

/** Heights re-derived per statement batch (as the backfill's batches). */
const HEIGHTS_PER_BATCH = 500;

/**
 * failedAreaLines names each derived area whose derivation fails, with the first height it lacks, since when and why:
 * a difference (`mdw -v` exits non-zero), never "still deriving", which the populator is not (issue 39).
 */
export function failedAreaLines(pending: readonly PendingBackfill[]): string[] {
  return pending
    .filter((p) => p.failingSince !== undefined)
    .map(
      (p) =>
        `derived area ${p.area} fails at height ${p.next} (heights ${p.next}-${p.to} underived) since ` +
        `${p.failingSince!.toISOString()}: ${p.error ?? ''}`,
    );
}

/** pendingState says why an area's heights are not derived yet: the populator is deriving them, or the area fails. */
export function pendingState(p: PendingBackfill): string {
  return p.failingSince === undefined
    ? `the populator is still deriving heights ${p.next}-${p.to}`
    : `the area fails at height ${p.next} (heights ${p.next}-${p.to} underived)`;
}

/** pendingAreasText says which areas the populator is still deriving, and which fail, from which height. */
export function pendingAreasText(pending: readonly PendingBackfill[]): string {
  const deriving = pending.filter((p) => p.failingSince === undefined);
  const failing = pending.filter((p) => p.failingSince !== undefined);
  return [
    ...(deriving.length > 0
      ? [
          `the populator is still deriving ${deriving
            .map((p) => `${p.area} (heights ${p.next}-${p.to})`)
            .join(', ')} from the stored rows`,
        ]
      : []),
    ...failing.map((p) => `${p.area} fails at height ${p.next}`),
  ].join('; ');
}

/**
 * compareStoredDerivations lists the differences between the stored derived rows and a re-derivation from the
 * stored rows of the whole chain (`shown` rows per table and side, and how many more), or says why it cannot.
 */
export async function compareStoredDerivations(
  pool: Pool,
  schema: string,
  rules: TransferRules,
  opts: { shown: number; progress: Pick<ProgressOptions, 'log' | 'intervalMs'> },
): Promise<{ differences: string[]; skipped?: string }> {
  const pending = await pendingBackfills(pool);
  if (pending.length > 0)
    return {
      differences: [],
      skipped: `derived areas not compared: ${pendingAreasText(pending)}`,
    };
  const result = await withShadowTables(
    pool,
    schema,
    async (db, top) => {
      const areas = [...DERIVED_AREAS].filter(([, derive]) => !derive.asksNode && derive.repairs === undefined);
      const batches = Math.ceil((top + 1) / HEIGHTS_PER_BATCH);
      const progress = new ProgressLine({
        ...opts.progress,
        message: 'verify: derived areas re-derived from the stored rows',
        total: areas.length * batches,
      });
      for (const [area, derive] of areas)
        for (let from = 0; from <= top; from += HEIGHTS_PER_BATCH) {
          await derive.stored(db, from, Math.min(from + HEIGHTS_PER_BATCH - 1, top), { rules });
          progress.advance(1, { area });
        }
    },
    opts.shown,
  );
  const differences: string[] = [];
  for (const d of result?.differences ?? []) {
    for (const row of d.rows) differences.push(`derived ${d.table}: row ${d.where}: ${row}`);
    if (d.total > d.rows.length)
      differences.push(`derived ${d.table}: ${d.total - d.rows.length} more row(s) ${d.where}`);
  }
  return { differences };
}
