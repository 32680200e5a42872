/**
 * @module Reload (-H): delete and re-load listed heights, each run of heights in one transaction,
 * so readers see the old or the new height, never neither. Into a new schema it is the blue/green path.
 */
import type { Config } from '../config.ts';
import { migrate } from '../db/migrator.ts';
import { createPool, poolOptions } from '../db/pool.ts';
import { AppError, ErrorCode } from '../errors.ts';
import type { Logger } from '../log.ts';
import { NodeClient } from '../node/client.ts';
import { NodeError } from '../node/errors.ts';
import { ContractDecoder } from './contract-decoder.ts';
import { contiguousRuns } from './heights.ts';
import { loadBatch, prepareBatch, type PreparedBatch } from './loader.ts';
import { heartbeat, SyncStatus } from './sync-state.ts';

/** reloadHeights replaces the listed heights with the node's current data in cfg.databaseSchema. */
export async function reloadHeights(deps: { cfg: Config; log: Logger }, heights: readonly number[]): Promise<{ reloaded: number }> {
  const { cfg, log } = deps;
  await migrate({ databaseUrl: cfg.databaseUrl, schema: cfg.databaseSchema }, log);
  const pool = createPool({ ...poolOptions(cfg, 'mdw-reload'), max: 4 }, log);
  const lock = await pool.connect();
  try {
    // the populator's single-writer lock: a reload into a schema being populated waits its turn
    await lock.query('SELECT pg_advisory_lock(hashtext($1))', [`mdw_populate:${cfg.databaseSchema}`]);
    const node = new NodeClient({ url: cfg.nodeUrls, timeoutMs: cfg.nodeTimeoutMs, attempts: 6 }, log);
    const loader = {
      pool, node, decoder: new ContractDecoder({ compilerUrl: cfg.compilerUrl, timeoutMs: cfg.nodeTimeoutMs }),
      schema: cfg.databaseSchema, concurrency: cfg.fetchConcurrency, log,
    };
    await heartbeat(pool, SyncStatus.RELOADING, null, null);
    let reloaded = 0;
    const chunks = contiguousRuns(heights).flatMap(([from, to]) =>
      Array.from({ length: Math.ceil((to - from + 1) / cfg.batchSize) }, (_, c) => {
        const start = from + c * cfg.batchSize;
        return Array.from({ length: Math.min(cfg.batchSize, to - start + 1) }, (_, i) => start + i);
      }));
    const prepare = (chunk: number[] | undefined): Promise<PreparedBatch> | undefined => {
      const preparing = chunk && prepareBatch(loader, chunk, false);
      preparing?.catch(() => {}); // surfaced when the chunk is loaded
      return preparing;
    };
    let prepared = prepare(chunks[0]);
    for (const [index, chunk] of chunks.entries()) {
      // prepare the next chunk while this one is written
      const current = prepared;
      prepared = prepare(chunks[index + 1]);
      try {
        await loadBatch(loader, chunk, { replace: true, prepared: current });
      } catch (err) {
        if (err instanceof NodeError && err.notFound) {
          throw new AppError(ErrorCode.CLI_BAD_HEIGHTS, 400, `the node has no generation in ${chunk[0]}-${chunk.at(-1)} (${err.message})`);
        }
        throw err;
      }
      reloaded += chunk.length;
      log.info({ from: chunk[0], to: chunk.at(-1), reloaded, total: heights.length }, 'heights reloaded');
    }
    await heartbeat(pool, SyncStatus.STOPPED, null, null);
    return { reloaded };
  } finally {
    await lock.query('SELECT pg_advisory_unlock(hashtext($1))', [`mdw_populate:${cfg.databaseSchema}`]).catch(() => {});
    lock.release();
    await pool.end();
  }
}
