/**
 * @module Follower: one step of the populator at a time. Each step polls the node (at most once
 * per poll interval while far behind), checks for forks once caught up, then loads the next batch
 * of missing heights, rolls back, or reports that there is nothing to do.
 */
import type { Config } from '../../config/middleware.ts';
import type { Logger } from '../../base/log.ts';
import type { NodeClient } from '../../node/client.ts';
import { checkForks } from './forks.ts';
import { contiguousRuns, heightRange } from './heights.ts';
import { loadBatch, prepareAppend, prepareBatch, rollbackOnly, type LoaderDeps, type PreparedBatch } from './loader.ts';
import type { IndexerMetrics } from '../metrics.ts';
import type { SyncGauges } from './sync-gauges.ts';
import { topHeight } from '../../db/queries/blocks.ts';
import { lowestMissing, missingHeights, rederiveMark } from '../../db/queries/sync-state.ts';
import { heartbeat, SyncStatus } from '../../db/writes/sync-state.ts';
import { AppError, ErrorCode } from '../../base/errors.ts';

/** How far above the next height one look-up for missing heights reaches, in batches. */
const LOOKAHEAD_BATCHES = 20;
const PROGRESS_LOG_MS = 10_000;

export interface FollowerDeps {
  readonly cfg: Pick<
    Config,
    | 'batchSize'
    | 'fetchConcurrency'
    | 'forkWindow'
    | 'pollIntervalMs'
    | 'databaseSchema'
    | 'maxForkDepth'
    | 'allowDeepFork'
  >;
  readonly log: Logger;
  readonly loader: LoaderDeps & { readonly metrics: IndexerMetrics };
  /** the client for the top-height poll (no retries of its own) */
  readonly poll: NodeClient;
  /** the heights, the lag and the node's answers in the metrics: the populator's, kept across its followers */
  readonly gauges: SyncGauges;
  /** the follower's end (the populator stopping, its writer lock lost), which aborts its requests */
  readonly signal: AbortSignal;
}

/** What a step did: loaded or deleted heights ('busy'), or found the database equal to the node ('idle'). */
export type StepResult = 'busy' | 'idle';

/** Follower keeps the populator's state between steps: next height, pending rollback, prefetch. */
export class Follower {
  readonly #deps: FollowerDeps;
  #next: number | undefined;
  #rollbackFrom: number | undefined;
  /** sync_state.rederive_from: stored heights from here up are reloaded in order */
  #rederiveFrom: number | undefined;
  #caughtUp = false;
  #known = { top: -1, at: 0 };
  /** the stored top as the follower last learnt it (loads, rollbacks, idle checks) */
  #storedTop = -1;
  #ahead: { from: number; count: number; batch: Promise<PreparedBatch> } | undefined;
  /** the node's top, asked while the batch that reaches the top known before is written: the next step's poll */
  #topAhead: Promise<number> | undefined;
  #progress = { at: 0, height: 0 };

  constructor(deps: FollowerDeps) {
    this.#deps = deps;
  }

  /** caughtUp is true once the database has reached the node's top. */
  get caughtUp(): boolean {
    return this.#caughtUp;
  }

  /** step does one unit of work; errors propagate (the caller backs off and retries). */
  async step(): Promise<StepResult> {
    const { cfg, loader, log } = this.#deps;
    if (this.#next === undefined) {
      this.#rederiveFrom = await rederiveMark(loader.pool);
      this.#next = Math.min(await lowestMissing(loader.pool), this.#rederiveFrom ?? Infinity);
      this.#storedTop = (await topHeight(loader.pool)) ?? -1;
      this.#progress = { at: Date.now(), height: this.#next };
      log.info({ from: this.#next, rederiveFrom: this.#rederiveFrom, schema: cfg.databaseSchema }, 'populator started');
    }
    const nodeTop = await this.#nodeTop(this.#next);
    // what was fetched near the top a fork may have replaced since: a retry asks it again
    loader.fetchAhead?.nodeTop(nodeTop);
    if (this.#caughtUp && this.#rollbackFrom === undefined) {
      const found = await checkForks(
        loader.pool,
        loader.node,
        cfg.forkWindow,
        cfg.fetchConcurrency,
        cfg.allowDeepFork ? Infinity : cfg.maxForkDepth,
      );
      if (found?.kind === 'fork') this.#forkFrom(found.from, 'fork detected');
      if (found?.kind === 'grew') {
        // new micro blocks in the top generation: added after the stored ones, announced as new data
        log.debug({ height: found.height, stored: found.stored }, 'top generation grew');
        await loadBatch(loader, [found.height], { prepared: prepareAppend(loader, found.height, found.stored) });
      }
    }
    const heights = await this.#nextHeights(this.#next, nodeTop);
    if (heights === 'skip') return 'busy';
    if (heights.length > 0) return this.#load(heights, nodeTop);
    if (this.#rollbackFrom !== undefined) {
      log.warn({ from: this.#rollbackFrom, nodeTop }, 'node chain is shorter than the stored one: deleting');
      await rollbackOnly(loader, this.#rollbackFrom);
      this.#storedTop = this.#rollbackFrom - 1;
      this.#next = this.#rollbackFrom;
      this.#rollbackFrom = undefined;
      return 'busy';
    }
    return this.#idle(nodeTop);
  }

  /**
   * While far behind, the known top is good enough for a poll interval: one request less per batch. Every step
   * reports the lag before it loads, so a step that then fails (and each retry) leaves the lag true, not the last
   * success's.
   */
  async #nodeTop(next: number): Promise<number> {
    const { cfg, poll } = this.#deps;
    const ahead = this.#topAhead;
    this.#topAhead = undefined;
    if (this.#caughtUp || next + cfg.batchSize > this.#known.top || Date.now() - this.#known.at >= cfg.pollIntervalMs) {
      // a poll asked during the last write, or (it failed) one now, which says why
      let top: number;
      try {
        top = await (ahead?.catch(() => poll.topHeight()) ?? poll.topHeight());
      } catch (err) {
        // a poll the follower's end aborted says nothing of the node (the node watch goes on asking it): else a
        // PostgreSQL stop, which takes the writer lock, said the node down until the watch's next poll
        if (!this.#deps.signal.aborted) this.#deps.gauges.pollFailed();
        throw err;
      }
      this.#deps.gauges.polled(top);
      this.#known = { top, at: Date.now() };
    }
    this.#report(this.#storedTop);
    return this.#known.top;
  }

  /** #report keeps the stored top and reports it (the node's top and the lag follow the polls: SyncGauges). */
  #report(storedTop: number): void {
    this.#storedTop = storedTop;
    this.#deps.gauges.stored(storedTop);
  }

  /** The next batch: from a pending rollback, else the first run of missing heights ('skip': a stored stretch). */
  async #nextHeights(next: number, nodeTop: number): Promise<number[] | 'skip'> {
    const { cfg, loader } = this.#deps;
    if (this.#rollbackFrom !== undefined) {
      return heightRange(this.#rollbackFrom, Math.min(cfg.batchSize, nodeTop - this.#rollbackFrom + 1));
    }
    // re-deriving: every height from the mark up, stored or not, in chain order
    if (this.#rederiving(next)) return heightRange(next, Math.min(cfg.batchSize, nodeTop - next + 1));
    const reach = next + cfg.batchSize * LOOKAHEAD_BATCHES;
    const missing = await missingHeights(loader.pool, next, Math.min(nodeTop, reach), cfg.batchSize);
    const run = contiguousRuns(missing)[0];
    if (!run && nodeTop > reach) {
      this.#next = reach;
      return 'skip';
    }
    return run ? missing.filter((h) => h <= run[1]) : [];
  }

  async #load(heights: number[], nodeTop: number): Promise<StepResult> {
    const { cfg, loader } = this.#deps;
    const pending = this.#ahead;
    // the batch prepared ahead asked for heights that are all still missing
    const prepared =
      pending && pending.from === heights[0] && pending.count <= heights.length
        ? pending.batch
        : this.#prepare(heights);
    this.#ahead = undefined;
    if (this.#rollbackFrom === undefined) {
      // prepare the next batch (fetch, decode, transform) while this one is written
      const after = (await prepared).gens.at(-1)!.height + 1;
      const count = Math.min(cfg.batchSize, nodeTop - after + 1);
      if (count > 0) this.#ahead = { from: after, count, batch: this.#prepare(heightRange(after, count)) };
      // the batch reaches the top known: the next step polls the node, asked now, beside the write (the end of a
      // catch-up, each new block while following: a round trip less before the follower finds it is at the top)
      else {
        this.#topAhead = this.#deps.poll.topHeight();
        this.#topAhead.catch(() => {});
      }
    }
    const rederive = this.#rollbackFrom === undefined && this.#rederiving(heights[0]!);
    const result = await loadBatch(loader, heights, {
      rollbackFrom: this.#rollbackFrom,
      prepared,
      ...(rederive ? { replace: true, rederive } : {}),
    });
    if (result.kind === 'relink') {
      this.#forkFrom(result.rollbackFrom, 'parent link broken: rolling back');
      return 'busy';
    }
    this.#rollbackFrom = undefined;
    loader.fetchAhead?.written(result.to);
    if (result.rederiveFrom !== undefined) {
      if (result.rederiveFrom !== null && this.#rederiveFrom === undefined) {
        this.#deps.log.warn(
          { from: result.rederiveFrom },
          'name or oracle events were added below stored heights: reloading the stored heights above in order',
        );
      }
      this.#rederiveFrom = result.rederiveFrom ?? undefined;
    }
    this.#next = result.to + 1;
    // only a step that loaded clears the last error: a failing one keeps saying why until then
    await heartbeat(loader.pool, this.#caughtUp ? SyncStatus.SYNCED : SyncStatus.CATCHING_UP, nodeTop, null);
    this.#report(result.to);
    this.#logProgress(result.to, nodeTop);
    return 'busy';
  }

  #rederiving(height: number): boolean {
    return this.#rederiveFrom !== undefined && height >= this.#rederiveFrom;
  }

  /**
   * A real fork: stored blocks the node replaced, reloaded from `from` up. One deeper than MAX_FORK_DEPTH is refused
   * (the step fails, nothing is deleted, the populator retries): it is what a node of another chain or one resyncing
   * from scratch looks like, never a reorg, unless the operator says so (ALLOW_DEEP_FORK).
   */
  #forkFrom(from: number, message: string): void {
    const { cfg } = this.#deps;
    // what was fetched or prepared above the fork is the old chain's
    this.#deps.loader.fetchAhead?.forget(from);
    this.#ahead = undefined;
    const depth = this.#storedTop - from + 1;
    if (depth > cfg.maxForkDepth && !cfg.allowDeepFork) throw forkTooDeep(from, this.#storedTop, cfg.maxForkDepth);
    this.#deps.log.warn({ from }, message);
    this.#deps.loader.metrics.forks.inc();
    this.#rollbackFrom = from;
  }

  /**
   * #prepare prepares a batch. Until the follower first catches up its batches leave the areas that gather
   * (derive-backfill.ts) to the backfill, which derives them over whole stretches, or at once when caught up.
   */
  #prepare(heights: readonly number[]): Promise<PreparedBatch> {
    const batch = prepareBatch(this.#deps.loader, heights, true, !this.#caughtUp);
    batch.catch(() => {}); // a failed or unused batch is dropped; the step prepares it again
    return batch;
  }

  async #idle(nodeTop: number): Promise<StepResult> {
    const { loader, log } = this.#deps;
    if (!this.#caughtUp) log.info({ height: nodeTop }, 'caught up with the node');
    this.#caughtUp = true;
    await heartbeat(loader.pool, SyncStatus.SYNCED, nodeTop, null);
    this.#report((await topHeight(loader.pool)) ?? -1);
    return 'idle';
  }

  /** Height, node top, generations/s and ETA while catching up, every PROGRESS_LOG_MS. */
  #logProgress(height: number, nodeTop: number): void {
    const elapsed = Date.now() - this.#progress.at;
    // following the head, each new key block is a batch: that is not catching up
    if (elapsed < PROGRESS_LOG_MS || this.#caughtUp) return;
    const rate = ((height - this.#progress.height) * 1000) / elapsed;
    const etaSeconds = rate > 0 ? Math.round((nodeTop - height) / rate) : null;
    this.#deps.log.info(
      { height, nodeTop, generationsPerSecond: Math.round(rate * 10) / 10, etaSeconds },
      'catching up',
    );
    this.#progress = { at: Date.now(), height };
  }
}

function forkTooDeep(from: number, storedTop: number, maxDepth: number): AppError {
  return new AppError(
    ErrorCode.INDEXER_FORK_TOO_DEEP,
    500,
    `the node's chain forks from the stored one at height ${from} or below, which would replace ` +
      `${storedTop - from + 1} or more stored generations (up to ${storedTop}), more than MAX_FORK_DEPTH ` +
      `(${maxDepth}): nothing deleted. A node of another chain or one resyncing from scratch looks like this: check ` +
      'NODE_URL and NODE_URLS; to follow the fork, set ALLOW_DEEP_FORK=true (docs/operations.md, "Deep forks")',
  );
}
