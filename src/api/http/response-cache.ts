/** @module In-process LRU of final /v2 answers, bounded by entries and bytes, invalidated by height. Pure (no I/O). */

/** CachedAnswer is a serialised body with what is needed to answer it again exactly. */
export interface CachedAnswer {
  readonly body: Buffer;
  readonly etag: string;
  /** the newest height the answer depends on: a rollback from this height or lower drops it */
  readonly height: number;
  /** the route template, so request metrics label a memory hit as the database answer was */
  readonly route: string | undefined;
}

/** StoredAnswer is an entry: the answer, its encoded bodies made so far, and the bytes it counts for. */
interface StoredAnswer extends CachedAnswer {
  size: number;
  encoded?: Map<string, Buffer>;
}

/** ResponseCacheStats are monotonic counters plus the current size. */
export interface ResponseCacheStats {
  readonly entries: number;
  readonly bytes: number;
  readonly hits: number;
  readonly misses: number;
  /** entries dropped to stay within the bounds */
  readonly evictions: number;
  /** entries dropped by a rollback or a clear */
  readonly invalidations: number;
}

/** DEFAULT_MAX_ENTRIES bounds the Map itself when bodies are tiny (e.g. transaction counts). */
const DEFAULT_MAX_ENTRIES = 200_000;
/** ENTRY_OVERHEAD_BYTES approximates the Map slot, the entry object and the ETag string. */
const ENTRY_OVERHEAD_BYTES = 160;
/** RECENT_INVALIDATIONS: how many invalidations are remembered to judge reads still in flight. */
const RECENT_INVALIDATIONS = 32;

/**
 * ResponseCache keeps answers keyed by path, least recently used first out. A read that started
 * before an invalidation may carry rows the invalidation removed, so `set` takes the ticket taken
 * before the read and refuses an answer at a height invalidated since.
 */
export class ResponseCache {
  readonly maxBytes: number;
  readonly maxEntries: number;
  readonly #entries = new Map<string, StoredAnswer>();
  /** invalidations after ticket `seq - n` for the last n of them, oldest first */
  readonly #recent: { seq: number; fromHeight: number }[] = [];
  #seq = 0;
  /** at least the highest height stored (an upper bound: removals do not lower it) */
  #maxHeight = Number.NEGATIVE_INFINITY;
  #bytes = 0;
  #hits = 0;
  #misses = 0;
  #evictions = 0;
  #invalidations = 0;
  /** true while rollbacks may go unheard: nothing is kept then */
  #suspended = false;

  constructor(opts: { maxBytes: number; maxEntries?: number }) {
    this.maxBytes = opts.maxBytes;
    this.maxEntries = opts.maxEntries ?? DEFAULT_MAX_ENTRIES;
  }

  /** get returns the answer stored under `key` (marking it recently used) and counts a hit. */
  get(key: string): CachedAnswer | undefined {
    const entry = this.#entries.get(key);
    if (!entry) return undefined;
    this.#entries.delete(key);
    this.#entries.set(key, entry);
    this.#hits++;
    return entry;
  }

  /**
   * encodedBody returns the body of the answer stored under `key` in a content encoding, made by
   * `encode` on first use and kept with the entry (its bytes count against the bound); an answer
   * no longer stored is encoded without being kept.
   */
  encodedBody(key: string, answer: CachedAnswer, encoding: string, encode: (body: Buffer) => Buffer): Buffer {
    const entry = this.#entries.get(key);
    const known = entry === answer ? entry.encoded?.get(encoding) : undefined;
    if (known) return known;
    const body = encode(answer.body);
    if (entry !== answer) return body;
    (entry.encoded ??= new Map()).set(encoding, body);
    entry.size += body.length;
    this.#bytes += body.length;
    this.#evictOverBounds();
    return body;
  }

  /** recordMiss counts an answer of a cacheable route that had to be read from the database. */
  recordMiss(): void {
    this.#misses++;
  }

  /** ticket marks the start of a database read whose answer may be stored later. */
  ticket(): number {
    return this.#seq;
  }

  /** set stores an answer read after `ticket` unless it is too big, was invalidated meanwhile or the cache is suspended; true when stored. */
  set(key: string, answer: CachedAnswer, ticket: number): boolean {
    if (this.#suspended || !this.#stillValid(answer.height, ticket)) return false;
    const size = answer.body.length + Buffer.byteLength(key) + ENTRY_OVERHEAD_BYTES;
    if (size > this.maxBytes) return false;
    this.#remove(key);
    this.#entries.set(key, { ...answer, size });
    this.#bytes += size;
    this.#maxHeight = Math.max(this.#maxHeight, answer.height);
    this.#evictOverBounds();
    return true;
  }

  /** invalidateFrom drops every answer about `height` or above (those heights were rolled back). */
  invalidateFrom(height: number): void {
    this.#recordInvalidation(height);
    // Every commit notifies from above the top, where no final answer is: no scan then.
    if (height > this.#maxHeight) return;
    for (const [key, entry] of this.#entries) {
      if (entry.height >= height) {
        this.#remove(key, entry);
        this.#invalidations++;
      }
    }
  }

  /** clear drops everything (notifications may have been missed). */
  clear(): void {
    this.#recordInvalidation(Number.NEGATIVE_INFINITY);
    this.#invalidations += this.#entries.size;
    this.#entries.clear();
    this.#bytes = 0;
  }

  /**
   * suspend clears the cache and refuses every store until `resume`: while the LISTEN connection
   * is lost a rollback would go unheard, so no answer may be served from memory.
   */
  suspend(): void {
    this.#suspended = true;
    this.clear();
  }

  /** resume clears again (reads in flight while suspended may predate a missed rollback) and stores again. */
  resume(): void {
    this.clear();
    this.#suspended = false;
  }

  /** stats reports counters and size for metrics. */
  stats(): ResponseCacheStats {
    return {
      entries: this.#entries.size,
      bytes: this.#bytes,
      hits: this.#hits,
      misses: this.#misses,
      evictions: this.#evictions,
      invalidations: this.#invalidations,
    };
  }

  /** #evictOverBounds drops least recently used entries until both bounds hold. */
  #evictOverBounds(): void {
    for (const [oldest, entry] of this.#entries) {
      if (this.#bytes <= this.maxBytes && this.#entries.size <= this.maxEntries) break;
      this.#remove(oldest, entry);
      this.#evictions++;
    }
  }

  #stillValid(height: number, ticket: number): boolean {
    if (ticket === this.#seq) return true;
    const oldest = this.#recent[0];
    // Too many invalidations since the read started to know which heights they touched.
    if (!oldest || oldest.seq > ticket + 1) return false;
    return this.#recent.every((inv) => inv.seq <= ticket || height < inv.fromHeight);
  }

  #recordInvalidation(fromHeight: number): void {
    this.#seq++;
    this.#recent.push({ seq: this.#seq, fromHeight });
    if (this.#recent.length > RECENT_INVALIDATIONS) this.#recent.shift();
  }

  #remove(key: string, entry = this.#entries.get(key)): void {
    if (!entry) return;
    this.#entries.delete(key);
    this.#bytes -= entry.size;
  }
}
