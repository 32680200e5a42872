/**
 * @module An open-addressing table from 32-byte hashes to the indexes of a packed store (tx-store.ts, micro-store.ts):
 * four bytes a slot at most half full, where a Map keyed by the encoded hash costs a string and an entry per object.
 */

/**
 * HashIndex finds entry i of a store by its hash: `keyAt` is the first four bytes of entry i's hash as `hashKey` reads
 * them (a store keeps them), `hashAt` its whole hash (which a store may compute), read only when the keys match.
 */
export class HashIndex {
  readonly #keyAt: (i: number) => number;
  readonly #hashAt: (i: number) => Uint8Array;
  /** index + 1 of an entry, 0 for a free slot */
  #table = new Int32Array(2048);
  #count = 0;

  constructor(keyAt: (i: number) => number, hashAt: (i: number) => Uint8Array) {
    this.#keyAt = keyAt;
    this.#hashAt = hashAt;
  }

  /** add indexes the store's next entry (its index is the number indexed so far). */
  add(): void {
    this.#count++;
    if (this.#count * 2 > this.#table.length) this.#rehash(this.#table.length * 2);
    else this.#insert(this.#count - 1);
  }

  /** find is the index of the entry whose hash is `bytes`; −1 when there is none. */
  find(bytes: Uint8Array): number {
    const mask = this.#table.length - 1;
    const key = hashKey(bytes);
    for (let slot = key & mask; ; slot = (slot + 1) & mask) {
      const entry = this.#table[slot]!;
      if (entry === 0) return -1;
      if (this.#keyAt(entry - 1) === key && Buffer.compare(this.#hashAt(entry - 1), bytes) === 0) return entry - 1;
    }
  }

  /** truncate forgets the entries from index `count` on. */
  truncate(count: number): void {
    if (count >= this.#count) return;
    this.#count = count;
    this.#rehash(this.#table.length);
  }

  #insert(i: number): void {
    const mask = this.#table.length - 1;
    let slot = this.#keyAt(i) & mask;
    while (this.#table[slot] !== 0) slot = (slot + 1) & mask;
    this.#table[slot] = i + 1;
  }

  #rehash(size: number): void {
    this.#table = new Int32Array(size);
    for (let i = 0; i < this.#count; i++) this.#insert(i);
  }
}

/** hashKey is a hash's first four bytes as a number, its slot in a table (a hash's bytes are uniform already). */
export function hashKey(bytes: Uint8Array): number {
  return (bytes[0]! | (bytes[1]! << 8) | (bytes[2]! << 16) | (bytes[3]! << 24)) >>> 0;
}
