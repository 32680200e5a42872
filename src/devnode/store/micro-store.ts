/**
 * @module The devnode's micro blocks, packed: each one's hashes, signature, time, height and transactions as a record
 * of fixed width in large byte chunks, found by hash through an open-addressing table, with one small object per block
 * (its index and its key block) and no strings. A chain of a tenth of mainnet has a million micro blocks; as objects
 * (a header of six encoded hashes, a closure, a map entry) each cost about a kilobyte of heap, packed about 230 bytes.
 * The header is rebuilt from the record when asked for, as a node reads its database.
 */
import { decode, encode } from '../../chain/encoding.ts';
import type { MicroHeader } from './blocks.ts';
import { HashIndex } from './hash-index.ts';
import { RecordChunks } from './record-chunks.ts';
import type { TxRecord, TxStore } from './tx-store.ts';

/** MicroBlock is a micro block with its transactions. */
export interface MicroBlock {
  readonly kind: 'micro';
  readonly header: MicroHeader;
  readonly hash: string;
  /** the header's height, without rebuilding the header */
  readonly height: number;
  /** its transactions, read back from the chain's store (a new array of new records each time) */
  readonly txs: readonly TxRecord[];
}

/** KeyBlockOf is what a micro block reads of its generation's key block: its hash is the micro block's prev_key_hash. */
interface KeyBlockOf {
  readonly hash: string;
  readonly micro: readonly MicroBlock[];
}

/** MicroFields are a sealed micro block's own fields (the previous hashes come from its key block and neighbour). */
export interface MicroFields {
  readonly hash: Uint8Array;
  readonly stateHash: Uint8Array;
  readonly txsHash: Uint8Array;
  readonly signature: Uint8Array;
  readonly time: number;
  readonly height: number;
  readonly version: number;
  /** the index of its first transaction in the chain's TxStore, and how many it has */
  readonly txStart: number;
  readonly txCount: number;
}

const HASH = 32;
// a record's layout: hash, state hash, txs hash, signature, then time (f64), height, first tx, tx count (u32), version
const STATE_AT = HASH;
const TXS_AT = 2 * HASH;
const SIGNATURE_AT = 3 * HASH;
const TIME_AT = SIGNATURE_AT + 64;
const HEIGHT_AT = TIME_AT + 8;
const TX_START_AT = HEIGHT_AT + 4;
const TX_COUNT_AT = TX_START_AT + 4;
const VERSION_AT = TX_COUNT_AT + 4;
const RECORD = VERSION_AT + 1;
/** records per chunk: a chunk of about 12 MB, allocated as the chain grows (no array doubled and copied) */
const PER_CHUNK = 1 << 16;

/** PackedMicroBlock is micro block `index` of a store; everything but its key block is read from the record. */
class PackedMicroBlock implements MicroBlock {
  readonly #store: MicroStore;
  readonly #index: number;
  readonly #key: KeyBlockOf;

  constructor(store: MicroStore, index: number, key: KeyBlockOf) {
    this.#store = store;
    this.#index = index;
    this.#key = key;
  }

  get kind(): 'micro' {
    return 'micro';
  }

  get index(): number {
    return this.#index;
  }

  get hash(): string {
    return encode('mh', this.#store.bytes(this.#index, 0, HASH));
  }

  get height(): number {
    return this.#store.u32(this.#index, HEIGHT_AT);
  }

  get header(): MicroHeader {
    const store = this.#store;
    const i = this.#index;
    const position = this.#key.micro.indexOf(this);
    const prev = position > 0 ? this.#key.micro[position - 1]!.hash : this.#key.hash;
    return {
      height: store.u32(i, HEIGHT_AT),
      prevHash: prev,
      prevKeyHash: this.#key.hash,
      stateHash: encode('bs', store.bytes(i, STATE_AT, HASH)),
      txsHash: encode('bx', store.bytes(i, TXS_AT, HASH)),
      time: store.time(i),
      version: store.bytes(i, VERSION_AT, 1)[0]!,
      signature: encode('sg', store.bytes(i, SIGNATURE_AT, 64)),
    };
  }

  get txs(): readonly TxRecord[] {
    return this.#store.txs.range(this.#store.u32(this.#index, TX_START_AT), this.#store.u32(this.#index, TX_COUNT_AT));
  }
}

/** MicroStore holds the sealed micro blocks in chain order, found by index or by hash. */
export class MicroStore {
  readonly txs: TxStore;
  readonly #records = new RecordChunks(RECORD, PER_CHUNK);
  readonly #blocks: PackedMicroBlock[] = [];
  readonly #index = new HashIndex(
    (i) => this.#records.chunk(i).readUInt32LE(this.#records.offset(i)),
    (i) => this.bytes(i, 0, HASH),
  );

  constructor(txs: TxStore) {
    this.txs = txs;
  }

  get size(): number {
    return this.#blocks.length;
  }

  /** append seals a micro block of key block `key` (its last, after those appended before); the block. */
  append(fields: MicroFields, key: KeyBlockOf): MicroBlock {
    const i = this.#blocks.length;
    this.#records.reserve(i);
    const chunk = this.#records.chunk(i);
    const at = this.#records.offset(i);
    chunk.set(fields.hash, at);
    chunk.set(fields.stateHash, at + STATE_AT);
    chunk.set(fields.txsHash, at + TXS_AT);
    chunk.set(fields.signature, at + SIGNATURE_AT);
    chunk.writeDoubleLE(fields.time, at + TIME_AT);
    chunk.writeUInt32LE(fields.height, at + HEIGHT_AT);
    chunk.writeUInt32LE(fields.txStart, at + TX_START_AT);
    chunk.writeUInt32LE(fields.txCount, at + TX_COUNT_AT);
    chunk[at + VERSION_AT] = fields.version;
    const block = new PackedMicroBlock(this, i, key);
    this.#blocks.push(block);
    this.#index.add();
    return block;
  }

  /** get is the micro block whose `mh_` hash is `hash`; undefined when the store has none. */
  get(hash: string): MicroBlock | undefined {
    let bytes: Uint8Array;
    try {
      const decoded = decode(hash);
      if (decoded.prefix !== 'mh' || decoded.bytes.length !== HASH) return undefined;
      bytes = decoded.bytes;
    } catch {
      return undefined;
    }
    const i = this.#index.find(bytes);
    return i < 0 ? undefined : this.#blocks[i];
  }

  /** hashBytes and stateHashBytes are a block's hash and state hash (views: a record is never rewritten but by a fork). */
  hashBytes(block: MicroBlock): Uint8Array {
    return this.bytes(this.#indexOf(block), 0, HASH);
  }

  stateHashBytes(block: MicroBlock): Uint8Array {
    return this.bytes(this.#indexOf(block), STATE_AT, HASH);
  }

  /** time is a block's time, without rebuilding its header. */
  timeOf(block: MicroBlock): number {
    return this.time(this.#indexOf(block));
  }

  /**
   * truncate forgets the blocks from index `count` on (a fork replaces the top). Their objects, if anyone still holds
   * them, read the records of the blocks appended after (forks are rare, and the chain reads what it needs first).
   */
  truncate(count: number): void {
    if (count >= this.#blocks.length) return;
    this.#blocks.length = count;
    this.#index.truncate(count);
  }

  /** bytes, u32 and time read record `i`'s field at `offset`. */
  bytes(i: number, offset: number, length: number): Uint8Array {
    return this.#records.view(i, offset, length);
  }

  u32(i: number, offset: number): number {
    return this.#records.chunk(i).readUInt32LE(this.#records.offset(i) + offset);
  }

  time(i: number): number {
    return this.#records.chunk(i).readDoubleLE(this.#records.offset(i) + TIME_AT);
  }

  #indexOf(block: MicroBlock): number {
    const i = (block as PackedMicroBlock).index;
    if (this.#blocks[i] !== block) throw new RangeError('a micro block of another store or forked away');
    return i;
  }
}
