/** @module A small seeded PRNG (sfc32) so generated chains are the same for the same seed. Pure. */
import { hash } from '../chain/encoding.ts';

/** Random draws reproducible numbers from a seed string. */
export class Random {
  #a: number;
  #b: number;
  #c: number;
  #d: number;

  constructor(seed: string) {
    const h = Buffer.from(hash(Buffer.from(seed, 'utf8')));
    this.#a = h.readUInt32LE(0);
    this.#b = h.readUInt32LE(4);
    this.#c = h.readUInt32LE(8);
    this.#d = h.readUInt32LE(12) | 1;
    for (let i = 0; i < 12; i++) this.uint32();
  }

  /** uint32 is the next 32 random bits. */
  uint32(): number {
    const t = (((this.#a + this.#b) | 0) + this.#d) | 0;
    this.#d = (this.#d + 1) | 0;
    this.#a = this.#b ^ (this.#b >>> 9);
    this.#b = (this.#c + (this.#c << 3)) | 0;
    this.#c = (this.#c << 21) | (this.#c >>> 11);
    this.#c = (this.#c + t) | 0;
    return t >>> 0;
  }

  /** int is an integer in [min, max]. */
  int(min: number, max: number): number {
    return min + Math.floor((this.uint32() / 2 ** 32) * (max - min + 1));
  }

  /** bigint is a uniformly random integer of `bits` bits. */
  bigint(bits: number): bigint {
    let v = 0n;
    for (let i = 0; i < bits; i += 32) v = (v << 32n) | BigInt(this.uint32());
    return v & ((1n << BigInt(bits)) - 1n);
  }

  /** chance is true with probability p. */
  chance(p: number): boolean {
    return this.uint32() / 2 ** 32 < p;
  }

  /** pick is a random element of a non-empty list. */
  pick<T>(items: readonly T[]): T {
    return items[this.int(0, items.length - 1)]!;
  }

  /** bytes is `n` random bytes. */
  bytes(n: number): Uint8Array {
    const out = new Uint8Array(n);
    for (let i = 0; i < n; i++) out[i] = this.uint32() & 0xff;
    return out;
  }
}
