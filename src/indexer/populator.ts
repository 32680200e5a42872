/**
 * @module Populator (-p): migrate, load from the lowest missing height to the node's top in
 * batches, then follow the head, handling forks; never crashes on node faults.
 */
import type prom from 'prom-client';
import type { Config } from '../config.ts';
import { migrate } from '../db/migrator.ts';
import { createPool, poolOptions, type PoolClient } from '../db/pool.ts';
import type { Logger } from '../log.ts';
import { backoffDelay, NodeClient, sleep } from '../node/client.ts';
import type { NodeError } from '../node/errors.ts';
import { AppError } from '../errors.ts';
import type { Role } from '../roles.ts';
import { ContractDecoder } from './contract-decoder.ts';
import { findRollbackHeight } from './forks.ts';
import { contiguousRuns } from './heights.ts';
import { loadBatch, rollbackOnly, type LoaderDeps } from './loader.ts';
import { fetchGenerations } from './fetch.ts';
import type { FetchedGeneration } from './rows.ts';
import { createIndexerMetrics } from './metrics.ts';
import { heartbeat, lowestMissing, missingHeights, storedTop, SyncStatus } from './sync-state.ts';

/** How far above the next height one look-up for missing heights reaches, in batches. */
const LOOKAHEAD_BATCHES = 20;
const PROGRESS_LOG_MS = 10_000;
const MAX_ERROR_BACKOFF_MS = 5_000;

export interface PopulatorDeps {
  readonly cfg: Config;
  readonly log: Logger;
  readonly registry: prom.Registry;
}

export type Populator = Role & { synced(): Promise<void> };

/** writerLock holds the schema's single-writer lock on a dedicated connection (a second populator waits). */
async function writerLock(client: PoolClient, schema: string): Promise<void> {
  await client.query('SELECT pg_advisory_lock(hashtext($1))', [`mdw_populate:${schema}`]);
}

/** startPopulator runs migrations, then loads and follows the chain in the background until stop(). */
export async function startPopulator(deps: PopulatorDeps): Promise<Populator> {
  const { cfg, log } = deps;
  await migrate({ databaseUrl: cfg.databaseUrl, schema: cfg.databaseSchema }, log);
  const pool = createPool({ ...poolOptions(cfg, 'mdw-populator'), max: Math.max(3, Math.min(cfg.databasePoolSize, 10)) }, log);
  const abort = new AbortController();
  const metrics = createIndexerMetrics(deps.registry);
  const clientOptions = { url: cfg.nodeUrl, timeoutMs: cfg.nodeTimeoutMs, signal: abort.signal, onError: (e: NodeError) => metrics.nodeErrors.inc({ code: e.code }) };
  // a batch is redone whole when one request gives up, so its requests retry generously; the poll
  // of the node's top does not retry itself, so an outage shows in sync_state at the next poll
  const node = new NodeClient({ ...clientOptions, attempts: 8, backoffInitialMs: 100, backoffMaxMs: 2000 }, log);
  const poll = new NodeClient({ ...clientOptions, attempts: 1 }, log);
  const loader: LoaderDeps = {
    pool, node, decoder: new ContractDecoder({ compilerUrl: cfg.compilerUrl, timeoutMs: cfg.nodeTimeoutMs }),
    schema: cfg.databaseSchema, concurrency: cfg.fetchConcurrency, log, metrics,
  };
  let markSynced!: () => void;
  const synced = new Promise<void>((resolve) => { markSynced = resolve; });
  const lockClient = await pool.connect();
  let locked = false;

  async function run(): Promise<void> {
    await writerLock(lockClient, cfg.databaseSchema);
    locked = true;
    let next: number | undefined;
    let rollbackFrom: number | undefined;
    let caughtUp = false;
    let failures = 0;
    let lastError: string | undefined;
    let progress = { at: Date.now(), height: 0 };
    let known = { top: -1, at: 0 };
    let ahead: { from: number; count: number; generations: Promise<FetchedGeneration[]> } | undefined;
    const fetchAhead = (from: number, count: number): NonNullable<typeof ahead> => {
      const generations = fetchGenerations(node, Array.from({ length: count }, (_, i) => from + i), cfg.fetchConcurrency);
      generations.catch(() => {}); // a failed or unused prefetch is dropped; the batch fetches again
      return { from, count, generations };
    };
    while (!abort.signal.aborted) {
      try {
        if (next === undefined) {
          next = await lowestMissing(pool);
          progress = { at: Date.now(), height: next };
          log.info({ from: next, schema: cfg.databaseSchema }, 'populator started');
        }
        // while far behind, the known top is good enough for a poll interval: one request less per batch
        if (caughtUp || next + cfg.batchSize > known.top || Date.now() - known.at >= cfg.pollIntervalMs) {
          known = { top: await poll.topHeight(), at: Date.now() };
        }
        const nodeTop = known.top;
        metrics.nodeHeight.set(nodeTop);
        if (caughtUp && rollbackFrom === undefined) {
          rollbackFrom = await findRollbackHeight(pool, node, cfg.forkWindow, cfg.fetchConcurrency);
          if (rollbackFrom !== undefined) log.warn({ from: rollbackFrom }, 'fork detected');
        }
        let heights: number[];
        if (rollbackFrom !== undefined) {
          heights = [];
          for (let h = rollbackFrom; h <= nodeTop && heights.length < cfg.batchSize; h++) heights.push(h);
        } else {
          const missing = await missingHeights(pool, next, Math.min(nodeTop, next + cfg.batchSize * LOOKAHEAD_BATCHES), cfg.batchSize);
          const run = contiguousRuns(missing)[0];
          heights = run ? missing.filter((h) => h <= run[1]) : [];
          if (heights.length === 0 && nodeTop > next + cfg.batchSize * LOOKAHEAD_BATCHES) {
            next += cfg.batchSize * LOOKAHEAD_BATCHES; // a stored stretch: skip it without loading
            continue;
          }
        }
        if (heights.length === 0 && rollbackFrom !== undefined) {
          log.warn({ from: rollbackFrom, nodeTop }, 'node chain is shorter than the stored one: deleting');
          await rollbackOnly(loader, rollbackFrom);
          next = rollbackFrom;
          rollbackFrom = undefined;
          continue;
        }
        if (heights.length === 0) {
          if (!caughtUp) log.info({ height: nodeTop }, 'caught up with the node');
          caughtUp = true;
          markSynced();
          await heartbeat(pool, SyncStatus.SYNCED, nodeTop, null);
          if (lastError !== undefined) log.info('node reachable again');
          lastError = undefined;
          failures = 0;
          const top = (await storedTop(pool))?.height ?? -1;
          metrics.syncHeight.set(top);
          metrics.lag.set(Math.max(0, nodeTop - top));
          await sleep(cfg.pollIntervalMs, abort.signal);
          continue;
        }
        await heartbeat(pool, caughtUp ? SyncStatus.SYNCED : SyncStatus.CATCHING_UP, nodeTop, null);
        const pending = ahead;
        const prefetched = pending && pending.from === heights[0] && pending.count === heights.length ? pending.generations : undefined;
        ahead = undefined;
        const after = heights.at(-1)! + 1;
        // fetch the next batch while this one is decoded and written: the node, not the database, is the slow side
        if (rollbackFrom === undefined && after <= nodeTop) ahead = fetchAhead(after, Math.min(cfg.batchSize, nodeTop - after + 1));
        const result = await loadBatch(loader, heights, { rollbackFrom, prefetched });
        if (result.kind === 'relink') {
          log.warn({ from: result.rollbackFrom }, 'parent link broken: rolling back');
          rollbackFrom = result.rollbackFrom;
          continue;
        }
        rollbackFrom = undefined;
        next = result.to + 1;
        metrics.syncHeight.set(result.to);
        metrics.lag.set(Math.max(0, nodeTop - result.to));
        if (lastError !== undefined) log.info('node reachable again');
        lastError = undefined;
        failures = 0;
        if (Date.now() - progress.at >= PROGRESS_LOG_MS) {
          const rate = ((result.to - progress.height) * 1000) / (Date.now() - progress.at);
          log.info({ height: result.to, nodeTop, generationsPerSecond: Math.round(rate * 10) / 10, etaSeconds: rate > 0 ? Math.round((nodeTop - result.to) / rate) : null }, 'catching up');
          progress = { at: Date.now(), height: result.to };
        }
      } catch (err) {
        if (abort.signal.aborted) break;
        failures++;
        const message = err instanceof Error ? err.message : String(err);
        // log once per state change (a new kind of failure), not once per retry
        const kind = err instanceof AppError ? err.code : err instanceof Error ? err.name : 'error';
        if (kind !== lastError) log.warn({ err: message, kind }, 'populator step failed; retrying');
        lastError = kind;
        await heartbeat(pool, SyncStatus.NODE_UNAVAILABLE, null, message).catch(() => {});
        await sleep(backoffDelay(failures, Math.min(cfg.pollIntervalMs, 1000), MAX_ERROR_BACKOFF_MS), abort.signal);
      }
    }
  }

  const running = run().catch((err: unknown) => {
    if (!abort.signal.aborted) log.error({ err: err instanceof Error ? err.message : String(err) }, 'populator stopped by an error');
  });

  return {
    name: 'populator',
    synced: () => synced,
    async stop() {
      abort.abort();
      // still waiting for another populator's lock: dropping the connection ends the wait
      if (!locked) lockClient.release(true);
      await running;
      if (locked) await heartbeat(pool, SyncStatus.STOPPED, null, null).catch(() => {});
      if (locked) lockClient.release(true);
      await pool.end();
    },
  };
}
