/** @module A dedicated database connection that LISTENs for the populator and reconnects with backoff. */
import type { Logger } from '../log.ts';
import { quoteIdent, type Pool, type PoolClient } from '../db/pool.ts';

export interface ListenerOptions {
  readonly pool: Pool;
  readonly channel: string;
  readonly log: Logger;
  /** Called with each notification's payload, in arrival order. */
  readonly onNotification: (payload: string) => void;
  /** Called once LISTEN is active again after a lost connection: notifications may have been missed. */
  readonly onReconnected: () => void;
  readonly initialRetryMs?: number;
  readonly maxRetryMs?: number;
  /** How often the idle connection is checked, so a silently dropped one is noticed. */
  readonly checkIntervalMs?: number;
}

const DEFAULT_INITIAL_RETRY_MS = 100;
const DEFAULT_MAX_RETRY_MS = 5000;
const DEFAULT_CHECK_INTERVAL_MS = 30_000;
const CHECK_TIMEOUT_MS = 10_000;

/**
 * NotificationListener holds one pool client for LISTEN. When the connection dies (database
 * restart, pg_terminate_backend) it is destroyed and a new one is opened, retrying with a
 * doubling delay, then `onReconnected` lets the caller catch up on what it missed.
 */
export class NotificationListener {
  readonly #options: ListenerOptions;
  #client: PoolClient | undefined;
  #stopped = false;
  #retryTimer: NodeJS.Timeout | undefined;
  #checkTimer: NodeJS.Timeout | undefined;
  #retryMs: number;

  constructor(options: ListenerOptions) {
    this.#options = options;
    this.#retryMs = options.initialRetryMs ?? DEFAULT_INITIAL_RETRY_MS;
  }

  /** start opens the connection and LISTENs; it rejects when the database cannot be reached now. */
  async start(): Promise<void> {
    await this.#connect();
    const interval = this.#options.checkIntervalMs ?? DEFAULT_CHECK_INTERVAL_MS;
    this.#checkTimer = setInterval(() => this.#check(), interval);
    this.#checkTimer.unref();
  }

  /** stop closes the connection and cancels any pending reconnect. */
  async stop(): Promise<void> {
    this.#stopped = true;
    clearTimeout(this.#retryTimer);
    clearInterval(this.#checkTimer);
    const client = this.#client;
    this.#client = undefined;
    if (client) {
      await client.query(`UNLISTEN ${quoteIdent(this.#options.channel)}`).catch(() => {});
      client.release(true);
    }
  }

  async #connect(): Promise<void> {
    const { pool, channel, onNotification } = this.#options;
    const client = await pool.connect();
    client.on('error', (err) => this.#lost(client, err));
    client.on('end', () => this.#lost(client, undefined));
    client.on('notification', (msg) => {
      if (msg.channel === channel && msg.payload !== undefined) onNotification(msg.payload);
    });
    try {
      await client.query(`LISTEN ${quoteIdent(channel)}`);
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
    this.#scheduleReconnect();
  }

  #scheduleReconnect(): void {
    const delay = this.#retryMs;
    this.#retryMs = Math.min(delay * 2, this.#options.maxRetryMs ?? DEFAULT_MAX_RETRY_MS);
    this.#retryTimer = setTimeout(() => {
      this.#connect().then(
        () => {
          this.#retryMs = this.#options.initialRetryMs ?? DEFAULT_INITIAL_RETRY_MS;
          this.#options.log.info({ channel: this.#options.channel }, 'database listen connection restored');
          this.#options.onReconnected();
        },
        (err: unknown) => {
          if (this.#stopped) return;
          this.#options.log.warn({ err: (err as Error).message, retryMs: this.#retryMs }, 'database listen reconnect failed');
          this.#scheduleReconnect();
        },
      );
    }, delay);
  }

  #check(): void {
    const client = this.#client;
    if (!client) return;
    // A half-open TCP connection never answers; treat a check that takes too long as a lost one.
    const timeout = setTimeout(() => this.#lost(client, new Error('listen connection check timed out')), CHECK_TIMEOUT_MS);
    client.query('SELECT 1').then(
      () => clearTimeout(timeout),
      (err: unknown) => {
        clearTimeout(timeout);
        this.#lost(client, err as Error);
      },
    );
  }
}
