/**
 * @module Populator (-p): migrate, then step the Follower until stopped, backing off on failures
 * (node unreachable, 5xx, timeouts, malformed JSON, database hiccups) without ever crashing, and saying so.
 */
import type prom from 'prom-client';
import type { Config } from '../../config/middleware.ts';
import { backfillStoredForks, type TransferRules } from '../derived/internal-transfers.ts';
import { chainRecord, transferRulesFor } from '../derived/chain-transfer-rules.ts';
import type { HyperchainRecord } from '../../db/queries/hyperchain.ts';
import { backfillUnpaidRewards } from '../derived/unpaid-rewards.ts';
import { AccountNumbers } from '../../db/writes/account-numbers.ts';
import { TxTypeCodes } from '../../db/writes/tx-type-codes.ts';
import { learnTxTypes } from '../../db/writes/learned-tx-types.ts';
import { migrate } from '../../db/schema/migrator.ts';
import { untilDatabaseAnswers } from '../../db/connection/wait.ts';
import { createWritePool, warmPool, type Pool } from '../../db/connection/pool.ts';
import { WriterLock } from '../../db/schema/writer-lock.ts';
import { AppError, errorMessage } from '../../base/errors.ts';
import type { Logger } from '../../base/log.ts';
import { NodeClient } from '../../node/client.ts';
import { Backoff, retry, sleep, waitBefore } from '../../base/retry.ts';
import { NodeError } from '../../node/errors.ts';
import { NodeSet } from '../../node/node-set.ts';
import type { Role } from '../../base/roles.ts';
import { contractReaders } from '../contracts/aexn-detector.ts';
import { aex9StateReport } from '../derived/aex9-state.ts';
import { balanceDifferenceReport } from '../derived/balance-changes.ts';
import { detectHyperchain } from '../hyperchain/detect.ts';
import { hyperchainReader } from '../hyperchain/reader.ts';
import { DeriveBackfill } from '../derived/derive-backfill.ts';
import { WrittenTransactions } from '../derived/written-transactions.ts';
import { GATHERED_TRANSACTIONS, transactionAreas } from '../derived/derived-areas.ts';
import { guardSchema } from '../identity/guard.ts';
import type { NodeMeters } from '../../node/chain-identity.ts';
import { Follower } from './follower.ts';
import type { LoaderDeps } from './loader.ts';
import { repairFailedInner } from './ga-repair.ts';
import { SyncGauges } from './sync-gauges.ts';
import { watchNode } from './node-watch.ts';
import { FetchAhead } from './fetch-ahead.ts';
import { BATCH_REQUEST_RETRIES } from './fetch.ts';
import { PrunedCallInfos } from './fetch-pruned.ts';
import { ProtocolWatch } from './protocol-watch.ts';
import { topProtocol } from '../../db/queries/blocks.ts';
import { createIndexerMetrics, type IndexerMetrics } from '../metrics.ts';
import { heartbeat, recordNodeProbe, SyncStatus } from '../../db/writes/sync-state.ts';
import { buildDeferred, deferBuilds } from '../../db/writes/deferred-builds.ts';
import { probeNodes } from './start-probe.ts';
import type { Json } from '../../chain/json.ts';
import { onSizeFallback } from '../../chain/tx-size.ts';

const MAX_ERROR_BACKOFF_MS = 5_000;
/** connections opened at once at the start: the writer lock's, the start's checks' (the first batch's is the writer's) */
const POOL_WARMED = 2;

export interface PopulatorDeps {
  readonly cfg: Config;
  readonly log: Logger;
  readonly registry: prom.Registry;
}

/**
 * Populator runs migrations, then loads and follows the chain, deriving beside it what derived areas lack for stored
 * heights from the stored rows (derived/derive-backfill.ts), in the background until stop(). It writes only while it
 * holds the schema's writer lock; when the connection holding it dies (a database restart, `pg_terminate_backend`, a
 * failover) it stops writing, takes the lock again with backoff and resumes from what the database holds.
 */
export class Populator implements Role {
  readonly name = 'populator';
  readonly #cfg: Config;
  readonly #log: Logger;
  readonly #pool: Pool;
  /** the batches' one connection (LoaderDeps.writer) */
  readonly #writer: Pool;
  readonly #metrics: IndexerMetrics;
  /** heights, lag, the node's and the database's answers: one set across the followers of each lock term */
  readonly #gauges: SyncGauges;
  readonly #abort = new AbortController();
  /** one set of nodes for every client: the poll and the fetches share its slots and its view of forks */
  readonly #nodes: NodeSet;
  readonly #lock: WriterLock;
  readonly #failures: FailureLog;
  readonly #backoff: Backoff;
  /** told of each call info no node holds any more: once per run, whatever the follower (logged once, counted each time) */
  readonly #onCallInfoGone: (txHash: string, height: number) => void;
  /** hears the protocols stored: a protocol this middleware does not know is said once per run */
  readonly #protocols: ProtocolWatch;
  readonly #synced: Promise<void>;
  #markSynced!: () => void;
  #running: Promise<void> | undefined;
  #quitSizeFallback: (() => void) | undefined;
  /** whether the chain is a hyperchain, read at start: the transfer rules and the hyperchain reader follow it */
  #chain: HyperchainRecord | undefined;
  /** what the start-up probe found the nodes allow (start-probe.ts), undefined when it could not tell */
  #probe: Promise<{ [key: string]: Json } | undefined> = Promise.resolve(undefined);

  constructor(deps: PopulatorDeps) {
    const { cfg, log } = deps;
    this.#cfg = cfg;
    this.#log = log;
    this.#pool = createWritePool(cfg, 'mdw-populator', log, Math.max(3, Math.min(cfg.databasePoolSize, 10)));
    this.#writer = createWritePool(cfg, 'mdw-populator', log, 1);
    this.#metrics = createIndexerMetrics(deps.registry);
    this.#gauges = new SyncGauges(this.#metrics);
    this.#nodes = new NodeSet(cfg.nodeUrls, {}, cfg.nodeAdmits);
    this.#lock = new WriterLock(this.#pool, cfg.databaseSchema);
    this.#failures = new FailureLog(log, this.#metrics);
    this.#backoff = new Backoff({
      initialMs: Math.min(cfg.pollIntervalMs, 1000),
      maxMs: MAX_ERROR_BACKOFF_MS,
      jitter: 0.2,
    });
    this.#onCallInfoGone = new PrunedCallInfos(log, this.#metrics.callInfoPruned).record;
    this.#protocols = new ProtocolWatch(log, this.#metrics.protocol);
    this.#synced = new Promise<void>((resolve) => {
      this.#markSynced = resolve;
    });
  }

  /**
   * start checks that the schema is this chain's and this Middleware's and migrates it (waiting for the database and
   * the nodes), then runs in the background until stop().
   */
  async start(): Promise<void> {
    const cfg = this.#cfg;
    const signal = this.#abort.signal;
    // the connections the first steps use (the writer lock's, the checks', a batch's), opened while the guard runs
    void warmPool(this.#pool, POOL_WARMED);
    void warmPool(this.#writer, 1);
    // whether the chain is a hyperchain, asked of the nodes while the guard runs: a first start needs the answer (a
    // restart reads the schema's record), and the guard's own requests to the nodes are not delayed by it
    let asked: Promise<HyperchainRecord> | undefined = detectHyperchain({
      urls: cfg.nodeUrls,
      timeoutMs: cfg.nodeTimeoutMs,
      signal,
      meters: this.#nodeMeters(),
    });
    asked.catch(() => {});
    let rules: TransferRules;
    try {
      // nothing is written into a schema of another chain, owner or version (docs/operations.md, "Chain identity")
      await guardSchema(cfg, this.#log, {
        writes: true,
        waitForNodes: true,
        signal: this.#abort.signal,
        nodeMeters: this.#nodeMeters(),
        migrate: () =>
          untilDatabaseAnswers(
            'migrations',
            () =>
              migrate(
                { databaseUrl: cfg.databaseUrl, schema: cfg.databaseSchema, configSchema: cfg.databaseConfigSchema },
                this.#log,
              ),
            this.#log,
          ),
      });
      // whether the chain is a hyperchain (hc_chain, else the nodes): waited for as the guard waited for the nodes
      const chain = await retry(
        () => {
          const early = asked;
          asked = undefined;
          return chainRecord(cfg, this.#pool, { signal, meters: this.#nodeMeters() }, early);
        },
        {
          attempts: Infinity,
          initialMs: 1000,
          maxMs: MAX_ERROR_BACKOFF_MS,
          jitter: 0.2,
          signal,
          onRetry: (attempt, err) => {
            if (attempt === 1)
              this.#log.warn({ err: errorMessage(err) }, 'cannot tell whether the chain is a hyperchain yet; retrying');
          },
        },
      );
      rules = await transferRulesFor(cfg, chain, this.#log);
      this.#chain = chain;
      // what the nodes allow, said once per run and kept for the status: asked beside the sync, never waited for
      this.#probe = probeNodes(
        {
          urls: cfg.nodeUrls,
          internalUrl: cfg.nodeInternalUrl,
          timeoutMs: cfg.nodeTimeoutMs,
          hyperchain: chain.hyperchain,
          signal,
          meters: this.#nodeMeters(),
        },
        this.#log,
      ).catch((err: unknown) => {
        if (!signal.aborted)
          this.#log.warn({ err: errorMessage(err) }, 'node probe failed: what the nodes allow is unknown');
        return undefined;
      });
    } catch (err) {
      await Promise.all([this.#pool.end(), this.#writer.end()]);
      throw err;
    }
    // a tx layout the serialiser does not know (ChannelForceProgressTx) is measured by its JSON: say so once per type
    this.#quitSizeFallback = onSizeFallback((txType, reason) =>
      this.#log.warn({ txType, reason }, 'transaction size taken from its json'),
    );
    this.#running = this.#run(rules).catch((err: unknown) => {
      this.#log.error({ err: errorMessage(err) }, 'populator stopped by an error');
    });
  }

  /**
   * synced resolves once the database has reached the node's top and derived what its catch-up gathered (the
   * balances; an area failing or pending for another reason does not hold it).
   */
  synced(): Promise<void> {
    return this.#synced;
  }

  async stop(): Promise<void> {
    // a wait for another populator's lock ends too: its connection is dropped
    this.#abort.abort();
    await this.#running;
    this.#quitSizeFallback?.();
    await Promise.all([this.#pool.end(), this.#writer.end()]);
  }

  /** #run follows the chain while it holds the writer lock, taking it again after its connection went. */
  async #run(rules: TransferRules): Promise<void> {
    const signal = this.#abort.signal;
    // the node's top asked whenever no step did for a poll interval (a long batch, a wait for PostgreSQL): the
    // metrics say at once that the node went away, and the lag grows as the node moves on while nothing is stored;
    // paced as the follower's poll: a node's refusal for load is its pace, waited out, not a node gone away
    const poll = new NodeClient(
      {
        url: this.#nodes,
        timeoutMs: this.#cfg.nodeTimeoutMs,
        signal,
        attempts: 1,
        paced: true,
        ...this.#nodeMeters(),
        onFork: this.#onFork,
      },
      this.#log,
    );
    const watching = watchNode({ poll, gauges: this.#gauges, intervalMs: this.#cfg.pollIntervalMs }, signal);
    while (!signal.aborted) {
      try {
        await this.#lock.acquire(signal);
      } catch (err) {
        if (signal.aborted) break;
        this.#gauges.database(false);
        this.#failures.failed(err, 'cannot take the writer lock; retrying');
        await sleep(this.#backoff.next(), signal);
        continue;
      }
      this.#gauges.database(true);
      await this.#follow(AbortSignal.any([signal, this.#lock.lost]), rules);
      if (signal.aborted) {
        await heartbeat(this.#pool, SyncStatus.STOPPED, null, null).catch(() => {});
        await this.#lock.release();
        break;
      }
      // the lock went with its connection: nothing is written until it is taken again
      this.#gauges.database(false);
      this.#failures.failed(
        this.#lock.lost.reason,
        'writer lock lost with its database connection; waiting to take it again',
      );
      await this.#lock.release();
    }
    await watching;
  }

  /** #follow steps the chain while the lock is held (until `term` aborts), backing off on failures. */
  async #follow(term: AbortSignal, rules: TransferRules): Promise<void> {
    const cfg = this.#cfg;
    const log = this.#log;
    const { follower, backfill, loader } = this.#newFollower(term, rules);
    /** when the follower last found nothing to do: with a backfill running it looks again after a poll interval */
    let idleAt = -Infinity;
    // what an upgrade or a new setting leaves to derive from the stored rows, checked at once: each check only reads
    // on a schema with nothing to do, and where one writes it records backfill ranges, which merge in any order
    const [forks, unpaid, learned, top] = await Promise.all([
      // hard-fork files given after the stored chain passed their fork: derived by the backfill (under the lock)
      backfillStoredForks(this.#pool, rules).catch((err: unknown) => {
        log.warn({ err: errorMessage(err) }, 'could not check the stored hard forks');
        return [];
      }),
      // a hyperchain loaded before issue 45 holds block rewards its node never paid: derived away from the stored rows
      backfillUnpaidRewards(this.#pool, rules).catch((err: unknown) => {
        log.warn({ err: errorMessage(err) }, 'could not check the stored block rewards');
        return undefined;
      }),
      // transaction types an older version stored as unknown and this one knows: re-typed from the stored rows
      learnTxTypes(this.#pool, transactionAreas()).catch((err: unknown) => {
        log.warn({ err: errorMessage(err) }, 'could not re-type the stored transactions of types this version learned');
        return [];
      }),
      // the protocol the stored chain is at, before any new block: a protocol not known is said at once
      topProtocol(this.#pool).catch(() => undefined),
    ]);
    for (const fork of forks)
      log.info(fork, 'the stored chain passed a hard fork without its transfers: deriving them from the stored rows');
    if (unpaid)
      log.info(
        unpaid,
        'the stored hyperchain holds block rewards its node never paid: deriving its transfers and statistics again',
      );
    for (const type of learned)
      log.info(
        type,
        'a transaction type stored as unknown is known now: its stored transactions are re-typed and derived again',
      );
    if (top) this.#protocols.stored([top]);
    // a catch-up from genesis leaves the indexes and tables only queries read to the top (writes/deferred-builds.ts)
    const deferred = await deferBuilds(this.#pool).catch((err: unknown) => {
      log.warn({ err: errorMessage(err) }, 'could not leave the indexes and tables only queries read to the top');
      return [];
    });
    if (deferred.length > 0) log.info({ deferred }, 'indexes and tables only queries read are built at the top');
    /** at the top with the catch-up's gathered areas derived: what the catch-up deferred built, then synced */
    let built = false;
    const synced = async (): Promise<void> => {
      if (!built) await buildDeferred(this.#pool, log);
      built = true;
      this.#markSynced();
    };
    // the probe's report, written under the lock once it is there (the sync does not wait for it)
    void this.#probe
      .then((report) => (report && !term.aborted ? recordNodeProbe(this.#pool, report) : undefined))
      .catch((err: unknown) => {
        if (!term.aborted) log.warn({ err: errorMessage(err) }, 'could not record what the nodes allow');
      });
    /** whether the stored heights an older version wrote wrongly were repaired (reloaded) in this lock term */
    let repaired = false;
    while (!term.aborted) {
      try {
        if (!repaired) {
          // before the head is followed: a few heights, and the head's rows would derive from them (ga-repair.ts)
          await repairFailedInner({ cfg, log, lock: this.#lock, loader, signal: term, beats: true });
          repaired = true;
        }
        // one batch of the derived areas behind (an upgrade's, a failing one's) from the stored rows, then the chain
        const catchingUp = !follower.caughtUp;
        const gathered = backfill.gathered;
        const backfilled = await backfill.step({ catchingUp });
        if (gathered && !backfill.gathered && follower.caughtUp) {
          // the step that derived what the catch-up gathered, at the top the follower's last step found: synced now,
          // and the poll's sleep follows as after any step at the top (a load ended a whole follower step sooner)
          await synced();
          idleAt = Date.now();
          await sleep(cfg.pollIntervalMs, term);
          continue;
        }
        if (backfilled && Date.now() - idleAt < cfg.pollIntervalMs) continue;
        const result = await follower.step();
        this.#failures.recovered();
        this.#backoff.reset();
        // synced once at the node's top with what the catch-up gathered derived too (the balances): its tables whole.
        // Only after a step of the follower's, whose requests are answered by then and which the poll's sleep follows
        if (follower.caughtUp && !backfill.gathered) await synced();
        idleAt = result === 'idle' ? Date.now() : -Infinity;
        // the step that caught up goes on at once: the backfill takes what waited for it (the areas that gather)
        if (result === 'idle' && !backfilled && !catchingUp) await sleep(cfg.pollIntervalMs, term);
      } catch (err) {
        if (term.aborted) break;
        this.#failures.failed(err, 'populator step failed; retrying');
        // the error stays in sync_state until a step succeeds: the status routes say the populator cannot advance
        const status = err instanceof NodeError ? SyncStatus.NODE_UNAVAILABLE : SyncStatus.ERROR;
        await heartbeat(this.#pool, status, null, errorMessage(err)).catch(() => {});
        // a node that answered 503 with Retry-After is left alone as long as it asked (bounded), not polled sooner
        const asked = err instanceof NodeError ? err.retryAfterMs : undefined;
        const wait = waitBefore(this.#backoff.next(), asked);
        if (asked !== undefined) this.#metrics.outbound.waitedAsAsked('node', wait / 1000);
        await sleep(wait, term);
      }
    }
  }

  /**
   * #onFork counts a node's drop from the set (another fork than the most advanced node's). The clients share one set,
   * and a drop is told only to the client whose reading found it: each client of the set counts them (the node watch's
   * poll found the fork before the follower did, and the drop went uncounted).
   */
  readonly #onFork = (node: string, dropped: boolean): void => {
    if (dropped) this.#metrics.nodeForks.inc({ node });
  };

  /** #nodeMeters counts every request to the nodes in the role's metrics: each answer, each failure, each one sent. */
  #nodeMeters(): NodeMeters {
    const metrics = this.#metrics;
    return {
      metrics: metrics.outbound,
      onError: (e: NodeError) => metrics.nodeErrors.inc({ code: e.code }),
      onAnswer: metrics.answered,
    };
  }

  /**
   * #newFollower is a Follower whose node requests end with `signal` (it reads where to go on from the database), and
   * the backfill of derived areas beside it, on the same node client and the same contract readers (one code cache,
   * one set of parsed contracts).
   */
  #newFollower(
    signal: AbortSignal,
    rules: TransferRules,
  ): { follower: Follower; backfill: DeriveBackfill; loader: LoaderDeps & { metrics: IndexerMetrics } } {
    const cfg = this.#cfg;
    const log = this.#log;
    const pool = this.#pool;
    const metrics = this.#metrics;
    const clientOptions = {
      url: this.#nodes,
      timeoutMs: cfg.nodeTimeoutMs,
      signal,
      ...this.#nodeMeters(),
      onFork: this.#onFork,
    };
    // a batch's requests retry generously (BATCH_REQUEST_RETRIES); the poll of the node's top does not retry
    // itself, so an outage shows in sync_state at the next poll, but waits out a refusal for load (the node's pace)
    const { attempts, initialMs, maxMs } = BATCH_REQUEST_RETRIES;
    const node = new NodeClient({ ...clientOptions, attempts, backoffInitialMs: initialMs, backoffMaxMs: maxMs }, log);
    const readers = contractReaders(cfg, pool, node, metrics.outbound);
    const hyperchain = hyperchainReader(node, readers.decoder, {
      timeoutMs: cfg.nodeTimeoutMs,
      log,
      signal,
      meters: this.#nodeMeters(),
      ...(this.#chain ? { known: this.#chain } : {}),
    });
    // what the catch-up's batches wrote, for the balances' stretch: at most a stretch's transactions and a batch's
    const written = new WrittenTransactions(GATHERED_TRANSACTIONS + cfg.batchTransactions);
    const backfill = new DeriveBackfill({
      pool,
      log,
      rules,
      written,
      detector: readers.aexn,
      balances: node,
      gaCalls: node,
      internalCalls: node,
      decoder: readers.decoder,
      hyperchain,
      onAex9State: aex9StateReport(log, metrics),
      onBalanceDifferences: balanceDifferenceReport(log, metrics),
      batchHeights: cfg.batchSize,
      schema: cfg.databaseSchema,
      metrics,
      signal,
    });
    // the follower's, and the start-up repair's (which reads no heights ahead: its list is not the chain's order)
    const loader = {
      pool,
      writer: this.#writer,
      node,
      ...readers,
      schema: cfg.databaseSchema,
      concurrency: cfg.fetchConcurrency,
      batchTransactions: cfg.batchTransactions,
      log,
      metrics,
      onCallInfoGone: this.#onCallInfoGone,
      onProtocols: this.#protocols.stored,
      transferRules: rules,
      accountNumbers: new AccountNumbers(),
      maxForkDepth: cfg.allowDeepFork ? Infinity : cfg.maxForkDepth,
      txTypeCodes: new TxTypeCodes(),
      hyperchain,
      written,
    };
    const follower = new Follower({
      cfg,
      log,
      poll: new NodeClient({ ...clientOptions, attempts: 1, paced: true }, log),
      gauges: this.#gauges,
      signal,
      loader: { ...loader, fetchAhead: new FetchAhead(node, cfg.forkWindow) },
    });
    return { follower, backfill, loader };
  }
}

/** startPopulator starts a Populator (its migrations done) and hands it over running. */
export async function startPopulator(deps: PopulatorDeps): Promise<Populator> {
  const populator = new Populator(deps);
  await populator.start();
  return populator;
}

/**
 * FailureLog logs a run of failures once per kind and what failed (the first of each new pair), and the recovery once,
 * with how many tries failed meanwhile: an outage of minutes writes two lines, not one per retry. What failed counts
 * too: a lost writer lock is said after a step's query ended by the same cause (pg_terminate_backend, a restart).
 */
class FailureLog {
  readonly #log: Logger;
  readonly #metrics: IndexerMetrics;
  /** the kind and message of the last failure said, until a recovery */
  #last: string | undefined;
  #count = 0;
  #since = 0;

  constructor(log: Logger, metrics: IndexerMetrics) {
    this.#log = log;
    this.#metrics = metrics;
  }

  /** failed counts a failure and logs it if it is the first of its kind and message in a row. */
  failed(err: unknown, message: string): void {
    const kind =
      err instanceof AppError
        ? err.code
        : err instanceof Error
          ? ((err as { code?: string }).code ?? err.name)
          : 'error';
    this.#count++;
    this.#metrics.failures.inc({ kind });
    if (this.#last === undefined) this.#since = Date.now();
    const last = `${kind} ${message}`;
    if (last !== this.#last) {
      const retryAfterMs = err instanceof NodeError ? err.retryAfterMs : undefined;
      this.#log.warn(
        { err: errorMessage(err), kind, ...(retryAfterMs === undefined ? {} : { retryAfterMs }) },
        message,
      );
    }
    this.#last = last;
  }

  recovered(): void {
    if (this.#last === undefined) return;
    this.#log.info(
      { failedTries: this.#count, seconds: Math.round((Date.now() - this.#since) / 1000) },
      'populator recovered',
    );
    this.#last = undefined;
    this.#count = 0;
  }
}
