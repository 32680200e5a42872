/**
 * @module What wakes the webhook sender before its poll interval: the populator's NOTIFY of a committed batch (the
 * rows of its deliveries are visible from then on) and a hook given back while others waited for a free slot. The
 * LISTEN connection is a shortcut, not a duty: when it is lost the sender polls as before, and it is opened again at
 * the next wait.
 */
import { listen } from '../db/connection/notify.ts';
import { notifyChannel } from '../db/connection/notification.ts';
import type { Pool, PoolClient } from '../db/connection/pool.ts';
import type { Logger } from '../base/log.ts';
import { errorMessage } from '../base/errors.ts';
import { sleep } from '../base/retry.ts';

/** Wakeup is a wait of at most the poll interval that a commit or `wake()` ends early. */
export class Wakeup {
  readonly #pool: Pool;
  readonly #schema: string;
  readonly #log: Logger;
  #client: PoolClient | undefined;
  readonly #released = new WeakSet<PoolClient>();
  #connecting: Promise<void> | undefined;
  /** how many commits were heard: a hook served since an earlier count may have missed one (sender.ts) */
  #commits = 0;
  /** set by a wake that came while no wait was under way: the next wait returns at once */
  #pending = false;
  #waiting: AbortController | undefined;

  constructor(pool: Pool, schema: string, log: Logger) {
    this.#pool = pool;
    this.#schema = schema;
    this.#log = log;
  }

  /** commits counts the commits heard so far. */
  get commits(): number {
    return this.#commits;
  }

  /** wake ends the wait under way, or the next one. */
  wake(): void {
    this.#pending = true;
    this.#waiting?.abort();
  }

  /** wait returns after `ms`, at a wake or a commit, or when `stop` aborts. */
  async wait(ms: number, stop: AbortSignal): Promise<void> {
    if (this.#client === undefined) await this.#connect();
    if (this.#pending || stop.aborted) {
      this.#pending = false;
      return;
    }
    this.#waiting = new AbortController();
    await sleep(ms, AbortSignal.any([stop, this.#waiting.signal]));
    this.#waiting = undefined;
    this.#pending = false;
  }

  /** close ends the LISTEN connection. */
  async close(): Promise<void> {
    await this.#connecting;
    this.#drop(this.#client);
  }

  #connect(): Promise<void> {
    this.#connecting ??= this.#open().finally(() => (this.#connecting = undefined));
    return this.#connecting;
  }

  async #open(): Promise<void> {
    let client: PoolClient | undefined;
    try {
      client = await this.#pool.connect();
      client.on('notification', () => {
        this.#commits += 1;
        this.wake();
      });
      client.on('error', () => this.#drop(client));
      client.on('end', () => this.#drop(client));
      await listen(client, notifyChannel(this.#schema));
      this.#client = client;
    } catch (err) {
      this.#drop(client);
      this.#log.debug({ err: errorMessage(err) }, 'webhook sender could not listen for commits; polling');
    }
  }

  #drop(client: PoolClient | undefined): void {
    if (client === undefined || this.#released.has(client)) return;
    this.#released.add(client);
    if (this.#client === client) this.#client = undefined;
    client.removeAllListeners('notification');
    client.release(true);
  }
}
