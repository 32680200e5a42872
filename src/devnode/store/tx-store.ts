/**
 * @module The devnode's sealed transactions, packed: their signed bytes and infos in large byte chunks and their
 * hashes, positions and blocks in typed arrays, with no object per transaction. A chain of a tenth of mainnet holds
 * millions of transactions; as objects (the decoded fields, the infos, the hash as a string, a map entry) each cost
 * about 3 kB of heap, packed about 300 bytes. A transaction read is rebuilt from its bytes (TxRecord), as a node reads
 * its database.
 */
import { decode, encode, hash } from '../../chain/encoding.ts';
import type { Json } from '../../chain/json.ts';
import { schemaFor } from '../../chain/tx-schema.ts';
import { HashIndex, hashKey } from './hash-index.ts';
import { packJson, unpackJson } from './packed-json.ts';
import { RecordChunks } from './record-chunks.ts';
import { decodeSignedTx, decodeTx, type TxFields } from '../tx-codec.ts';

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
const EMPTY = new Uint8Array(0);
const GA_INFO = 1;
const CALL_INFO = 2;
/** the fields are kept serialised with the info: a type the shared codec does not know (made-up-tx.ts) */
const OWN_FIELDS = 4;

/** ByteArena appends byte strings into chunks; an offset names one (chunk × CHUNK + position). */
class ByteArena {
  readonly #chunks: Buffer[] = [];
  #used = CHUNK;

  /** append writes `bytes` and `more` after them into one chunk; the offset of the first. */
  append(bytes: Uint8Array, more: Uint8Array = EMPTY): number {
    const length = bytes.length + more.length;
    if (length > CHUNK) throw new RangeError(`a sealed transaction of ${length} bytes`);
    if (this.#used + length > CHUNK) {
      this.#chunks.push(Buffer.allocUnsafe(CHUNK));
      this.#used = 0;
    }
    const at = (this.#chunks.length - 1) * CHUNK + this.#used;
    const chunk = this.#chunks.at(-1)!;
    chunk.set(bytes, this.#used);
    chunk.set(more, this.#used + bytes.length);
    this.#used += length;
    return at;
  }

  /** view is the bytes at `offset` (not copied: an arena never rewrites what it holds). */
  view(offset: number, length: number): Uint8Array {
    const chunk = this.#chunks[Math.floor(offset / CHUNK)]!;
    const at = offset % CHUNK;
    return chunk.subarray(at, at + length);
  }
}

/** SealedTx is a transaction read back from the store: its fields are decoded when first asked for. */
class SealedTx implements TxRecord {
  readonly signedBytes: Uint8Array;
  json?: string;
  #block: SealedBlock;
  #blockHash: string | undefined;
  #hash: string | undefined;
  #hashBytes: Uint8Array | undefined;
  #tx: TxFields | undefined;
  /**
   * the info and, for a type the codec does not know, the fields, read when first asked for (a replay needs neither),
   * given the fields read from the signed bytes (its context, infoContext) or, with its own fields, none
   */
  #kept: ((fields: TxFields | undefined) => unknown) | undefined;
  readonly #flags: number;
  #callInfo: Info | undefined;
  #gaInfo: Info | undefined;

  constructor(
    signedBytes: Uint8Array,
    block: SealedBlock,
    flags: number,
    kept?: (fields: TxFields | undefined) => unknown,
    blockHash?: string,
  ) {
    this.signedBytes = signedBytes;
    this.#block = block;
    this.#blockHash = blockHash;
    this.#flags = flags;
    this.#kept = kept;
  }

  /** hashBytes is the hash of the signed bytes, computed (the store keeps four of its bytes, for its table) */
  get hashBytes(): Uint8Array {
    this.#hashBytes ??= hash(this.signedBytes);
    return this.#hashBytes;
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
    this.#tx ??= signedFields(this.signedBytes);
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
    const kept = this.#kept;
    if (!kept) return;
    this.#kept = undefined;
    let info: Info | undefined;
    if ((this.#flags & OWN_FIELDS) !== 0) {
      let fields: TxFields;
      [fields, info] = kept(undefined) as [TxFields, Info | undefined];
      this.#tx ??= fields;
    } else {
      this.#tx ??= signedFields(this.signedBytes);
      info = kept(this.#tx) as Info;
    }
    if ((this.#flags & GA_INFO) !== 0) this.#gaInfo = info;
    else if ((this.#flags & CALL_INFO) !== 0) this.#callInfo = info;
  }
}

/** signedFields are the fields of a signed transaction, read from its bytes. */
const signedFields = (signedBytes: Uint8Array): TxFields => decodeTx(decodeSignedTx(signedBytes).txBytes);

/**
 * infoContext is what a sealed transaction's packed info refers to (packed-json.ts): its block's height and the values
 * of its fields read from its signed bytes, both ends reading them alike (a builder's fields may differ in form). A
 * call info repeats the caller, the contract, the nonce and the gas price: a reference each saved 200 MB of buffers at
 * a tenth of mainnet (2 533 → 2 331 MB).
 */
function infoContext(height: number, fields?: TxFields): Json[] {
  const context: Json[] = [height];
  const walk = (value: Json): void => {
    if (value === null || typeof value !== 'object') context.push(value);
    else for (const item of Array.isArray(value) ? value : Object.values(value)) walk(item);
  };
  if (fields) walk(fields);
  return context;
}

// a transaction's record: its hash's first four bytes (its slot in the table), where its bytes start in the arena (six bytes), the lengths of its signed bytes and
// of its packed info right after them, its flags and its block (an index into the store's list)
const KEY = 4;
const AT = KEY;
const LENGTH_AT = AT + 6;
const INFO_LENGTH_AT = LENGTH_AT + 4;
const FLAGS_AT = INFO_LENGTH_AT + 4;
const BLOCK_AT = FLAGS_AT + 1;
const RECORD = BLOCK_AT + 4;
/** records per chunk: a chunk of about 13 MB */
const PER_CHUNK = 1 << 18;

/** TxStore holds the sealed transactions in the order they were sealed, found by index or by hash. */
export class TxStore {
  readonly #bytes = new ByteArena();
  readonly #records = new RecordChunks(RECORD, PER_CHUNK);
  #count = 0;
  readonly #blocks: SealedBlock[] = [];
  readonly #index = new HashIndex(
    (i) => this.#records.chunk(i).readUInt32LE(this.#records.offset(i)),
    (i) => this.record(i).hashBytes,
  );

  get size(): number {
    return this.#count;
  }

  /** append seals a transaction into `block` (which must be the newest block or a newer one); its index. */
  append(record: TxRecord, block: SealedBlock): number {
    const i = this.#count;
    let flags = schemaFor(String(record.tx.type), Number(record.tx.version)) ? 0 : OWN_FIELDS;
    const info = record.gaInfo ?? record.callInfo;
    if (info) flags |= record.gaInfo ? GA_INFO : CALL_INFO;
    const infoBytes =
      flags === 0
        ? undefined
        : (flags & OWN_FIELDS) !== 0
          ? packJson([record.tx, info ?? null], infoContext(block.height))
          : packJson(info!, infoContext(block.height, signedFields(record.signedBytes)));
    const at = this.#bytes.append(record.signedBytes, infoBytes);
    if (this.#blocks.at(-1) !== block) this.#blocks.push(block);
    this.#records.reserve(i);
    const chunk = this.#records.chunk(i);
    const offset = this.#records.offset(i);
    chunk.writeUInt32LE(hashKey(record.hashBytes), offset);
    chunk.writeUIntLE(at, offset + AT, 6);
    chunk.writeUInt32LE(record.signedBytes.length, offset + LENGTH_AT);
    chunk.writeUInt32LE(infoBytes?.length ?? 0, offset + INFO_LENGTH_AT);
    chunk[offset + FLAGS_AT] = flags;
    chunk.writeUInt32LE(this.#blocks.length - 1, offset + BLOCK_AT);
    this.#count = i + 1;
    this.#index.add();
    return i;
  }

  /**
   * record is transaction `i` as a TxRecord (a new object each time); `blockHash`, when the caller has it, its block's
   * hash (encoded again at each read otherwise).
   */
  record(i: number, blockHash?: string): TxRecord {
    if (!(i >= 0 && i < this.#count)) throw new RangeError(`no sealed transaction ${i}`);
    const chunk = this.#records.chunk(i);
    const offset = this.#records.offset(i);
    const flags = chunk[offset + FLAGS_AT]!;
    const block = this.#blocks[chunk.readUInt32LE(offset + BLOCK_AT)]!;
    const at = chunk.readUIntLE(offset + AT, 6);
    const length = chunk.readUInt32LE(offset + LENGTH_AT);
    const infoLength = chunk.readUInt32LE(offset + INFO_LENGTH_AT);
    const bytes = this.#bytes.view(at, length);
    const kept =
      flags === 0
        ? undefined
        : (fields: TxFields | undefined) =>
            unpackJson(this.#bytes.view(at + length, infoLength), infoContext(block.height, fields));
    return new SealedTx(bytes, block, flags, kept, blockHash);
  }

  /** range is `count` transactions of one micro block from index `start` (its hash encoded once for them all). */
  range(start: number, count: number): TxRecord[] {
    const blockHash = count > 1 ? this.record(start).blockHash : undefined;
    return Array.from({ length: count }, (_, k) => this.record(start + k, blockHash));
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
    const keep =
      count === 0 ? 0 : this.#records.chunk(count - 1).readUInt32LE(this.#records.offset(count - 1) + BLOCK_AT) + 1;
    this.#blocks.length = keep;
    this.#index.truncate(count);
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
