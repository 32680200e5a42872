/**
 * @module The quota counts shared by every server: each counts in memory what it lets in (QuotaBook) and, every
 * API_QUOTA_FLUSH_MS, adds it to the counts in PostgreSQL and reads back everyone's, in one statement. A request never
 * waits for the database. What several servers let in between two flushes is the bound of how far a quota can be
 * overrun (docs/operations.md, "API keys and quotas").
 */
import type { Logger } from '../../base/log.ts';
import { errorMessage } from '../../base/errors.ts';
import type { Pool } from '../../db/connection/pool.ts';
import { addUsage, pruneUsage, syncHeld } from '../../db/writes/api-keys.ts';
import type { KeySlots } from './key-slots.ts';
import { QuotaBook, type Decision } from './quota-book.ts';
import type { Tier } from './tiers.ts';

/**
 * HELD_SYNC_MS: how often a server writes what its subjects hold and reads the others': each sync reads every subject
 * holding something on another server (a public instance's websocket clients), so it runs at a second's pace, not a
 * flush's. What other servers let a subject take since their last sync is how far a limit can be overrun.
 */
const HELD_SYNC_MS = 1000;

/** HELD_FRESH_SECONDS: rows of a server that did not sync for this long are ignored (a server gone). */
const HELD_FRESH_SECONDS = 10;

/** PRUNE_EVERY_MS: how often a server deletes the counts of ended windows (every server does; it is idempotent). */
const PRUNE_EVERY_MS = 60_000;

export interface QuotaLedgerOptions {
  readonly pool: Pool;
  readonly flushMs: number;
  readonly log: Logger;
  /** hears each flush's duration in seconds, or its failure (undefined) */
  readonly flushed?: (seconds: number | undefined) => void;
  /** what subjects hold at once, synced with the other servers' under `server`, this server's random name */
  readonly slots?: { readonly slots: KeySlots; readonly server: string };
}

/** QuotaLedger lets requests in against the shared counts and flushes its own to them; start and stop run the flushes. */
export class QuotaLedger {
  readonly #options: QuotaLedgerOptions;
  readonly #book = new QuotaBook();
  #timer: NodeJS.Timeout | undefined;
  #flushing: Promise<void> | undefined;
  #prunedAt = 0;
  #heldSyncedAt = 0;
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
    // what this server held is no longer held: the others need not wait for its rows to go stale
    const { slots, pool } = this.#options;
    if (slots) await syncHeld(pool, slots.server, [], HELD_FRESH_SECONDS).catch(() => {});
  }

  /** flush adds what this server let in to the shared counts and learns everyone's (the timer's step; tests call it). */
  async flush(): Promise<void> {
    const { pool } = this.#options;
    const now = Date.now();
    await this.#syncHeld(now);
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

  async #syncHeld(now: number): Promise<void> {
    const { slots } = this.#options;
    if (!slots || now - this.#heldSyncedAt < HELD_SYNC_MS) return;
    this.#heldSyncedAt = now;
    slots.slots.learnOthers(await syncHeld(this.#options.pool, slots.server, slots.slots.mine(), HELD_FRESH_SECONDS));
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
