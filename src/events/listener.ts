/** @module One dedicated database connection that LISTENs for the populator, fans out to its subscribers and reconnects with backoff. */
import type { Logger } from '../base/log.ts';
import { listen, unlisten } from '../db/connection/notify.ts';
import type { Pool, PoolClient } from '../db/connection/pool.ts';
import { walEnd } from '../db/connection/replication.ts';
import { Backoff } from '../base/retry.ts';

/** NotificationSubscriber is one user of the shared LISTEN connection; every callback is optional. */
export interface NotificationSubscriber {
  /** Called with each notification's payload, in arrival order. */
  readonly onNotification?: (payload: string) => void;
  /** Called as soon as the connection is found dead: notifications are being missed from now on. */
  readonly onLost?: () => void;
  /** Called once LISTEN is active again after a lost connection: notifications may have been missed. */
  readonly onReconnected?: () => void;
}

export interface ListenerOptions {
  readonly pool: Pool;
  readonly channel: string;
  readonly log: Logger;
  readonly initialRetryMs?: number;
  readonly maxRetryMs?: number;
  /** How often the idle connection is checked, so a silently dropped one is noticed. */
  readonly checkIntervalMs?: number;
  /** How long a check may take before the connection counts as dead. */
  readonly checkTimeoutMs?: number;
  /**
   * Set when the server reads replicas (db/connection/read-replicas.ts): resolves once they have replayed the primary's WAL up to
   * a position. Each notification (and each reconnection) is then held until the replicas have replayed the primary's
   * position read right after it arrived, and handed on in arrival order.
   */
  readonly replayed?: (lsn: bigint) => Promise<void>;
}

const DEFAULT_INITIAL_RETRY_MS = 100;
const DEFAULT_MAX_RETRY_MS = 5000;
// A silently dead connection is noticed within interval + timeout (15 s) at one tiny query per 10 s.
const DEFAULT_CHECK_INTERVAL_MS = 10_000;
const DEFAULT_CHECK_TIMEOUT_MS = 5000;
/** A check's timer firing later than this share of the timeout found the event loop stalled, not the database slow. */
const STALLED_SHARE = 0.1;

/**
 * NotificationListener holds one pool client for LISTEN, shared by every user in the process.
 * When the connection dies (database restart, pg_terminate_backend, a check that gets no answer)
 * subscribers hear `onLost` at once; a new connection is opened, retrying with a doubling delay,
 * then `onReconnected` lets each subscriber catch up on what it missed.
 */
export class NotificationListener {
  readonly #options: ListenerOptions;
  readonly #subscribers = new Set<NotificationSubscriber>();
  #client: PoolClient | undefined;
  #stopped = false;
  #retryTimer: NodeJS.Timeout | undefined;
  #checkTimer: NodeJS.Timeout | undefined;
  /** the client whose check has not answered yet (a new client is checked regardless) */
  #checking: PoolClient | undefined;
  readonly #backoff: Backoff;
  /** what is held until the replicas have replayed it, in arrival order (with `replayed` only) */
  #held: Promise<void> = Promise.resolve();

  constructor(options: ListenerOptions) {
    this.#options = options;
    this.#backoff = new Backoff({
      initialMs: options.initialRetryMs ?? DEFAULT_INITIAL_RETRY_MS,
      maxMs: options.maxRetryMs ?? DEFAULT_MAX_RETRY_MS,
    });
  }

  /** listening is true while the LISTEN connection is up (every notification is heard). */
  get listening(): boolean {
    return this.#client !== undefined;
  }

  /** subscribe adds a user of the notifications and returns the function that removes it. */
  subscribe(subscriber: NotificationSubscriber): () => void {
    this.#subscribers.add(subscriber);
    return () => this.#subscribers.delete(subscriber);
  }

  /** start opens the connection and LISTENs; it rejects when the database cannot be reached now. */
  async start(): Promise<void> {
    await this.#connect();
    const interval = this.#options.checkIntervalMs ?? DEFAULT_CHECK_INTERVAL_MS;
    this.#checkTimer = setInterval(() => this.#check(), interval);
    this.#checkTimer.unref();
  }

  /** stop closes the connection and cancels any pending reconnect; stop its subscribers first. */
  async stop(): Promise<void> {
    this.#stopped = true;
    clearTimeout(this.#retryTimer);
    clearInterval(this.#checkTimer);
    const client = this.#client;
    this.#client = undefined;
    if (client) {
      await unlisten(client, this.#options.channel).catch(() => {});
      client.release(true);
    }
  }

  async #connect(): Promise<void> {
    const { pool, channel } = this.#options;
    const client = await pool.connect();
    client.on('error', (err) => this.#lost(client, err));
    client.on('end', () => this.#lost(client, undefined));
    client.on('notification', ({ channel: from, payload }) => {
      if (from === channel && payload !== undefined)
        this.#afterReplay(client, () => this.#emit('notification', (s) => s.onNotification?.(payload)));
    });
    try {
      await listen(client, channel);
    } catch (err) {
      client.release(true);
      throw err;
    }
    this.#client = client;
  }

  #lost(client: PoolClient, err: Error | undefined): void {
    if (this.#client !== client) return;
    this.#client = undefined;
    client.release(true);
    if (this.#stopped) return;
    this.#options.log.warn({ err: err?.message }, 'database listen connection lost; reconnecting');
    this.#emit('lost', (s) => s.onLost?.());
    this.#scheduleReconnect();
  }

  #scheduleReconnect(): void {
    const delay = this.#backoff.next();
    this.#retryTimer = setTimeout(() => {
      this.#connect().then(
        () => {
          // stopped while connecting: the new connection is nobody's
          if (this.#stopped) return void this.stop();
          this.#backoff.reset();
          this.#options.log.info({ channel: this.#options.channel }, 'database listen connection restored');
          // what subscribers read to catch up must be on the replicas first
          this.#afterReplay(this.#client!, () => this.#emit('reconnected', (s) => s.onReconnected?.()));
        },
        (err: unknown) => {
          if (this.#stopped) return;
          // the loss was logged once; each failed try is a detail
          this.#options.log.debug(
            { err: (err as Error).message, attempts: this.#backoff.failures },
            'database listen reconnect failed',
          );
          this.#scheduleReconnect();
        },
      );
    }, delay);
  }

  /**
   * #afterReplay hands `deliver` on at once without replicas; with them, once they have replayed the primary's position
   * read now (on the LISTEN connection: after the notification, so at or past its commit), after what came before.
   * A position that cannot be read means the connection is lost: the reconnection makes subscribers catch up.
   */
  #afterReplay(client: PoolClient, deliver: () => void): void {
    const { replayed } = this.#options;
    if (!replayed) return deliver();
    const position = walEnd(client);
    // read now, awaited in turn below: its failure is handled there, not an unhandled rejection meanwhile
    position.catch(() => {});
    this.#held = this.#held.then(async () => {
      try {
        await replayed(await position);
      } catch (err) {
        if (!this.#stopped) this.#options.log.debug({ err: (err as Error).message }, 'notification dropped');
        return;
      }
      if (!this.#stopped) deliver();
    });
  }

  /** #emit calls every subscriber; one that throws is logged and does not keep the others from hearing. */
  #emit(event: string, call: (subscriber: NotificationSubscriber) => void): void {
    for (const subscriber of [...this.#subscribers]) {
      try {
        call(subscriber);
      } catch (err) {
        this.#options.log.error({ err: (err as Error).message, event }, 'listen subscriber failed');
      }
    }
  }

  #check(): void {
    const client = this.#client;
    // One check at a time: a slow answer is judged by its own timeout.
    if (!client || this.#checking === client) return;
    this.#checking = client;
    const timeoutMs = this.#options.checkTimeoutMs ?? DEFAULT_CHECK_TIMEOUT_MS;
    let answered = false;
    let timer: NodeJS.Timeout | undefined;
    // A half-open TCP connection never answers; treat a check that takes too long as a lost one. The timeout must
    // judge the database, not this process's event loop: after a stall (a GC pause, a long synchronous render, a
    // stopped process) the timer and the answer are both ready, and the loop runs timers before it reads sockets.
    const wait = (extended: boolean): void => {
      const dueAt = performance.now() + timeoutMs;
      timer = setTimeout(() => {
        const lateMs = performance.now() - dueAt;
        // setImmediate runs after the loop's next poll phase: an answer that is in has been read by then.
        setImmediate(() => {
          if (answered) return;
          // A timer this late timed the stall, and the database may have been stopped with the process (SIGSTOP,
          // CPU starvation): one more timeout, once, so that a dead connection is still found under repeated stalls.
          if (!extended && lateMs > timeoutMs * STALLED_SHARE) return wait(true);
          this.#lost(client, new Error('listen connection check timed out'));
        });
      }, timeoutMs);
    };
    wait(false);
    // Repeating LISTEN is a no-op that keeps it the backend's last statement in pg_stat_activity.
    listen(client, this.#options.channel)
      .then(
        () => {
          answered = true;
          clearTimeout(timer);
        },
        (err: unknown) => {
          answered = true;
          clearTimeout(timer);
          this.#lost(client, err as Error);
        },
      )
      .finally(() => {
        if (this.#checking === client) this.#checking = undefined;
      });
  }
}
