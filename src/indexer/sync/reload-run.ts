/**
 * @module A run of a reload over a list of heights, as `-H` does it (maintenance/reload.ts) and the populator's start-up
 * repairs (ga-repair.ts), by a writer holding the schema's lock: each batch deleted and loaded again in one transaction,
 * so readers see the old or the new height, never neither, with its record of how far the reload got
 * (reload_progress), so the same list started again goes on from there.
 */
import type { Config } from '../../config/middleware.ts';
import type { Queryable } from '../../db/connection/pool.ts';
import { storedHeightsAbove } from '../../db/queries/block-hashes.ts';
import type { WriterLock } from '../../db/schema/writer-lock.ts';
import { AppError, ErrorCode } from '../../base/errors.ts';
import type { Logger } from '../../base/log.ts';
import { NodeError } from '../../node/errors.ts';
import { contiguousRuns, heightRange, runsText } from './heights.ts';
import { loadBatch, prepareBatch, type LoaderDeps, type PreparedBatch } from './loader.ts';
import { heartbeat, SyncStatus } from '../../db/writes/sync-state.ts';
import {
  clearReloadProgress,
  reloadProgress,
  saveReloadProgress,
  type ReloadProgress,
} from '../../db/writes/reload-progress.ts';
import { ProgressLine } from '../../base/progress-line.ts';
import { Backoff, sleep, waitBefore } from '../../base/retry.ts';

/**
 * NODE_AWAY: a batch whose node reads failed after the client's own tries (a node restarting, or busy for longer than
 * its timeout) is prepared again after this backoff, for as long as the node stays away, as the populator waits: a
 * reload of hours does not end on a node's minute away (started again it would go on after its last batch anyway).
 */
const NODE_AWAY = { initialMs: 1000, maxMs: 30_000, jitter: 0.2 };

/** ReloadRun: heights reloaded as listed, heights above a replaced one reloaded. */
export interface ReloadRun {
  readonly reloaded: number;
  readonly rederived: number;
}

/** Phase: the listed heights, then the stored heights above a replaced one (reload_progress names the phase). */
type Phase = 'listed' | 'above';

/** The writer of a reload: its settings, the writer lock it holds, its loader, and its end (a populator's stop). */
export interface ReloadDeps {
  readonly cfg: Config;
  readonly log: Logger;
  readonly lock: WriterLock;
  readonly loader: LoaderDeps;
  readonly signal?: AbortSignal;
  /**
   * the populator's own reload: its heartbeat at each batch, so that the status routes tell a live populator
   * reloading, not a stuck one (`-H` beats once: a populator stopped for it is none)
   */
  readonly beats?: boolean;
}

/**
 * reloadWith reloads the listed heights as `-H` does, by a writer holding the schema's lock already (`-H` itself, the
 * populator's start-up repairs), and leaves sync_state's status `after`.
 */
export function reloadWith(deps: ReloadDeps, heights: readonly number[], after: SyncStatus): Promise<ReloadRun> {
  return new Reload(deps, heights).run(after);
}

/**
 * Reload is one run of `-H` over a list of heights, holding the schema's writer lock: it owns its progress (the
 * lowest height whose blocks it replaced, the batch it resumes after, the node's absences), as the Populator owns
 * its sync.
 */
class Reload {
  readonly #cfg: Config;
  readonly #log: Logger;
  readonly #lock: WriterLock;
  readonly #loader: LoaderDeps;
  readonly #heights: readonly number[];
  readonly #listText: string;
  readonly #signal: AbortSignal | undefined;
  readonly #beats: boolean;
  readonly #away = new Backoff(NODE_AWAY);
  /** the lowest height whose stored blocks the node had others for: everything stored above derives from it */
  #lowestReplaced: number | undefined;

  constructor(deps: ReloadDeps, heights: readonly number[]) {
    this.#cfg = deps.cfg;
    this.#signal = deps.signal;
    this.#beats = deps.beats ?? false;
    this.#log = deps.log;
    this.#lock = deps.lock;
    this.#loader = deps.loader;
    this.#heights = heights;
    this.#listText = runsText(heights);
  }

  /**
   * run reloads the listed heights, then the stored heights above a replaced one, going on from an interruption, and
   * leaves the status `after`.
   */
  async run(after: SyncStatus): Promise<ReloadRun> {
    const pool = this.#loader.pool;
    await heartbeat(pool, SyncStatus.RELOADING, null, null);
    const resumed = await this.#resumed();
    this.#lowestReplaced = resumed?.lowestReplaced;
    // an interruption in the second phase had finished the list
    const reloaded = await this.#reload(
      this.#heights,
      'listed',
      resumed?.phase === 'above' ? Infinity : resumed?.doneThrough,
      'heights reloaded',
    );
    const above = await this.#staleAbove();
    const rederived =
      above.length === 0
        ? 0
        : await this.#reload(
            above,
            'above',
            resumed?.phase === 'above' ? resumed.doneThrough : undefined,
            'heights above a replaced one reloaded',
          );
    await clearReloadProgress(pool);
    await heartbeat(pool, after, null, null);
    return { reloaded, rederived };
  }

  /** #resumed is the progress of an interrupted reload of the same list, which this one goes on from. */
  async #resumed(): Promise<ReloadProgress | undefined> {
    const interrupted = await reloadProgress(this.#loader.pool);
    const resumed = interrupted?.heights === this.#listText ? interrupted : undefined;
    if (resumed)
      this.#log.info(
        { phase: resumed.phase, after: resumed.doneThrough, lowestReplaced: resumed.lowestReplaced },
        'resuming an interrupted reload of the same heights after its last batch written',
      );
    else if (interrupted)
      this.#log.info(
        { interrupted: interrupted.heights.slice(0, 200) },
        'an interrupted reload of other heights is not resumed: this one starts from its first height',
      );
    return resumed;
  }

  /**
   * #staleAbove lists the stored heights whose state derives from a replaced block: heights reloaded in order right
   * after the replaced one derive from fresh state; from the first stored height above it that was not reloaded,
   * everything stored derives from stale state.
   */
  async #staleAbove(): Promise<number[]> {
    if (this.#lowestReplaced === undefined) return [];
    const stored = await storedHeightsAbove(this.#loader.pool, this.#lowestReplaced);
    const listed = new Set(this.#heights);
    const firstStale = stored.findIndex((h) => !listed.has(h));
    const above = firstStale < 0 ? [] : stored.slice(firstStale);
    if (above.length > 0)
      this.#log.warn(
        { replacedFrom: this.#lowestReplaced, heights: above.length },
        'the node has other blocks at a reloaded height: reloading every stored height above it, whose name and oracle state derives from it',
      );
    return above;
  }

  /** #reload reloads the heights of `list` above `after` (those up to it were written before an interruption). */
  async #reload(list: readonly number[], phase: Phase, after: number | undefined, message: string): Promise<number> {
    const todo = after === undefined ? list : list.filter((h) => h > after);
    const progress = new ProgressLine({
      log: this.#log,
      message,
      total: list.length,
      doneBefore: list.length - todo.length,
      intervalMs: this.#cfg.progressLogMs,
    });
    let done = 0;
    for (const [from, to] of contiguousRuns(todo)) done += await this.#reloadRun(from, to, phase, progress);
    return done;
  }

  /**
   * #reloadRun reloads the contiguous heights `from`-`to` in batches, each prepared while the one before is written;
   * a node away is waited for and the batch read again.
   */
  async #reloadRun(from: number, to: number, phase: Phase, progress: ProgressLine): Promise<number> {
    let done = 0;
    // the first height of the batch being prepared: read again from there when the node went away
    let start = from;
    let prepared: Promise<PreparedBatch> | undefined = this.#prepare(from, to);
    while (prepared) {
      const current = prepared;
      let batch: PreparedBatch;
      let last: number;
      let result: Awaited<ReturnType<typeof loadBatch>>;
      try {
        batch = await current;
        last = batch.gens.at(-1)!.height;
        // prepare the next batch while this one is written
        prepared = last < to ? this.#prepare(last + 1, to) : undefined;
        result = await loadBatch(
          this.#loader,
          batch.gens.map((g) => g.height),
          { replace: true, prepared: current, alsoWrite: this.#record(phase, last) },
        );
      } catch (err) {
        if (err instanceof NodeError && err.notFound) {
          throw new AppError(
            ErrorCode.CLI_BAD_HEIGHTS,
            400,
            `the node has no generation in ${from}-${to} (${err.message})`,
          );
        }
        if (!(err instanceof NodeError && err.transient)) throw err;
        if (this.#away.failures === 0)
          this.#log.warn({ err: err.message, from: start }, 'the node does not answer: the reload waits for it');
        await sleep(waitBefore(this.#away.next(), err.retryAfterMs), this.#signal);
        this.#signal?.throwIfAborted();
        prepared = this.#prepare(start, to);
        continue;
      }
      if (this.#away.failures > 0) {
        this.#log.info({ failedTries: this.#away.failures, from: start }, 'the node answers again: the reload goes on');
        this.#away.reset();
      }
      start = last + 1;
      if (result.kind === 'written' && result.replaced.length > 0)
        this.#lowestReplaced = Math.min(this.#lowestReplaced ?? Infinity, ...result.replaced);
      done += batch.gens.length;
      progress.advance(batch.gens.length, { from: batch.gens[0]!.height, to: last });
      if (this.#beats) await heartbeat(this.#loader.pool, SyncStatus.RELOADING, null, null);
      // the lock went with its connection (a restart): another writer may have it now
      if (this.#lock.lost.aborted)
        throw new AppError(ErrorCode.CLI_WRITER_BUSY, 409, 'writer lock lost with its connection');
    }
    return done;
  }

  /** #prepare reads a batch of up to BATCH_SIZE heights of one run, ending where BATCH_TRANSACTIONS is reached. */
  #prepare(from: number, to: number): Promise<PreparedBatch> {
    const preparing = prepareBatch(
      this.#loader,
      heightRange(from, Math.min(this.#cfg.batchSize, to - from + 1)),
      false,
    );
    preparing.catch(() => {}); // surfaced when the batch is loaded
    return preparing;
  }

  /** #record writes the reload's progress with a batch's rows: a kill loses the batch and its progress together. */
  #record(phase: Phase, doneThrough: number) {
    return (client: Queryable, replaced: readonly number[]): Promise<void> =>
      saveReloadProgress(client, {
        heights: this.#listText,
        phase,
        doneThrough,
        lowestReplaced:
          replaced.length > 0 ? Math.min(this.#lowestReplaced ?? Infinity, ...replaced) : this.#lowestReplaced,
      });
  }
}
