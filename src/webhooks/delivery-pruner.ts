/**
 * @module The pruning of done deliveries (docs/webhooks.md, "Retention"): beside the sender, never on the populator's
 * path, every interval it deletes the rows past their retention in bounded batches, one statement and a pause at a
 * time, until none is left.
 */
import type { Logger } from '../base/log.ts';
import { errorMessage } from '../base/errors.ts';
import { sleep } from '../base/retry.ts';
import type { Pool } from '../db/connection/pool.ts';
import { pruneDeliveries } from '../db/writes/webhook-queue.ts';

/** PrunerSettings: what is kept, and how the deletes are spread. */
export interface PrunerSettings {
  /** how long a done delivery is kept after its last attempt (WEBHOOK_RETENTION_MS) */
  readonly retentionMs: number;
  /** the heights below the top whose rows are kept whatever their age (FORK_WINDOW) */
  readonly forkWindow: number;
  /** the time between two prunings */
  readonly intervalMs: number;
  /** rows deleted by one statement */
  readonly batch: number;
  /** the pause between two statements of one pruning */
  readonly pauseMs: number;
}

/** PRUNE_PACE: a pruning each minute, 1000 rows a statement, 50 ms apart (at most 20 000 rows a second). */
export const PRUNE_PACE = { intervalMs: 60_000, batch: 1000, pauseMs: 50 } as const;

/** DeliveryPruner deletes the done deliveries past their retention, from `start` until `stop`. */
export class DeliveryPruner {
  readonly #pool: Pool;
  readonly #log: Logger;
  readonly #settings: PrunerSettings;
  readonly #stop = new AbortController();
  #loop: Promise<void> | undefined;

  constructor(pool: Pool, log: Logger, settings: PrunerSettings) {
    this.#pool = pool;
    this.#log = log;
    this.#settings = settings;
  }

  start(): void {
    this.#loop ??= this.#run();
  }

  async stop(): Promise<void> {
    this.#stop.abort();
    await this.#loop;
  }

  /** prune deletes every done delivery past its retention, batch by batch; returns how many went. */
  async prune(): Promise<number> {
    const { batch, pauseMs } = this.#settings;
    let total = 0;
    while (!this.#stop.signal.aborted) {
      const n = await pruneDeliveries(this.#pool, this.#settings);
      total += n;
      if (n < batch) break;
      await sleep(pauseMs, this.#stop.signal);
    }
    return total;
  }

  async #run(): Promise<void> {
    while (!this.#stop.signal.aborted) {
      try {
        const n = await this.prune();
        if (n > 0) this.#log.debug({ deliveries: n }, 'done webhook deliveries pruned');
      } catch (err) {
        this.#log.warn({ err: errorMessage(err) }, 'webhook deliveries could not be pruned');
      }
      await sleep(this.#settings.intervalMs, this.#stop.signal);
    }
  }
}
