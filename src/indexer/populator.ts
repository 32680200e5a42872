/**
 * @module Populator (-p): migrate, then step the Follower until stopped, backing off on failures
 * (node unreachable, 5xx, timeouts, malformed JSON, database hiccups) without ever crashing.
 */
import type prom from 'prom-client';
import type { Config } from '../config.ts';
import { migrate } from '../db/migrator.ts';
import { createPool, poolOptions } from '../db/pool.ts';
import { writerLock } from '../db/writer-lock.ts';
import { AppError } from '../errors.ts';
import type { Logger } from '../log.ts';
import { NodeClient } from '../node/client.ts';
import { backoffDelay, sleep } from '../retry.ts';
import { NodeError } from '../node/errors.ts';
import { NodeSet } from '../node/node-set.ts';
import type { Role } from '../roles.ts';
import { ContractDecoder } from './contract-decoder.ts';
import { Follower } from './follower.ts';
import { FetchAhead } from './fetch-ahead.ts';
import { PrunedCallInfos } from './fetch-pruned.ts';
import { createIndexerMetrics } from './metrics.ts';
import { heartbeat, SyncStatus } from '../db/queries/sync-state.ts';
import { onSizeFallback } from '../chain/tx-size.ts';

const MAX_ERROR_BACKOFF_MS = 5_000;

export interface PopulatorDeps {
  readonly cfg: Config;
  readonly log: Logger;
  readonly registry: prom.Registry;
}

export type Populator = Role & { synced(): Promise<void> };

/** startPopulator runs migrations, then loads and follows the chain in the background until stop(). */
export async function startPopulator(deps: PopulatorDeps): Promise<Populator> {
  const { cfg, log } = deps;
  await migrate({ databaseUrl: cfg.databaseUrl, schema: cfg.databaseSchema }, log);
  const pool = createPool(
    { ...poolOptions(cfg, 'mdw-populator'), max: Math.max(3, Math.min(cfg.databasePoolSize, 10)) },
    log,
  );
  const abort = new AbortController();
  const metrics = createIndexerMetrics(deps.registry);
  // a tx layout the serialiser does not know (ChannelForceProgressTx) is measured by its JSON: say so once per type
  onSizeFallback((txType, reason) => log.warn({ txType, reason }, 'transaction size taken from its json'));
  // one set of nodes for both clients: the poll and the fetches share its slots and its view of forks
  const clientOptions = {
    url: new NodeSet(cfg.nodeUrls),
    timeoutMs: cfg.nodeTimeoutMs,
    signal: abort.signal,
    onError: (e: NodeError) => metrics.nodeErrors.inc({ code: e.code }),
    onAnswer: (node: string) => metrics.nodeRequests.inc({ node }),
    onFork: (node: string, dropped: boolean) => {
      if (dropped) metrics.nodeForks.inc({ node });
    },
  };
  // a batch is redone whole when one request gives up, so its requests retry generously; the poll
  // of the node's top does not retry itself, so an outage shows in sync_state at the next poll
  const node = new NodeClient({ ...clientOptions, attempts: 8, backoffInitialMs: 100, backoffMaxMs: 2000 }, log);
  const follower = new Follower({
    cfg,
    log,
    poll: new NodeClient({ ...clientOptions, attempts: 1 }, log),
    loader: {
      pool,
      node,
      decoder: new ContractDecoder({ compilerUrl: cfg.compilerUrl, timeoutMs: cfg.nodeTimeoutMs }),
      schema: cfg.databaseSchema,
      concurrency: cfg.fetchConcurrency,
      batchTransactions: cfg.batchTransactions,
      log,
      metrics,
      onCallInfoGone: new PrunedCallInfos(log, metrics.callInfoPruned).record,
      fetchAhead: new FetchAhead(node, cfg.forkWindow),
    },
  });
  let markSynced!: () => void;
  const synced = new Promise<void>((resolve) => {
    markSynced = resolve;
  });
  const lockClient = await pool.connect();
  let locked = false;

  async function run(): Promise<void> {
    await writerLock(lockClient, cfg.databaseSchema);
    locked = true;
    let failures = 0;
    let failing: string | undefined;
    while (!abort.signal.aborted) {
      try {
        const result = await follower.step();
        if (failing !== undefined) log.info('populator recovered');
        failing = undefined;
        failures = 0;
        if (follower.caughtUp) markSynced();
        if (result === 'idle') await sleep(cfg.pollIntervalMs, abort.signal);
      } catch (err) {
        if (abort.signal.aborted) break;
        failures++;
        const message = err instanceof Error ? err.message : String(err);
        // log once per state change (a new kind of failure), not once per retry
        const kind = err instanceof AppError ? err.code : err instanceof Error ? err.name : 'error';
        if (kind !== failing) log.warn({ err: message, kind }, 'populator step failed; retrying');
        failing = kind;
        const status = err instanceof NodeError ? SyncStatus.NODE_UNAVAILABLE : SyncStatus.ERROR;
        await heartbeat(pool, status, null, message).catch(() => {});
        await sleep(
          backoffDelay(failures, {
            initialMs: Math.min(cfg.pollIntervalMs, 1000),
            maxMs: MAX_ERROR_BACKOFF_MS,
            jitter: 0.2,
          }),
          abort.signal,
        );
      }
    }
  }

  const running = run().catch((err: unknown) => {
    if (!abort.signal.aborted)
      log.error({ err: err instanceof Error ? err.message : String(err) }, 'populator stopped by an error');
  });

  return {
    name: 'populator',
    synced: () => synced,
    async stop() {
      abort.abort();
      // still waiting for another populator's lock: dropping the connection ends the wait
      if (!locked) lockClient.release(true);
      await running;
      if (locked) {
        await heartbeat(pool, SyncStatus.STOPPED, null, null).catch(() => {});
        lockClient.release(true);
      }
      await pool.end();
    },
  };
}
