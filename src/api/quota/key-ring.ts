/**
 * @module The keys a server knows, in memory: read from the database at start and reread every API_KEYS_REFRESH_MS
 * (the keys changed since the last read), so that finding a request's key is a hash and a map lookup, never a query.
 * With a keys file (API_KEYS_FILE) it first makes the database's file keys the file's, at start and whenever the file
 * changes (a mounted Secret is rewritten in place by the kubelet).
 */
import { readFile } from 'node:fs/promises';
import type { Logger } from '../../base/log.ts';
import { AppError, ErrorCode, errorMessage } from '../../base/errors.ts';
import type { Pool } from '../../db/connection/pool.ts';
import { keysChangedSince } from '../../db/queries/api-keys.ts';
import { syncFileKeys } from '../../db/writes/api-keys.ts';
import { parseKeysFile } from './keys-file.ts';
import { keySha256 } from './key-text.ts';

/** KnownKey is what a server holds of a key. */
export interface KnownKey {
  readonly id: string;
  readonly name: string;
  readonly tier: string;
  readonly revoked: boolean;
}

/**
 * REREAD_MARGIN_MS: each read asks for the keys changed since this long before the last read's clock: a change whose
 * transaction began before that read (its changed_at earlier) but committed after it is read the next time.
 */
const REREAD_MARGIN_MS = 60_000;

export interface KeyRingOptions {
  /** a pool that may write (file keys are stored) */
  readonly pool: Pool;
  readonly refreshMs: number;
  readonly keysFile: string | undefined;
  /** the tiers configured: a file key of another tier is refused */
  readonly tiers: ReadonlySet<string>;
  readonly log: Logger;
}

/** KeyRing finds a presented key among the stored ones; start reads them, stop ends the rereading. */
export class KeyRing {
  readonly #options: KeyRingOptions;
  readonly #byHash = new Map<string, KnownKey>();
  #readAt: Date | undefined;
  #fileText: string | undefined;
  #timer: NodeJS.Timeout | undefined;
  #failing = false;

  constructor(options: KeyRingOptions) {
    this.#options = options;
  }

  /** size counts the keys known, revoked ones included. */
  get size(): number {
    return this.#byHash.size;
  }

  /** start reads the keys file (a bad one fails the start) and every key, then rereads them periodically. */
  async start(): Promise<void> {
    await this.#syncFile(true);
    await this.#read();
    this.#schedule();
  }

  stop(): void {
    clearTimeout(this.#timer);
    this.#timer = undefined;
  }

  /** find is the stored key a request presents, revoked or not; undefined for a key never stored. */
  find(key: string): KnownKey | undefined {
    return this.#byHash.get(keySha256(key).toString('hex'));
  }

  /** refresh rereads the keys file and the keys now (tests; the timer does it every refreshMs). */
  async refresh(): Promise<void> {
    await this.#syncFile(false);
    await this.#read();
  }

  #schedule(): void {
    this.#timer = setTimeout(() => {
      this.refresh()
        .then(() => {
          if (this.#failing) this.#options.log.info('api keys read again');
          this.#failing = false;
        })
        .catch((err: unknown) => {
          // the keys known stay in force meanwhile; one line per outage
          if (!this.#failing) this.#options.log.warn({ reason: errorMessage(err) }, 'api keys could not be reread');
          this.#failing = true;
        })
        .finally(() => {
          if (this.#timer !== undefined) this.#schedule();
        });
    }, this.#options.refreshMs);
  }

  async #read(): Promise<void> {
    const since = this.#readAt && new Date(this.#readAt.getTime() - REREAD_MARGIN_MS);
    const { keys, readAt } = await keysChangedSince(this.#options.pool, since);
    for (const k of keys)
      this.#byHash.set(k.keySha256.toString('hex'), {
        id: k.id,
        name: k.name,
        tier: k.tier,
        revoked: k.revokedAt !== null,
      });
    this.#readAt = readAt;
  }

  /**
   * #syncFile stores the keys file's keys when its text changed. A file that does not parse fails the start; later it
   * is logged and the keys stored before stay, so a bad edit of a Secret locks nobody out.
   */
  async #syncFile(starting: boolean): Promise<void> {
    const { keysFile, tiers, pool, log } = this.#options;
    if (keysFile === undefined) return;
    const text = await readFile(keysFile, 'utf8');
    if (text === this.#fileText) return;
    const keys = parseKeysFile(text, tiers);
    if ('problems' in keys) {
      const message = `API_KEYS_FILE ${keysFile}: ${keys.problems.join('; ')}`;
      if (starting) throw new AppError(ErrorCode.CONFIG_INVALID, 500, message);
      log.error({ file: keysFile, problems: keys.problems }, 'keys file not taken: the keys stored before stay');
      this.#fileText = text;
      return;
    }
    await syncFileKeys(pool, keys);
    this.#fileText = text;
    log.info({ file: keysFile, keys: keys.length }, 'keys file taken');
  }
}
