/**
 * @module The backfill of derived areas (migration 0080's derive_backfill): the rows a table added by an
 * upgrade holds for heights stored before it, derived from the stored rows alone, never by fetching the
 * blocks again. One batch of heights per step, each in one transaction that also records the progress, so a
 * kill mid-way resumes at the last commit and a finished area is never derived again.
 */
import { withTransaction, type Pool, type Queryable } from '../db/pool.ts';
import {
  advanceBackfill,
  deleteInternalTransfers,
  pendingBackfills,
  replaceGenerationFees,
  storedKeyBlockTargets,
  type PendingBackfill,
} from '../db/queries/derive-backfill.ts';
import { storedHeightsAbove } from '../db/queries/blocks.ts';
import type { Logger } from '../log.ts';
import { deriveTransfersOfStored, type TransferRules } from './internal-transfers.ts';
import { deriveStatsOfStored } from './stats.ts';

/** How one area derives the stored heights from..to (both stored or not) inside the caller's transaction. */
type AreaDerivation = (db: Queryable, from: number, to: number, rules: TransferRules) => Promise<void>;

/**
 * The areas in the order they derive: the statistics read the internal transfers (miners' rewards,
 * supply), and each generation's rewards read the fees of generations before it.
 */
export const BACKFILL_AREAS: ReadonlyMap<string, AreaDerivation> = new Map<string, AreaDerivation>([
  [
    'transfers',
    async (db, from, to, rules) => {
      await deleteInternalTransfers(db, from, to);
      await replaceGenerationFees(db, from, to);
      const heights = (await storedKeyBlockTargets(db, from, to)).map((b) => b.height);
      await deriveTransfersOfStored(db, heights, { from, to }, rules);
    },
  ],
  ['stats', async (db, from, to) => deriveStatsOfStored(db, await storedKeyBlockTargets(db, from, to))],
]);

const PROGRESS_LOG_MS = 10_000;

export interface DeriveBackfillDeps {
  readonly pool: Pool;
  readonly log: Logger;
  readonly rules: TransferRules;
  /** heights derived per transaction */
  readonly batchHeights: number;
}

/** DeriveBackfill derives the pending areas one batch per step, in BACKFILL_AREAS order. */
export class DeriveBackfill {
  readonly #deps: DeriveBackfillDeps;
  /** what is left, read once per run (only this writer changes it); undefined until read */
  #pending: PendingBackfill[] | undefined;
  #area: { name: string; from: number; started: number; loggedAt: number } | undefined;

  constructor(deps: DeriveBackfillDeps) {
    this.#deps = deps;
  }

  /** pending is true while an area is left (known after the first step). */
  get pending(): boolean {
    return this.#pending === undefined || this.#pending.length > 0;
  }

  /** step derives the next batch of the first pending area; false when nothing is left. */
  async step(): Promise<boolean> {
    const { pool, log, rules, batchHeights } = this.#deps;
    if (this.#pending === undefined) {
      const rows = await pendingBackfills(pool);
      for (const r of rows)
        if (!BACKFILL_AREAS.has(r.area)) log.error({ area: r.area }, 'unknown derived area left in derive_backfill');
      this.#pending = [...BACKFILL_AREAS.keys()].flatMap((area) => rows.filter((r) => r.area === area));
    }
    const job = this.#pending[0];
    if (job === undefined) return false;
    const derive = BACKFILL_AREAS.get(job.area)!;
    if (this.#area?.name !== job.area) {
      const now = Date.now();
      this.#area = { name: job.area, from: job.next, started: now, loggedAt: now };
      log.info(
        { area: job.area, from: job.next, to: job.to },
        'deriving an area for stored heights from the stored rows (no blocks are fetched)',
      );
    }
    // a stretch without stored heights (a sparse database) is skipped at once
    const first = (await storedHeightsAbove(pool, job.next - 1, 1))[0];
    const from = first === undefined ? job.to + 1 : Math.min(first, job.to + 1);
    const to = Math.min(from + batchHeights - 1, job.to);
    await withTransaction(pool, async (client) => {
      if (from <= to) await derive(client, from, to, rules);
      await advanceBackfill(client, job.area, to + 1);
    });
    this.#progress(job, to);
    return true;
  }

  #progress(job: PendingBackfill, to: number): void {
    const area = this.#area!;
    const now = Date.now();
    const seconds = (now - area.started) / 1000;
    if (to >= job.to) {
      this.#pending!.shift();
      this.#deps.log.info(
        { area: job.area, from: area.from, to: job.to, seconds: Math.round(seconds) },
        'derived area complete for stored heights',
      );
      return;
    }
    this.#pending![0] = { ...job, next: to + 1 };
    if (now - area.loggedAt >= PROGRESS_LOG_MS) {
      area.loggedAt = now;
      const done = to + 1 - area.from;
      const rate = done / Math.max(seconds, 1e-3);
      this.#deps.log.info(
        {
          area: job.area,
          height: to,
          to: job.to,
          heightsPerSecond: Math.round(rate),
          secondsLeft: Math.round((job.to - to) / Math.max(rate, 1e-3)),
        },
        'deriving an area for stored heights',
      );
    }
  }
}
