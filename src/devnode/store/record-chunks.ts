/**
 * @module Fixed-width records in byte chunks allocated as a packed store grows (tx-store.ts, micro-store.ts): no array
 * doubled and copied, so a store of millions of records costs what it holds, not up to twice that at each growth.
 */

/** RecordChunks holds records of `width` bytes, `perChunk` of them to a chunk. */
export class RecordChunks {
  readonly #width: number;
  readonly #perChunk: number;
  readonly #chunks: Buffer[] = [];

  constructor(width: number, perChunk: number) {
    this.#width = width;
    this.#perChunk = perChunk;
  }

  /** reserve makes room for record `i` (the next after those reserved before, or one of them). */
  reserve(i: number): void {
    if (Math.floor(i / this.#perChunk) >= this.#chunks.length)
      this.#chunks.push(Buffer.allocUnsafe(this.#perChunk * this.#width));
  }

  /** chunk is the chunk that holds record `i`; offset where the record starts in it. */
  chunk(i: number): Buffer {
    return this.#chunks[Math.floor(i / this.#perChunk)]!;
  }

  offset(i: number): number {
    return (i % this.#perChunk) * this.#width;
  }

  /** view is `length` bytes of record `i` from `at` (not copied). */
  view(i: number, at: number, length: number): Buffer {
    const start = this.offset(i) + at;
    return this.chunk(i).subarray(start, start + length);
  }
}
