/**
 * @module Reload (-H): delete and re-load listed heights, each batch of them in one transaction,
 * so readers see the old or the new height, never neither (sync/reload-run.ts). Into a new schema it is the blue/green
 * path. Each batch's transaction records how far the reload got (reload_progress), so the same list started again goes
 * on from there.
 */
import type { Config } from '../../config/middleware.ts';
import { chainRecord, transferRulesFor } from '../derived/chain-transfer-rules.ts';
import { AccountNumbers } from '../../db/writes/account-numbers.ts';
import { TxTypeCodes } from '../../db/writes/tx-type-codes.ts';
import type { Pool } from '../../db/connection/pool.ts';
import { WriterLock, type LockHolder } from '../../db/schema/writer-lock.ts';
import { AppError, ErrorCode } from '../../base/errors.ts';
import type { Logger } from '../../base/log.ts';
import type { NodeClient } from '../../node/client.ts';
import { contractReaders } from '../contracts/aexn-detector.ts';
import { hyperchainReader } from '../hyperchain/reader.ts';
import { PrunedCallInfos } from '../sync/fetch-pruned.ts';
import type { LoaderDeps } from '../sync/loader.ts';
import { reloadWith, type ReloadRun } from '../sync/reload-run.ts';
import { SyncStatus } from '../../db/writes/sync-state.ts';
import { openOneShot } from './one-shot.ts';

/** ReloadResult: heights reloaded as listed, heights above a replaced one reloaded, call infos no node held. */
export interface ReloadResult extends ReloadRun {
  readonly callInfoPruned: number;
}

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
): Promise<ReloadResult> {
  const { cfg, log } = deps;
  const { pool, node } = await openOneShot(cfg, log, { applicationName: 'mdw-reload', writes: true });
  const lock = new WriterLock(pool, cfg.databaseSchema);
  try {
    // the schema's single-writer lock: with a populator (or another -H) writing, say who and stop, never wait silently
    if (!(await lock.tryAcquire())) throw writerBusy(cfg.databaseSchema, await lock.holder());
    const pruned = new PrunedCallInfos(log);
    const loader = await reloadLoader({ cfg, log, pool, node }, pruned, opts.upTo);
    const result = await reloadWith({ cfg, log, lock, loader }, heights, SyncStatus.STOPPED);
    return { ...result, callInfoPruned: pruned.count };
  } finally {
    await lock.release();
    await pool.end();
  }
}

/** reloadLoader is what a reload's batches are loaded with: the populator's readers, rules and caches. */
async function reloadLoader(
  deps: { cfg: Config; log: Logger; pool: Pool; node: NodeClient },
  pruned: PrunedCallInfos,
  upTo: ReadonlyMap<number, number> | undefined,
): Promise<LoaderDeps> {
  const { cfg, log, pool, node } = deps;
  const readers = contractReaders(cfg, pool, node);
  // asked once: the transfer rules and the hyperchain reader both follow it
  const chain = await chainRecord(cfg, pool);
  return {
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
    upTo,
  };
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
