/**
 * @module Populator (-p): migrate, then step the Follower until stopped, backing off on failures
 * (node unreachable, 5xx, timeouts, malformed JSON, database hiccups) without ever crashing.
 */
import type prom from 'prom-client';
import type { Config } from '../config.ts';
import { backfillStoredForks, transferRulesOf } from './internal-transfers.ts';
import { AccountNumbers } from '../db/writes/account-numbers.ts';
import { migrate } from '../db/migrator.ts';
import { untilDatabaseAnswers } from '../db/wait.ts';
import { createWritePool } from '../db/pool.ts';
import { WriterLock } from '../db/writer-lock.ts';
import { AppError } from '../errors.ts';
import type { Logger } from '../log.ts';
import { NodeClient } from '../node/client.ts';
import { Backoff, sleep } from '../retry.ts';
import { NodeError } from '../node/errors.ts';
import { NodeSet } from '../node/node-set.ts';
import type { Role } from '../roles.ts';
import { contractReaders } from './aexn-detector.ts';
import { DeriveBackfill } from './derive-backfill.ts';
import { Follower } from './follower.ts';
import { FetchAhead } from './fetch-ahead.ts';
import { BATCH_REQUEST_RETRIES } from './fetch.ts';
import { PrunedCallInfos } from './fetch-pruned.ts';
import { createIndexerMetrics, type IndexerMetrics } from './metrics.ts';
import { heartbeat, SyncStatus } from '../db/writes/sync-state.ts';
import { onSizeFallback } from '../chain/tx-size.ts';

const MAX_ERROR_BACKOFF_MS = 5_000;

export interface PopulatorDeps {
  readonly cfg: Config;
  readonly log: Logger;
  readonly registry: prom.Registry;
}

export type Populator = Role & { synced(): Promise<void> };

/**
 * startPopulator runs migrations, then loads and follows the chain, deriving beside it what derived areas lack for
 * stored heights from the stored rows (derive-backfill.ts), in the background until stop(). It writes only
 * while it holds the schema's writer lock; when the connection holding it dies (a database restart,
 * `pg_terminate_backend`, a failover) it stops writing, takes the lock again with backoff and resumes from what the
 * database holds.
 */
export async function startPopulator(deps: PopulatorDeps): Promise<Populator> {
  const { cfg, log } = deps;
  await untilDatabaseAnswers(
    'migrations',
    () => migrate({ databaseUrl: cfg.databaseUrl, schema: cfg.databaseSchema }, log),
    log,
  );
  const pool = createWritePool(cfg, 'mdw-populator', log, Math.max(3, Math.min(cfg.databasePoolSize, 10)));
  const abort = new AbortController();
  const metrics = createIndexerMetrics(deps.registry);
  // a tx layout the serialiser does not know (ChannelForceProgressTx) is measured by its JSON: say so once per type
  onSizeFallback((txType, reason) => log.warn({ txType, reason }, 'transaction size taken from its json'));
  // one set of nodes for every client: the poll and the fetches share its slots and its view of forks
  const nodes = new NodeSet(cfg.nodeUrls);
  // once per run, whatever the follower: logged once, counted each time
  const onCallInfoGone = new PrunedCallInfos(log, metrics.callInfoPruned).record;
  const transferRules = await transferRulesOf(cfg);
  /**
   * a Follower whose node requests end with `signal` (it reads where to go on from the database), and the backfill
   * of derived areas beside it, on the same node client and the same contract readers (one code cache, one set of
   * parsed contracts)
   */
  const newFollower = (signal: AbortSignal): { follower: Follower; backfill: DeriveBackfill } => {
    const clientOptions = {
      url: nodes,
      timeoutMs: cfg.nodeTimeoutMs,
      signal,
      onError: (e: NodeError) => metrics.nodeErrors.inc({ code: e.code }),
      onAnswer: (node: string) => metrics.nodeRequests.inc({ node }),
      onFork: (node: string, dropped: boolean) => {
        if (dropped) metrics.nodeForks.inc({ node });
      },
    };
    // a batch's requests retry generously (BATCH_REQUEST_RETRIES); the poll of the node's top does not retry
    // itself, so an outage shows in sync_state at the next poll
    const { attempts, initialMs, maxMs } = BATCH_REQUEST_RETRIES;
    const node = new NodeClient({ ...clientOptions, attempts, backoffInitialMs: initialMs, backoffMaxMs: maxMs }, log);
    const readers = contractReaders(cfg, pool, node);
    const backfill = new DeriveBackfill({
      pool,
      log,
      rules: transferRules,
      detector: readers.aexn,
      batchHeights: cfg.batchSize,
      schema: cfg.databaseSchema,
      metrics,
    });
    const follower = new Follower({
      cfg,
      log,
      poll: new NodeClient({ ...clientOptions, attempts: 1 }, log),
      loader: {
        pool,
        node,
        ...readers,
        schema: cfg.databaseSchema,
        concurrency: cfg.fetchConcurrency,
        batchTransactions: cfg.batchTransactions,
        log,
        metrics,
        onCallInfoGone,
        fetchAhead: new FetchAhead(node, cfg.forkWindow),
        transferRules,
        accountNumbers: new AccountNumbers(),
      },
    });
    return { follower, backfill };
  };
  let markSynced!: () => void;
  const synced = new Promise<void>((resolve) => {
    markSynced = resolve;
  });
  const lock = new WriterLock(pool, cfg.databaseSchema);
  const failures = new FailureLog(log, metrics);
  const backoff = new Backoff({
    initialMs: Math.min(cfg.pollIntervalMs, 1000),
    maxMs: MAX_ERROR_BACKOFF_MS,
    jitter: 0.2,
  });

  /** follow steps the chain while the lock is held (until `term` aborts), backing off on failures. */
  async function follow(term: AbortSignal): Promise<void> {
    const { follower, backfill } = newFollower(term);
    /** when the follower last found nothing to do: with a backfill running it looks again after a poll interval */
    let idleAt = -Infinity;
    // hard-fork files given after the stored chain passed their fork: derived by the backfill (under the lock)
    const forks = await backfillStoredForks(pool, transferRules).catch((err: unknown) => {
      log.warn({ err: errorMessage(err) }, 'could not check the stored hard forks');
      return [];
    });
    for (const fork of forks)
      log.info(fork, 'the stored chain passed a hard fork without its transfers: deriving them from the stored rows');
    while (!term.aborted) {
      try {
        // one batch of the derived areas behind (an upgrade's, a failing one's) from the stored rows, then the chain
        const backfilled = await backfill.step();
        if (backfilled && Date.now() - idleAt < cfg.pollIntervalMs) continue;
        const result = await follower.step();
        failures.recovered();
        backoff.reset();
        if (follower.caughtUp) markSynced();
        idleAt = result === 'idle' ? Date.now() : -Infinity;
        if (result === 'idle' && !backfilled) await sleep(cfg.pollIntervalMs, term);
      } catch (err) {
        if (term.aborted) break;
        failures.failed(err, 'populator step failed; retrying');
        const status = err instanceof NodeError ? SyncStatus.NODE_UNAVAILABLE : SyncStatus.ERROR;
        await heartbeat(pool, status, null, errorMessage(err)).catch(() => {});
        await sleep(backoff.next(), term);
      }
    }
  }

  async function run(): Promise<void> {
    while (!abort.signal.aborted) {
      try {
        await lock.acquire(abort.signal);
      } catch (err) {
        if (abort.signal.aborted) break;
        failures.failed(err, 'cannot take the writer lock; retrying');
        await sleep(backoff.next(), abort.signal);
        continue;
      }
      await follow(AbortSignal.any([abort.signal, lock.lost]));
      if (abort.signal.aborted) {
        await heartbeat(pool, SyncStatus.STOPPED, null, null).catch(() => {});
        await lock.release();
        break;
      }
      // the lock went with its connection: nothing is written until it is taken again
      failures.failed(lock.lost.reason, 'writer lock lost with its database connection; waiting to take it again');
      await lock.release();
    }
  }

  const running = run().catch((err: unknown) => {
    log.error({ err: errorMessage(err) }, 'populator stopped by an error');
  });

  return {
    name: 'populator',
    synced: () => synced,
    async stop() {
      // a wait for another populator's lock ends too: its connection is dropped
      abort.abort();
      await running;
      await pool.end();
    },
  };
}

function errorMessage(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}

/**
 * FailureLog logs a run of failures once per kind (the first of each new kind), and the recovery once, with how
 * many tries failed meanwhile: an outage of minutes writes two lines, not one per retry.
 */
class FailureLog {
  readonly #log: Logger;
  readonly #metrics: IndexerMetrics;
  #kind: string | undefined;
  #count = 0;
  #since = 0;

  constructor(log: Logger, metrics: IndexerMetrics) {
    this.#log = log;
    this.#metrics = metrics;
  }

  failed(err: unknown, message: string): void {
    const kind =
      err instanceof AppError
        ? err.code
        : err instanceof Error
          ? ((err as { code?: string }).code ?? err.name)
          : 'error';
    this.#count++;
    this.#metrics.failures.inc({ kind });
    if (this.#kind === undefined) this.#since = Date.now();
    if (kind !== this.#kind) this.#log.warn({ err: errorMessage(err), kind }, message);
    this.#kind = kind;
  }

  recovered(): void {
    if (this.#kind === undefined) return;
    this.#log.info(
      { failedTries: this.#count, seconds: Math.round((Date.now() - this.#since) / 1000) },
      'populator recovered',
    );
    this.#kind = undefined;
    this.#count = 0;
  }
}
