/**
 * @module The quota counts shared by every server: each counts in memory what it lets in (QuotaBook) and, every
 * API_QUOTA_FLUSH_MS, adds it to the counts in PostgreSQL and reads back everyone's, in one statement. A request never
 * waits for the database. What several servers let in between two flushes is the bound of how far a quota can be
 * overrun (docs/operations.md, "API keys and quotas").
 */
import type { Logger } from '../../base/log.ts';
import { errorMessage } from '../../base/errors.ts';
import type { Pool } from '../../db/pool.ts';
import { addUsage, pruneUsage } from '../../db/queries/api-keys.ts';
import { QuotaBook, type Decision } from './quota-book.ts';
import type { Tier } from './tiers.ts';

/** PRUNE_EVERY_MS: how often a server deletes the counts of ended windows (every server does; it is idempotent). */
const PRUNE_EVERY_MS = 60_000;

export interface QuotaLedgerOptions {
  readonly pool: Pool;
  readonly flushMs: number;
  readonly log: Logger;
  /** hears each flush's duration in seconds, or its failure (undefined) */
  readonly flushed?: (seconds: number | undefined) => void;
}

/** QuotaLedger lets requests in against the shared counts and flushes its own to them; start and stop run the flushes. */
export class QuotaLedger {
  readonly #options: QuotaLedgerOptions;
  readonly #book = new QuotaBook();
  #timer: NodeJS.Timeout | undefined;
  #flushing: Promise<void> | undefined;
  #prunedAt = 0;
  #failing = false;

  constructor(options: QuotaLedgerOptions) {
    this.#options = options;
  }

  /** take counts a request of `cost` for `subject` if its tier has room (QuotaBook.take, `own` its), now. */
  take(subject: string, tier: Tier, cost: number, own = 0): Decision {
    return this.#book.take(subject, tier, cost, Date.now(), own);
  }

  /** windows counts the subjects' windows held in memory. */
  get windows(): number {
    return this.#book.size;
  }

  start(): void {
    this.#schedule();
  }

  /** stop ends the flushes, with a last one of what was let in since the one before. */
  async stop(): Promise<void> {
    clearTimeout(this.#timer);
    this.#timer = undefined;
    await this.#flushing;
    await this.flush().catch(() => {});
  }

  /** flush adds what this server let in to the shared counts and learns everyone's (the timer's step; tests call it). */
  async flush(): Promise<void> {
    const { pool } = this.#options;
    const now = Date.now();
    const { deltas, subjects } = this.#book.drain(now);
    if (subjects.length === 0) return;
    const started = performance.now();
    try {
      this.#book.learn(await addUsage(pool, deltas, subjects, Math.floor(now / 1000)));
    } catch (err) {
      this.#book.failed();
      throw err;
    }
    this.#options.flushed?.((performance.now() - started) / 1000);
    if (now - this.#prunedAt >= PRUNE_EVERY_MS) {
      this.#prunedAt = now;
      await pruneUsage(pool, Math.floor(now / 1000));
    }
  }

  #schedule(): void {
    this.#timer = setTimeout(() => {
      this.#flushing = this.flush()
        .then(() => {
          if (this.#failing) this.#options.log.info('quota counts flushed again');
          this.#failing = false;
        })
        .catch((err: unknown) => {
          this.#options.flushed?.(undefined);
          // each server goes on counting alone meanwhile: its own counts are still enforced
          if (!this.#failing)
            this.#options.log.warn(
              { reason: errorMessage(err) },
              'quota counts could not be flushed; counting locally',
            );
          this.#failing = true;
        })
        .finally(() => {
          this.#flushing = undefined;
          if (this.#timer !== undefined) this.#schedule();
        });
    }, this.#options.flushMs);
    this.#timer.unref();
  }
}
