/**
 * @module The devnode's sealed transactions, packed: their signed bytes and infos in large byte chunks and their
 * hashes, positions and blocks in typed arrays, with no object per transaction. A chain of a tenth of mainnet holds
 * millions of transactions; as objects (the decoded fields, the infos, the hash as a string, a map entry) each cost
 * about 3 kB of heap, packed about 300 bytes. A transaction read is rebuilt from its bytes (TxRecord), as a node reads
 * its database.
 */
import v8 from 'node:v8';
import { decode, encode } from '../chain/encoding.ts';
import type { Json } from '../chain/json.ts';
import { schemaFor } from '../chain/tx-schema.ts';
import { HashIndex } from './hash-index.ts';
import { decodeSignedTx, decodeTx, type TxFields } from './tx-codec.ts';

/** TxRecord is one signed transaction, pending (blockHeight −1) or included in a micro block. */
export interface TxRecord {
  readonly hash: string;
  readonly hashBytes: Uint8Array;
  readonly signedBytes: Uint8Array;
  readonly tx: TxFields;
  readonly blockHash: string | undefined;
  readonly blockHeight: number;
  callInfo?: { [k: string]: Json };
  gaInfo?: { [k: string]: Json };
  json?: string;
}

type Info = { [k: string]: Json };

/** SealedBlock is what a transaction keeps of its micro block (the chain's MicroBlock, whose hash is encoded when read). */
export interface SealedBlock {
  readonly hash: string;
  readonly height: number;
}

/** CHUNK is the size of one byte chunk: large enough that its overhead is nothing, small enough to grow in steps. */
const CHUNK = 1 << 24;
const HASH = 32;
const GA_INFO = 1;
const CALL_INFO = 2;
/** the fields are kept serialised with the info: a type the shared codec does not know (made-up-tx.ts) */
const OWN_FIELDS = 4;

/** ByteArena appends byte strings into chunks; an offset names one (chunk × CHUNK + position). */
class ByteArena {
  readonly #chunks: Buffer[] = [];
  #used = CHUNK;

  append(bytes: Uint8Array): number {
    if (bytes.length > CHUNK) throw new RangeError(`a sealed transaction of ${bytes.length} bytes`);
    if (this.#used + bytes.length > CHUNK) {
      this.#chunks.push(Buffer.allocUnsafe(CHUNK));
      this.#used = 0;
    }
    const at = (this.#chunks.length - 1) * CHUNK + this.#used;
    this.#chunks.at(-1)!.set(bytes, this.#used);
    this.#used += bytes.length;
    return at;
  }

  /** view is the bytes at `offset` (not copied: an arena never rewrites what it holds). */
  view(offset: number, length: number): Uint8Array {
    const chunk = this.#chunks[Math.floor(offset / CHUNK)]!;
    const at = offset % CHUNK;
    return chunk.subarray(at, at + length);
  }
}

function grown<T extends Uint8Array | Uint32Array | Float64Array | Int32Array>(array: T, need: number): T {
  if (need <= array.length) return array;
  const next = new (array.constructor as new (n: number) => T)(Math.max(need, array.length * 2));
  next.set(array);
  return next;
}

/** SealedTx is a transaction read back from the store: its fields are decoded when first asked for. */
class SealedTx implements TxRecord {
  readonly hashBytes: Uint8Array;
  readonly signedBytes: Uint8Array;
  json?: string;
  #block: SealedBlock;
  #blockHash: string | undefined;
  #hash: string | undefined;
  #tx: TxFields | undefined;
  /** the info and, for a type the codec does not know, the fields, read when first asked for (a replay needs neither) */
  #kept: (() => unknown) | undefined;
  readonly #flags: number;
  #callInfo: Info | undefined;
  #gaInfo: Info | undefined;

  constructor(hashBytes: Uint8Array, signedBytes: Uint8Array, block: SealedBlock, flags: number, kept?: () => unknown) {
    this.hashBytes = hashBytes;
    this.signedBytes = signedBytes;
    this.#block = block;
    this.#flags = flags;
    this.#kept = kept;
  }

  get hash(): string {
    this.#hash ??= encode('th', this.hashBytes);
    return this.#hash;
  }

  get blockHash(): string {
    this.#blockHash ??= this.#block.hash;
    return this.#blockHash;
  }

  get blockHeight(): number {
    return this.#block.height;
  }

  get tx(): TxFields {
    this.#read();
    this.#tx ??= decodeTx(decodeSignedTx(this.signedBytes).txBytes);
    return this.#tx;
  }

  get callInfo(): Info | undefined {
    this.#read();
    return this.#callInfo;
  }

  set callInfo(info: Info | undefined) {
    this.#read();
    this.#callInfo = info;
  }

  get gaInfo(): Info | undefined {
    this.#read();
    return this.#gaInfo;
  }

  set gaInfo(info: Info | undefined) {
    this.#read();
    this.#gaInfo = info;
  }

  #read(): void {
    if (!this.#kept) return;
    const kept = this.#kept();
    this.#kept = undefined;
    const [fields, info] =
      (this.#flags & OWN_FIELDS) !== 0 ? (kept as [TxFields, Info | undefined]) : [undefined, kept as Info];
    this.#tx ??= fields;
    if ((this.#flags & GA_INFO) !== 0) this.#gaInfo = info;
    else if ((this.#flags & CALL_INFO) !== 0) this.#callInfo = info;
  }
}

/** TxStore holds the sealed transactions in the order they were sealed, found by index or by hash. */
export class TxStore {
  readonly #bytes = new ByteArena();
  #count = 0;
  #hashes = new Uint8Array(HASH * 1024);
  #at = new Float64Array(1024);
  #length = new Uint32Array(1024);
  #infoAt = new Float64Array(1024);
  #infoLength = new Uint32Array(1024);
  #flags = new Uint8Array(1024);
  #block = new Uint32Array(1024);
  readonly #blocks: SealedBlock[] = [];
  readonly #index = new HashIndex((i) => this.#hashes.subarray(i * HASH, (i + 1) * HASH));

  get size(): number {
    return this.#count;
  }

  /** append seals a transaction into `block` (which must be the newest block or a newer one); its index. */
  append(record: TxRecord, block: SealedBlock): number {
    const i = this.#count;
    this.#reserve(i + 1);
    this.#hashes.set(record.hashBytes, i * HASH);
    let flags = schemaFor(String(record.tx.type), Number(record.tx.version)) ? 0 : OWN_FIELDS;
    this.#at[i] = this.#bytes.append(record.signedBytes);
    this.#length[i] = record.signedBytes.length;
    const info = record.gaInfo ?? record.callInfo;
    if (info) flags |= record.gaInfo ? GA_INFO : CALL_INFO;
    if (flags !== 0) {
      const infoBytes = v8.serialize((flags & OWN_FIELDS) !== 0 ? [record.tx, info] : info);
      this.#infoAt[i] = this.#bytes.append(infoBytes);
      this.#infoLength[i] = infoBytes.length;
    }
    this.#flags[i] = flags;
    if (this.#blocks.at(-1) !== block) this.#blocks.push(block);
    this.#block[i] = this.#blocks.length - 1;
    this.#count = i + 1;
    this.#index.add();
    return i;
  }

  /** record is transaction `i` as a TxRecord (a new object each time). */
  record(i: number): TxRecord {
    if (!(i >= 0 && i < this.#count)) throw new RangeError(`no sealed transaction ${i}`);
    const flags = this.#flags[i]!;
    const block = this.#blocks[this.#block[i]!]!;
    const bytes = this.#bytes.view(this.#at[i]!, this.#length[i]!);
    // a copy: a fork truncates the store and appends over these hashes
    const hashBytes = this.#hashes.slice(i * HASH, (i + 1) * HASH);
    const infoAt = this.#infoAt[i]!;
    const infoLength = this.#infoLength[i]!;
    const kept = flags === 0 ? undefined : () => v8.deserialize(this.#bytes.view(infoAt, infoLength)) as unknown;
    return new SealedTx(hashBytes, bytes, block, flags, kept);
  }

  /** range is `count` transactions from index `start`. */
  range(start: number, count: number): TxRecord[] {
    return Array.from({ length: count }, (_, k) => this.record(start + k));
  }

  /** indexOf is the index of the transaction whose `th_` hash is `hash`; −1 when the store has none. */
  indexOf(hash: string): number {
    let bytes: Uint8Array;
    try {
      const decoded = decode(hash);
      if (decoded.prefix !== 'th' || decoded.bytes.length !== HASH) return -1;
      bytes = decoded.bytes;
    } catch {
      return -1;
    }
    return this.#index.find(bytes);
  }

  /**
   * truncate forgets the transactions from index `count` on (a fork replaces the top). Their bytes stay in the arena,
   * unreachable: records read before still hold views of them, and forks are rare.
   */
  truncate(count: number): void {
    if (count >= this.#count) return;
    this.#count = count;
    const keep = count === 0 ? 0 : this.#block[count - 1]! + 1;
    this.#blocks.length = keep;
    this.#index.truncate(count);
  }

  #reserve(n: number): void {
    this.#hashes = grown(this.#hashes, n * HASH);
    this.#at = grown(this.#at, n);
    this.#length = grown(this.#length, n);
    this.#infoAt = grown(this.#infoAt, n);
    this.#infoLength = grown(this.#infoLength, n);
    this.#flags = grown(this.#flags, n);
    this.#block = grown(this.#block, n);
  }
}

/**
 * TxIndex is the chain's transactions by hash, pending and sealed: a map of the mempool's records beside the store, read
 * as one map.
 */
export class TxIndex implements ReadonlyMap<string, TxRecord> {
  readonly store = new TxStore();
  readonly #pending = new Map<string, TxRecord>();

  get size(): number {
    return this.store.size + this.#pending.size;
  }

  get(hash: string): TxRecord | undefined {
    const pending = this.#pending.get(hash);
    if (pending) return pending;
    const i = this.store.indexOf(hash);
    return i < 0 ? undefined : this.store.record(i);
  }

  has(hash: string): boolean {
    return this.#pending.has(hash) || this.store.indexOf(hash) >= 0;
  }

  /** addPending records a transaction admitted to the mempool. */
  addPending(record: TxRecord): void {
    this.#pending.set(record.hash, record);
  }

  /** dropPending forgets a mempool transaction (no longer valid, or now sealed). */
  dropPending(hash: string): void {
    this.#pending.delete(hash);
  }

  *entries(): MapIterator<[string, TxRecord]> {
    for (let i = 0; i < this.store.size; i++) {
      const r = this.store.record(i);
      yield [r.hash, r];
    }
    yield* this.#pending.entries();
  }

  *keys(): MapIterator<string> {
    for (const [hash] of this.entries()) yield hash;
  }

  *values(): MapIterator<TxRecord> {
    for (const [, r] of this.entries()) yield r;
  }

  forEach(fn: (value: TxRecord, key: string, map: ReadonlyMap<string, TxRecord>) => void): void {
    for (const [hash, r] of this.entries()) fn(r, hash, this);
  }

  [Symbol.iterator](): MapIterator<[string, TxRecord]> {
    return this.entries();
  }
}
