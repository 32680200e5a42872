/**
 * @module The derived areas (internal transfers and generation fees; AEX-N, AEX-9, AEX-141 and DEX rows;
 * statistics; accounts' balances; the decoding of calls stored undecoded for now; generalized accounts' calls; contracts'
 * internal calls; the ids transactions create; the spends per day; a hyperchain's consensus) beside the chain: each batch derives
 * them in its transaction; an area that an upgrade added, that is behind, or whose derivation fails is recorded in
 * derive_backfill (migration 1003) and derived later from the stored rows, never by fetching the blocks again, one
 * batch of heights per step, each in one transaction that also records the progress: a kill mid-way resumes at the
 * last commit, a finished area is never derived again, and a failing area never stops the chain from being followed.
 */
import { notifyCommitted } from '../../db/connection/notify.ts';
import { withTransaction, type Pool } from '../../db/connection/pool.ts';
import { advanceBackfill, recordFailure } from '../../db/writes/derive-backfill.ts';
import { pendingBackfills, type PendingBackfill } from '../../db/queries/pending-backfills.ts';
import { storedHeightsAbove } from '../../db/queries/block-hashes.ts';
import { heightsTransactionCount, transactionsByHeight } from '../../db/queries/height-transactions.ts';
import type { Logger } from '../../base/log.ts';
import { Backoff } from '../../base/retry.ts';
import { stretchEnd } from './gathered-stretch.ts';
import type { IndexerMetrics } from '../metrics.ts';
import { DERIVED_AREAS, GATHERED_TRANSACTIONS, type AreaDerivation, type DeriveContext } from './derived-areas.ts';
import { failureText } from './derive-batch.ts';

/**
 * nextJob is the pending area the backfill derives next: the first in DERIVED_AREAS order, but while the populator
 * catches up an area that gathers waits until it has a whole stretch pending, its heights' or (`filled`) its
 * transactions' (a failing one is retried at once); the areas after it go on meanwhile (it is a leaf). Pure.
 */
export function nextJob(
  pending: readonly PendingBackfill[],
  catchingUp: boolean,
  filled: ReadonlySet<string> = new Set(),
): PendingBackfill | undefined {
  const waits = (job: PendingBackfill, derive: AreaDerivation): boolean =>
    (catchingUp &&
      derive.gathers !== undefined &&
      !job.failingSince &&
      job.to - job.next + 1 < derive.gathers &&
      !filled.has(job.area)) ||
    readsBelow(pending, derive) <= job.next;
  return [...DERIVED_AREAS]
    .map(([area, derive]) => ({ job: pending.find((p) => p.area === area), derive }))
    .find(({ job, derive }) => job !== undefined && !waits(job, derive))?.job;
}

/**
 * readsBelow is the first height an area's reads (`reads`) have still to derive: it derives only below it. A read
 * area that fails holds it up no more. Pure.
 */
export function readsBelow(pending: readonly PendingBackfill[], derive: AreaDerivation): number {
  const heights = pending
    .filter((p) => derive.reads?.includes(p.area) === true && !p.failingSince && p.next <= p.to)
    .map((p) => p.next);
  return Math.min(Infinity, ...heights);
}

const PROGRESS_LOG_MS = 10_000;

export interface DeriveBackfillDeps extends DeriveContext {
  readonly pool: Pool;
  readonly log: Logger;
  /** heights derived per transaction */
  readonly batchHeights: number;
  /** the schema whose servers hear of each batch (their cached statistics and answers) */
  readonly schema: string;
  readonly metrics?: Pick<IndexerMetrics, 'derivePendingHeights' | 'deriveFailing'>;
  /** ends the node requests of the derivations (the populator stopping, its writer lock lost) */
  readonly signal?: AbortSignal;
  /** transactions a stretch of an area that gathers holds at most (GATHERED_TRANSACTIONS unless set: tests) */
  readonly gatheredTransactions?: number;
}

/** DeriveBackfill derives the pending areas one batch per step, in DERIVED_AREAS order, and reports failures once. */
export class DeriveBackfill {
  readonly #deps: DeriveBackfillDeps;
  #area: { name: string; from: number; started: number; loggedAt: number } | undefined;
  /** the areas known to fail (logged once when they start failing, once when they recover) */
  readonly #failing = new Set<string>();
  readonly #retry = new Backoff({ initialMs: 1000, maxMs: 60_000, jitter: 0.2 });
  #retryAt = 0;
  #gathered = false;
  /** the transactions counted of each gathering area's pending heights next..to, as last seen (#filled) */
  readonly #counted = new Map<string, { next: number; to: number; transactions: number }>();

  constructor(deps: DeriveBackfillDeps) {
    this.#deps = deps;
  }

  /** gathered: an area that gathers (derive-backfill.ts, `gathers`) has heights pending, not failing, as last seen */
  get gathered(): boolean {
    return this.#gathered;
  }

  /**
   * step derives the next batch of the first pending area: true when it did, false when nothing is left or a failing
   * area waits for its next retry. A failed derivation is recorded and logged, not thrown (the database's own loss is,
   * and so is one that `signal` ended).
   */
  async step(opts: { catchingUp?: boolean } = {}): Promise<boolean> {
    const { pool, log, batchHeights } = this.#deps;
    const pending = await pendingBackfills(pool);
    this.#observe(pending);
    const catchingUp = opts.catchingUp === true;
    const job = nextJob(pending, catchingUp, catchingUp ? await this.#filled(pending) : new Set());
    if (job === undefined || Date.now() < this.#retryAt) return false;
    const derive = DERIVED_AREAS.get(job.area)!;
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
    const end = Math.min(from + (derive.gathers ?? batchHeights) - 1, job.to, readsBelow(pending, derive) - 1);
    const to =
      derive.gathers === undefined || from > end
        ? end
        : stretchEnd(from, end, await transactionsByHeight(pool, from, end), this.#cap);
    try {
      await withTransaction(pool, async (client) => {
        // the deps are the derivations' context whole, its listeners included (the populator's log and metrics)
        if (from <= to) await derive.stored(client, from, to, this.#deps);
        if (job.failingSince) await recordFailure(client, job.area, null);
        await advanceBackfill(client, job.area, to + 1);
        if (from <= to) await notifyCommitted(client, this.#deps.schema, { from, to, derived: true });
      });
    } catch (err) {
      // ended by the process's own stop (or its lock's loss), not by the area: it stays pending, not failing (issue 59)
      if (this.#deps.signal?.aborted) throw err;
      const error = failureText(from, to, err);
      await recordFailure(pool, job.area, error);
      this.#observe(pending.map((p) => (p === job ? { ...p, failingSince: new Date(), error } : p)));
      this.#retryAt = Date.now() + this.#retry.next();
      return false;
    }
    this.#retry.reset();
    this.#observe(pending.map((p) => (p === job ? { ...p, next: to + 1, failingSince: undefined } : p)));
    this.#progress(job, to);
    return true;
  }

  get #cap(): number {
    return this.#deps.gatheredTransactions ?? GATHERED_TRANSACTIONS;
  }

  /**
   * #filled are the areas that gather, not failing, whose pending heights (fewer than a stretch's) hold a stretch's
   * transactions already: catching up, they need not wait for more heights (nextJob). Each area's count goes on from
   * the heights counted before while its next height stays, so a step counts only the heights recorded since.
   */
  async #filled(pending: readonly PendingBackfill[]): Promise<Set<string>> {
    const filled = new Set<string>();
    for (const p of pending) {
      const gathers = DERIVED_AREAS.get(p.area)?.gathers;
      if (gathers === undefined || p.failingSince || p.next > p.to || p.to - p.next + 1 >= gathers) continue;
      const seen = this.#counted.get(p.area);
      const counted =
        seen?.next === p.next && seen.to <= p.to ? seen : { next: p.next, to: p.next - 1, transactions: 0 };
      const added = counted.to < p.to ? await heightsTransactionCount(this.#deps.pool, counted.to + 1, p.to) : 0;
      const transactions = counted.transactions + added;
      this.#counted.set(p.area, { next: p.next, to: p.to, transactions });
      if (transactions >= this.#cap) filled.add(p.area);
    }
    return filled;
  }

  /** #observe logs the areas that started or stopped failing and sets the metrics. */
  #observe(pending: readonly PendingBackfill[]): void {
    const { log, metrics } = this.#deps;
    this.#gathered = pending.some(
      (p) => DERIVED_AREAS.get(p.area)?.gathers !== undefined && p.next <= p.to && !p.failingSince,
    );
    for (const area of DERIVED_AREAS.keys()) {
      const p = pending.find((q) => q.area === area && q.next <= q.to);
      metrics?.derivePendingHeights.set({ area }, p ? p.to - p.next + 1 : 0);
      const failing = p?.failingSince !== undefined;
      metrics?.deriveFailing.set({ area }, failing ? 1 : 0);
      if (failing && !this.#failing.has(area)) {
        this.#failing.add(area);
        log.error(
          { area, from: p.next, err: p.error },
          'deriving an area fails: its heights are deferred and retried while the chain is followed',
        );
      } else if (!failing && this.#failing.delete(area)) log.info({ area }, 'deriving the area works again');
    }
  }

  #progress(job: PendingBackfill, to: number): void {
    const area = this.#area!;
    const now = Date.now();
    const seconds = (now - area.started) / 1000;
    if (to >= job.to) {
      this.#area = undefined;
      this.#deps.log.info(
        { area: job.area, from: area.from, to: job.to, seconds: Math.round(seconds) },
        'derived area complete for stored heights',
      );
      return;
    }
    if (now - area.loggedAt >= PROGRESS_LOG_MS) {
      area.loggedAt = now;
      const rate = (to + 1 - area.from) / Math.max(seconds, 1e-3);
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
