/**
 * @module Reload (-H): delete and re-load listed heights, each batch of them in one transaction,
 * so readers see the old or the new height, never neither. Into a new schema it is the blue/green path. Each batch's
 * transaction records how far the reload got (reload_progress), so the same list started again goes on from there.
 */
import type { Config } from '../../config/middleware.ts';
import { chainRecord, transferRulesFor } from '../derived/chain-transfer-rules.ts';
import { AccountNumbers } from '../../db/writes/account-numbers.ts';
import { TxTypeCodes } from '../../db/writes/tx-type-codes.ts';
import { migrate } from '../../db/migrator.ts';
import { createWritePool, type Queryable } from '../../db/pool.ts';
import { storedHeightsAbove } from '../../db/queries/block-hashes.ts';
import { WriterLock, type LockHolder } from '../../db/writer-lock.ts';
import { AppError, ErrorCode } from '../../base/errors.ts';
import type { Logger } from '../../base/log.ts';
import { NodeClient } from '../../node/client.ts';
import { NodeError } from '../../node/errors.ts';
import { contractReaders } from '../contracts/aexn-detector.ts';
import { hyperchainReader } from '../hyperchain/reader.ts';
import { guardSchema } from '../identity/guard.ts';
import { PrunedCallInfos } from '../sync/fetch-pruned.ts';
import { contiguousRuns, heightRange, runsText } from '../sync/heights.ts';
import { loadBatch, prepareBatch, type PreparedBatch } from '../sync/loader.ts';
import { heartbeat, SyncStatus } from '../../db/writes/sync-state.ts';
import { clearReloadProgress, reloadProgress, saveReloadProgress } from '../../db/writes/reload-progress.ts';
import { ProgressLine } from '../../base/progress-line.ts';
import { Backoff, sleep, waitBefore } from '../../base/retry.ts';

/**
 * NODE_AWAY: a batch whose node reads failed after the client's own tries (a node restarting, or busy for longer than
 * its timeout) is prepared again after this backoff, for as long as the node stays away, as the populator waits: a
 * reload of hours does not end on a node's minute away (started again it would go on after its last batch anyway).
 */
const NODE_AWAY = { initialMs: 1000, maxMs: 30_000, jitter: 0.2 };

/**
 * reloadHeights replaces the listed heights with the node's current data in cfg.databaseSchema.
 * When the node has other blocks at a stored height, the name and oracle state of every stored
 * height above derives from stale data: those are reloaded too, in chain order, and counted in
 * `rederived`. A reload of the same list that was interrupted goes on after its last batch written (both counts are
 * this run's). `upTo`: heights loaded only up to so many micro blocks (verify's scratch load of a top generation stored
 * while open).
 */
export async function reloadHeights(
  deps: { cfg: Config; log: Logger },
  heights: readonly number[],
  opts: { upTo?: ReadonlyMap<number, number> } = {},
): Promise<{ reloaded: number; rederived: number; callInfoPruned: number }> {
  const { cfg, log } = deps;
  await guardSchema(cfg, log, {
    writes: true,
    waitForNodes: true,
    oneShot: true,
    migrate: () => migrate({ databaseUrl: cfg.databaseUrl, schema: cfg.databaseSchema }, log),
  });
  const pool = createWritePool(cfg, 'mdw-reload', log, 4);
  const lock = new WriterLock(pool, cfg.databaseSchema);
  try {
    // the schema's single-writer lock: with a populator (or another -H) writing, say who and stop, never wait silently
    if (!(await lock.tryAcquire())) throw writerBusy(cfg.databaseSchema, await lock.holder());
    const node = new NodeClient({ url: cfg.nodeUrls, timeoutMs: cfg.nodeTimeoutMs, attempts: 6 }, log);
    // with several nodes their tops are read first: one on another fork leaves the set before any height is read
    await node.topHeight().catch(() => {});
    const pruned = new PrunedCallInfos(log);
    const readers = contractReaders(cfg, pool, node);
    // asked once: the transfer rules and the hyperchain reader both follow it
    const chain = await chainRecord(cfg, pool);
    const loader = {
      pool,
      node,
      ...readers,
      hyperchain: hyperchainReader(node, readers.decoder, { timeoutMs: cfg.nodeTimeoutMs, log, known: chain }),
      schema: cfg.databaseSchema,
      concurrency: cfg.fetchConcurrency,
      batchTransactions: cfg.batchTransactions,
      log,
      onCallInfoGone: pruned.record,
      transferRules: await transferRulesFor(cfg, chain, log),
      accountNumbers: new AccountNumbers(),
      txTypeCodes: new TxTypeCodes(),
      upTo: opts.upTo,
    };
    await heartbeat(pool, SyncStatus.RELOADING, null, null);
    const listText = runsText(heights);
    const interrupted = await reloadProgress(pool);
    const resumed = interrupted?.heights === listText ? interrupted : undefined;
    if (resumed)
      log.info(
        { phase: resumed.phase, after: resumed.doneThrough, lowestReplaced: resumed.lowestReplaced },
        'resuming an interrupted reload of the same heights after its last batch written',
      );
    else if (interrupted)
      log.info(
        { interrupted: interrupted.heights.slice(0, 200) },
        'an interrupted reload of other heights is not resumed: this one starts from its first height',
      );
    let lowestReplaced = resumed?.lowestReplaced;
    const away = new Backoff(NODE_AWAY);
    // a batch up to BATCH_SIZE heights of one run, ending where BATCH_TRANSACTIONS is reached
    const prepare = (from: number, to: number): Promise<PreparedBatch> => {
      const preparing = prepareBatch(loader, heightRange(from, Math.min(cfg.batchSize, to - from + 1)), false);
      preparing.catch(() => {}); // surfaced when the batch is loaded
      return preparing;
    };
    // the heights of `list` above `after` (those up to it were written before an interruption), in batches
    const reload = async (
      list: readonly number[],
      phase: 'listed' | 'above',
      after: number | undefined,
      message: string,
    ): Promise<number> => {
      const todo = after === undefined ? list : list.filter((h) => h > after);
      const progress = new ProgressLine({
        log,
        message,
        total: list.length,
        doneBefore: list.length - todo.length,
        intervalMs: cfg.progressLogMs,
      });
      // committed with the batch's rows: a kill loses the batch and its progress together
      const record =
        (doneThrough: number) =>
        (client: Queryable, replaced: readonly number[]): Promise<void> =>
          saveReloadProgress(client, {
            heights: listText,
            phase,
            doneThrough,
            lowestReplaced: replaced.length > 0 ? Math.min(lowestReplaced ?? Infinity, ...replaced) : lowestReplaced,
          });
      let done = 0;
      for (const [from, to] of contiguousRuns(todo)) {
        // the first height of the batch being prepared: read again from there when the node went away
        let start = from;
        let prepared: Promise<PreparedBatch> | undefined = prepare(from, to);
        while (prepared) {
          const current = prepared;
          let batch: PreparedBatch;
          let last: number;
          let result: Awaited<ReturnType<typeof loadBatch>>;
          try {
            batch = await current;
            last = batch.gens.at(-1)!.height;
            // prepare the next batch while this one is written
            prepared = last < to ? prepare(last + 1, to) : undefined;
            result = await loadBatch(
              loader,
              batch.gens.map((g) => g.height),
              { replace: true, prepared: current, alsoWrite: record(last) },
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
            if (away.failures === 0)
              log.warn({ err: err.message, from: start }, 'the node does not answer: the reload waits for it');
            await sleep(waitBefore(away.next(), err.retryAfterMs));
            prepared = prepare(start, to);
            continue;
          }
          if (away.failures > 0) {
            log.info({ failedTries: away.failures, from: start }, 'the node answers again: the reload goes on');
            away.reset();
          }
          start = last + 1;
          if (result.kind === 'written' && result.replaced.length > 0)
            lowestReplaced = Math.min(lowestReplaced ?? Infinity, ...result.replaced);
          done += batch.gens.length;
          progress.advance(batch.gens.length, { from: batch.gens[0]!.height, to: last });
          // the lock went with its connection (a restart): another writer may have it now
          if (lock.lost.aborted)
            throw new AppError(ErrorCode.CLI_WRITER_BUSY, 409, 'writer lock lost with its connection');
        }
      }
      return done;
    };
    // an interruption in the second phase had finished the list
    const reloaded = await reload(
      heights,
      'listed',
      resumed?.phase === 'above' ? Infinity : resumed?.doneThrough,
      'heights reloaded',
    );
    let rederived = 0;
    if (lowestReplaced !== undefined) {
      // heights reloaded in order right after the replaced one derive from fresh state; from the
      // first stored height above it that was not reloaded, everything stored derives from stale state
      const stored = await storedHeightsAbove(pool, lowestReplaced);
      const listed = new Set(heights);
      const firstStale = stored.findIndex((h) => !listed.has(h));
      const above = firstStale < 0 ? [] : stored.slice(firstStale);
      if (above.length > 0) {
        log.warn(
          { replacedFrom: lowestReplaced, heights: above.length },
          'the node has other blocks at a reloaded height: reloading every stored height above it, whose name and oracle state derives from it',
        );
        rederived = await reload(
          above,
          'above',
          resumed?.phase === 'above' ? resumed.doneThrough : undefined,
          'heights above a replaced one reloaded',
        );
      }
    }
    await clearReloadProgress(pool);
    await heartbeat(pool, SyncStatus.STOPPED, null, null);
    return { reloaded, rederived, callInfoPruned: pruned.count };
  } finally {
    await lock.release();
    await pool.end();
  }
}

/** writerBusy is the error of a reload that found another writer holding the schema's lock. */
function writerBusy(schema: string, holder: LockHolder | undefined): AppError {
  const who = holder
    ? `${holder.applicationName || 'a client'} (backend pid ${holder.pid}` +
      `${holder.clientAddress ? ` from ${holder.clientAddress}` : ''}` +
      `${holder.since ? `, connected since ${holder.since.toISOString()}` : ''})`
    : 'another writer';
  return new AppError(
    ErrorCode.CLI_WRITER_BUSY,
    409,
    `schema ${schema} is being written by ${who}, which holds its writer lock: stop that populator or reload ` +
      `and run -H again, or reload into another schema (--schema) and switch to it`,
  );
}
