/** @module The devnode's chain: blocks, transactions, mempool, mining and forks over the world state. */
import { randomBytes } from 'node:crypto';
import { encode, decode, hash, reprefix } from '../chain/encoding.ts';
import { KEY_BLOCK_REWARD } from './rules/fees.ts';
import { recordRewardFees } from './rules/reward-fees.ts';
import {
  PROTOCOL_VERSION,
  keyBlockHash,
  packedMicroHeaderBytes,
  type KeyHeader,
  type PackedMicroHeader,
} from './store/blocks.ts';
import { signBytes, unsignedBy, type KeyPair } from './keys.ts';
import { applyHardFork, CERES_ONLY, ProtocolSchedule, type DevnodeHardFork } from './rules/hard-forks.ts';
import { TxKnown, TxRejected, applyTx, endAuctions, signers, type ApplyContext } from './rules/apply.ts';
import { commitState, copyState, foldState, newState, ownSize, type WorldState } from './store/state.ts';
import { AccountTrail, blockKey, type AccountEntry } from './store/account-trail.ts';
import { decodeSignedTx, decodeTx, encodeTx, type TxFields } from './tx-codec.ts';
import { TxIndex, type TxRecord } from './store/tx-store.ts';
import { MicroStore, type MicroBlock } from './store/micro-store.ts';

export type { TxRecord } from './store/tx-store.ts';
export type { MicroBlock } from './store/micro-store.ts';
import { idBytes } from '../chain/id-cache.ts';
import type { Hyperchain } from './hyperchain/consensus.ts';
import { EOE_FLAG, HOLE_FLAG, hcFlags, keyTarget } from './contracts/hc-schedule.ts';

/** KeyBlock is a key block and the micro blocks of its generation. */
export interface KeyBlock {
  readonly kind: 'key';
  readonly header: KeyHeader;
  readonly hash: string;
  readonly micro: MicroBlock[];
}

/** ChainOptions fixes what the chain is made of: its network, miner key, beneficiary and genesis. */
export interface ChainOptions {
  readonly networkId: string;
  readonly miner: KeyPair;
  readonly beneficiary: string;
  readonly genesisAccounts: readonly { readonly address: string; readonly balance: bigint }[];
  readonly genesisTime: number;
  /** the protocol schedule and its hard forks; Ceres from genesis when absent */
  readonly hardForks?: readonly DevnodeHardFork[];
  /** a hyperchain's consensus (hyperchain/consensus.ts): leaders, holes, epochs, rewards into the stakes */
  readonly hyperchain?: Hyperchain;
  /** how many epoch ends a hyperchain keeps the state of (EPOCH_ENDS_KEPT when absent; 0: none, every read rebuilds) */
  readonly epochEndsKept?: number;
  /** the committed states kept as the chain grows (CHECKPOINTS when absent; a spacing of 0: none, reads rebuild from genesis) */
  readonly checkpoints?: Checkpoints;
  /** how many key blocks apart a replay to a past block keeps waypoints (WAYPOINT_SPACING when absent; 0: none) */
  readonly waypointSpacing?: number;
}

/** Checkpoints: a committed state is kept every `spacing` key blocks, at most `kept` of them (the spacing doubling). */
export interface Checkpoints {
  readonly spacing: number;
  readonly kept: number;
}

/**
 * CHECKPOINTS: the committed state is kept as the chain grows, first every 256 key blocks; past 64 kept, every second
 * one is folded into the one after it and the spacing doubles, so they thin out evenly (at a tenth of mainnet, 114 000
 * key blocks, one every 2 048). A read at a past block, a dry-run on an old block and a fork then replay at most the
 * spacing's blocks from the nearest one below, where they replayed the chain from genesis: minutes at that size on
 * the devnode's one thread, every other answer waiting (a node reads its state trees at the block). Each kept state is
 * a layer of the writes since the one before and the committed state a layer over the newest: together they hold what
 * one state holds, plus the values written again in a later span.
 */
export const CHECKPOINTS: Checkpoints = { spacing: 256, kept: 64 };

/** KeyBlockFields lets a caller (pool manager, generator, fork) choose a key block's mined fields. */
export interface KeyBlockFields {
  nonce?: bigint;
  pow?: readonly number[];
  time?: number;
  beneficiary?: string;
  miner?: string;
  info?: string;
  /** on a hyperchain: the scheduled leader produced nothing (the block is a hole, made by the next leader) */
  hole?: boolean;
}

const EMPTY_CB = encode('cb', new Uint8Array(0));
const TARGET = 0x2100ffff;
const ZERO32 = new Uint8Array(32);

function randomNonce(): bigint {
  return randomBytes(8).readBigUInt64BE();
}

function randomPow(): number[] {
  const bytes = randomBytes(42 * 4);
  return Array.from({ length: 42 }, (_, i) => bytes.readUInt32BE(i * 4));
}

/** QueryExpiry lists the oracle queries that expire at a height (refunded by the key block after their ttl). */
type QueryExpiry = Map<number, string[]>;

/**
 * HISTORY_KEPT past states stay rebuilt: a client reading at one block asks many times, and a middleware reads a
 * batch's epoch ends at once (tens of them, each in two or three rounds): fewer kept, and each round rebuilt them all.
 */
const HISTORY_KEPT = 32;

/**
 * HISTORY_VALUES bounds the values those states hold in their own layers, together (about 300 bytes of heap a value,
 * measured: some 75 MB). A state rebuilt from a checkpoint held the writes since it, at a tenth of mainnet up to
 * 2 048 key blocks' worth (about 19 000 values): 32 of them took 182 MB there (a dozen fit the bound; one past
 * MAX_LAYERS still holds that many, the others the writes since their waypoint). A reader
 * going block after block leaves layers of a batch's writes, and a hyperchain's epoch reads states of a few values:
 * the count bounds those. The least recently used goes first; a state another one reads through stays alive until that one goes
 * too (MAX_LAYERS deep at most).
 */
const HISTORY_VALUES = 1 << 18;

/**
 * WAYPOINT_SPACING: a replay to a past block keeps the state after every key block whose height it divides. The
 * populator reads inside ranges it read before (its balances bisect a range, an internal call is replayed at the block
 * before it, the next batch's reads interleave with this one's): each such read started from the kept state nearest
 * below, often the checkpoint, and replayed up to a checkpoint spacing (2 048 key blocks at a tenth of mainnet) where
 * a node reads its trees at the block. A waypoint is a layer the replayed state reads through anyway: keeping it costs
 * only the values written again in the next span, and a read near it replays at most this many key blocks.
 */
const WAYPOINT_SPACING = 64;

/**
 * WAYPOINTS_KEPT and WAYPOINT_VALUES bound the waypoints kept, by count and by the values in their own layers (as
 * HISTORY_VALUES): 256 cover 16 384 key blocks, 8 checkpoint spacings at a tenth of mainnet, around where it is read.
 */
const WAYPOINTS_KEPT = 256;
const WAYPOINT_VALUES = 1 << 18;

/**
 * TRAIL_SPANS and TRAIL_VALUES bound what the account trail keeps (store/account-trail.ts): the replays to past blocks,
 * and the accounts and contracts they wrote block by block with the values of the kept states they started from (as
 * HISTORY_VALUES). A catch-up stretch of the balances, 100 000 transactions, writes about 250 000: its bisection's
 * reads, hundreds of blocks of it, fall in the trail of the replays its first reads made.
 */
const TRAIL_SPANS = 1024;
const TRAIL_VALUES = 1 << 19;

/**
 * MAX_LAYERS bounds how many rebuilt states one is layered over above its base (a checkpoint, an epoch end or a state
 * of its own): it holds only the writes of the blocks replayed since the nearest kept state below, which it reads
 * through; past the bound its layers above the base are copied into one. Each one a whole copy (a populator reads
 * balances after every batch: a new state each time), the kept states were HISTORY_KEPT whole world states, a gigabyte
 * while serving a tenth of mainnet.
 */
const MAX_LAYERS = 32;

/**
 * EPOCH_ENDS_KEPT bounds the states a hyperchain keeps at the key blocks that end an epoch (where a middleware reads
 * each epoch's consensus): past it every second one is dropped, so they thin out evenly as the chain grows. A state
 * costs about 0.1 MB on a few thousand generations: 256 keep a bench's chain whole (its dry-runs rebuild nothing).
 */
export const EPOCH_ENDS_KEPT = 256;

/** Where a block is on the chain: its height and its index among the generation's micro blocks (−1: the key block). */
interface BlockPosition {
  readonly height: number;
  readonly micro: number;
}

const before = (a: BlockPosition, b: BlockPosition): boolean =>
  a.height < b.height || (a.height === b.height && a.micro < b.micro);

/** A state kept for reads at a past block, never written again, with the oracle queries due for refund after it. */
interface KeptState {
  readonly at: BlockPosition;
  readonly state: WorldState;
  readonly expiry: QueryExpiry;
  /** the kept state of a layer of its own, a checkpoint or an epoch end below it that it reads through (or itself) */
  readonly base: WorldState;
  /** how many layers it has above `base` */
  readonly layers: number;
}

const copyExpiry = (expiry: QueryExpiry): QueryExpiry =>
  new Map([...expiry].map(([height, ids]) => [height, [...ids]]));

function indexQuery(expiry: QueryExpiry, query: { id: string; expires: number }): void {
  const list = expiry.get(query.expires + 1) ?? [];
  list.push(query.id);
  expiry.set(query.expires + 1, list);
}

/** Chain holds the blocks and the committed state; `pending` is the state with the mempool applied. */
export class Chain {
  readonly options: ChainOptions;
  readonly schedule: ProtocolSchedule;
  readonly keyBlocks: KeyBlock[] = [];
  readonly #keyBlocksByHash = new Map<string, KeyBlock>();
  /** every transaction by hash: the sealed ones packed (tx-store.ts), the mempool's as records */
  readonly txs = new TxIndex();
  /** the micro blocks, packed (micro-store.ts) */
  readonly #micro = new MicroStore(this.txs.store);
  /** blocks finds a key or micro block by its hash */
  readonly blocks = {
    get: (hash: string): KeyBlock | MicroBlock | undefined => this.#keyBlocksByHash.get(hash) ?? this.#micro.get(hash),
  };
  mempool: TxRecord[] = [];
  state: WorldState = newState();
  pending: WorldState = newState(this.state);
  #queryExpiry: QueryExpiry = new Map();
  /** states rebuilt for reads at a past block, by block hash (a hash fixes the history below it) */
  readonly #history = new Map<string, KeptState>();
  /** states a replay to a past block passed (#rebuild), by key block hash: where the next reads near them start */
  readonly #waypoints = new Map<string, KeptState>();
  /** the accounts each replay to a past block wrote in each block it passed: reads of one account there replay nothing */
  readonly #trail = new AccountTrail(TRAIL_SPANS, TRAIL_VALUES);
  /**
   * on a hyperchain, the states at the key blocks that end an epoch, taken as the chain grows (by hash, in height
   * order): a read at an old boundary costs no replay, a read near one the blocks after it, as a node's state trees
   */
  readonly #epochEnds = new Map<string, KeptState>();
  /** the committed states kept as the chain grows (CHECKPOINTS), by hash in height order: each a layer over the one before */
  readonly #checkpoints = new Map<string, KeptState>();
  /** how many key blocks apart checkpoints are kept now (0: none): the options' spacing, doubled at each thinning */
  #checkpointSpacing: number;
  /** queries asked by mempool transactions, indexed for refunds when their micro block is sealed */
  #pendingQueries: { id: string; expires: number }[] = [];

  constructor(options: ChainOptions) {
    this.options = options;
    this.#checkpointSpacing = (options.checkpoints ?? CHECKPOINTS).spacing;
    this.schedule = new ProtocolSchedule(options.hardForks ?? CERES_ONLY);
    this.#seedGenesis(this.state);
    const genesis: KeyHeader = {
      height: 0,
      prevHash: encode('kh', ZERO32),
      prevKeyHash: encode('kh', ZERO32),
      stateHash: encode('bs', hash(Buffer.from(options.networkId))),
      miner: options.miner.address,
      beneficiary: options.beneficiary,
      target: options.hyperchain ? 0 : TARGET,
      pow: new Array(42).fill(0),
      nonce: 0n,
      time: options.genesisTime,
      version: this.schedule.protocolAt(0),
      info: EMPTY_CB,
      ...(options.hyperchain ? { hcFlags: 0 } : {}),
    };
    this.#pushKeyBlock(genesis);
  }

  /** height is the height of the top generation. */
  get height(): number {
    return this.keyBlocks.length - 1;
  }

  /** top is the newest key block. */
  get top(): KeyBlock {
    return this.keyBlocks[this.keyBlocks.length - 1]!;
  }

  /** topHash is the hash of the newest block, key or micro. */
  get topHash(): string {
    return this.top.micro.at(-1)?.hash ?? this.top.hash;
  }

  #topTime(): number {
    const micro = this.top.micro.at(-1);
    return micro ? this.#micro.timeOf(micro) : this.top.header.time;
  }

  #now(): number {
    return Math.max(Date.now(), this.#topTime() + 1);
  }

  #seedGenesis(state: WorldState): void {
    for (const a of this.options.genesisAccounts) state.accounts.set(a.address, { balance: a.balance, nonce: 0 });
    this.options.hyperchain?.genesis(state);
  }

  /**
   * txHeight is the height of the transactions in the micro blocks after key block `keyHeight`: the next height on a
   * hyperchain, whose micro blocks of a height come before its key block; the key block's own elsewhere.
   */
  txHeight(keyHeight: number): number {
    return this.options.hyperchain ? keyHeight + 1 : keyHeight;
  }

  /** #context is where a transaction of the micro blocks after key block `keyHeight` lands. */
  #context(keyHeight: number, record: TxRecord): ApplyContext {
    return { height: this.txHeight(keyHeight), generation: keyHeight, txHash: record.hash };
  }

  /**
   * submit checks a signed transaction (encoding, signatures, the seed's rules against the
   * pending state) and puts it in the mempool. Throws TxRejected or a codec error.
   */
  submit(signedBytes: Uint8Array, verify = true): TxRecord {
    const { signatures, txBytes } = decodeSignedTx(signedBytes);
    const tx = decodeTx(txBytes);
    if (verify) this.#verifySignatures(tx, txBytes, signatures);
    return this.admit(signedBytes, tx);
  }

  /**
   * #verifySignatures checks the signers of a tx and, in a PayingForTx, the inner tx's own signers (over
   * `network-inner_tx`: aec_paying_for_tx:signers verifies the inner signed tx by its aetx:signers, a GAMetaTx's none).
   */
  #verifySignatures(tx: TxFields, txBytes: Uint8Array, signatures: Uint8Array[]): void {
    const network = this.options.networkId;
    const missing = unsignedBy(network, signers(tx, this.pending), txBytes, signatures);
    if (missing) throw new TxRejected(`invalid signature: no valid signature by ${missing} for network ${network}`);
    if (tx.type !== 'PayingForTx' || typeof tx.tx !== 'object' || tx.tx === null || Array.isArray(tx.tx)) return;
    const inner = tx.tx.tx as TxFields;
    const innerSignatures = (Array.isArray(tx.tx.signatures) ? tx.tx.signatures : []).map(
      (s) => decode(String(s)).bytes,
    );
    const innerMissing = unsignedBy(
      `${network}-inner_tx`,
      signers(inner, this.pending),
      encodeTx(inner),
      innerSignatures,
    );
    if (innerMissing) throw new TxRejected(`invalid signature: the inner transaction is not signed by ${innerMissing}`);
  }

  /** admit puts an already decoded (and, by the caller, trusted) signed transaction in the mempool. */
  admit(signedBytes: Uint8Array, tx: TxFields): TxRecord {
    const protocol = this.schedule.protocolAt(this.height);
    if (protocol < PROTOCOL_VERSION)
      throw new TxRejected(
        `the devnode runs protocol ${PROTOCOL_VERSION}'s rules only: protocol ${protocol} takes no transactions`,
      );
    const hashBytes = hash(signedBytes);
    const hashValue = encode('th', hashBytes);
    if (this.txs.has(hashValue)) throw new TxKnown(`transaction ${hashValue} is already known`);
    const record: TxRecord = { hash: hashValue, hashBytes, signedBytes, tx, blockHash: undefined, blockHeight: -1 };
    this.#applyPending(record);
    this.txs.addPending(record);
    return record;
  }

  /**
   * #applyPending applies a transaction to `pending` (the committed state plus the mempool, at
   * the current height) and queues it. Sealing a micro block then commits `pending` as it is.
   */
  #applyPending(record: TxRecord): void {
    const effect = applyTx(this.pending, record.tx, this.#context(this.height, record));
    record.callInfo = effect.callInfo;
    record.gaInfo = effect.gaInfo;
    if (effect.query) this.#pendingQueries.push(effect.query);
    this.mempool.push(record);
  }

  /** #resetPending rebuilds `pending` over a changed state, dropping mempool transactions no longer valid. */
  #resetPending(): void {
    const waiting = this.mempool;
    this.mempool = [];
    this.#pendingQueries = [];
    this.pending = newState(this.state);
    for (const record of waiting) {
      try {
        this.#applyPending(record);
      } catch (err) {
        if (!(err instanceof TxRejected)) throw err;
        this.txs.dropPending(record.hash);
      }
    }
  }

  /**
   * #include applies a transaction to the committed state; false (and no change) when it is no longer valid.
   * `record` false replays history (stateAfter): the transaction's record keeps its infos.
   */
  #include(state: WorldState, record: TxRecord, height: number, expiry: QueryExpiry, keep = true): boolean {
    try {
      const effect = applyTx(state, record.tx, this.#context(height, record));
      if (keep) {
        record.callInfo = effect.callInfo;
        record.gaInfo = effect.gaInfo;
      }
      if (effect.query) indexQuery(expiry, effect.query);
      return true;
    } catch (err) {
      if (err instanceof TxRejected) return false;
      throw err;
    }
  }

  /** #keyBlockEffects applies a hard fork due at the key block, pays the beneficiary, ends the auctions due and refunds the queries that expired unanswered. */
  #keyBlockEffects(state: WorldState, header: KeyHeader, expiry: QueryExpiry): void {
    if (header.height === 0) return;
    const fork = this.schedule.forkAt(header.height);
    if (fork) applyHardFork(state, fork);
    endAuctions(state, header.height);
    const hyperchain = this.options.hyperchain;
    if (hyperchain) {
      const fees = (this.keyBlocks[header.height - 1]?.micro ?? [])
        .flatMap((mb) => mb.txs)
        .reduce((sum, r) => sum + recordRewardFees(r), 0n);
      const hole = ((header.hcFlags ?? 0) & HOLE_FLAG) !== 0;
      hyperchain.keyBlock(state, {
        height: header.height,
        prevKeyHash: header.prevKeyHash,
        leader: header.beneficiary,
        hole,
        fees,
      });
    } else {
      const account = state.accounts.get(header.beneficiary) ?? { balance: 0n, nonce: 0 };
      state.accounts.set(header.beneficiary, { ...account, balance: account.balance + KEY_BLOCK_REWARD });
    }
    for (const id of expiry.get(header.height) ?? []) {
      const q = state.queries.get(id);
      if (!q || q.response !== undefined) continue;
      const sender = state.accounts.get(q.senderId) ?? { balance: 0n, nonce: 0 };
      state.accounts.set(q.senderId, { ...sender, balance: sender.balance + q.fee });
      state.queries.delete(id);
    }
    // a height passed is never read again, and each kept state copies the list: kept, it grew with the chain in each
    // (at a tenth of mainnet, tens of thousands of heights in each of a hundred kept states)
    expiry.delete(header.height);
  }

  #pushKeyBlock(header: KeyHeader): KeyBlock {
    const block: KeyBlock = { kind: 'key', header, hash: keyBlockHash(header), micro: [] };
    this.keyBlocks.push(block);
    this.#keyBlocksByHash.set(block.hash, block);
    this.#keyBlockEffects(this.state, header, this.#queryExpiry);
    if (((header.hcFlags ?? 0) & EOE_FLAG) !== 0) this.#keepEpochEnd(block);
    this.#keepCheckpoint(block);
    this.#resetPending();
    return block;
  }

  /**
   * #keepCheckpoint keeps the committed state after key block `block` when the spacing has passed since the last kept
   * one, and the chain goes on in a layer over it; past the bound, every second one counting back from the newest (which
   * stays) is folded into the one after it, and the spacing doubles.
   */
  #keepCheckpoint(block: KeyBlock): void {
    const height = block.header.height;
    const last = this.#lastCheckpoint();
    if (this.#checkpointSpacing === 0 || height - (last?.at.height ?? 0) < this.#checkpointSpacing) return;
    const state = this.state;
    const at = { height, micro: -1 };
    this.#checkpoints.set(block.hash, { at, state, expiry: copyExpiry(this.#queryExpiry), base: state, layers: 0 });
    this.state = newState(state);
    if (this.#checkpoints.size <= (this.options.checkpoints ?? CHECKPOINTS).kept) return;
    const kept = [...this.#checkpoints];
    for (let i = kept.length - 2; i >= 0; i -= 2) {
      foldState(kept[i + 1]![1].state);
      this.#checkpoints.delete(kept[i]![0]);
    }
    this.#checkpointSpacing *= 2;
  }

  /** #lastCheckpoint is the newest checkpoint (the map keeps them in height order). */
  #lastCheckpoint(): KeptState | undefined {
    return [...this.#checkpoints.values()].at(-1);
  }

  /** #keepEpochEnd keeps a copy of the state right after an epoch's last key block, thinning the kept ones past the bound. */
  #keepEpochEnd(block: KeyBlock): void {
    const bound = this.options.epochEndsKept ?? EPOCH_ENDS_KEPT;
    if (bound === 0) return;
    const at = { height: block.header.height, micro: -1 };
    const state = copyState(this.state);
    this.#epochEnds.set(block.hash, { at, state, expiry: copyExpiry(this.#queryExpiry), base: state, layers: 0 });
    if (this.#epochEnds.size <= bound) return;
    // every second one counting back from the newest, which stays: the spacing doubles
    const hashes = [...this.#epochEnds.keys()];
    for (const [i, hash] of hashes.entries()) if ((hashes.length - 1 - i) % 2 === 1) this.#epochEnds.delete(hash);
  }

  /** mineMicroBlock puts the mempool in a micro block (none when the mempool is empty). */
  mineMicroBlock(time?: number): MicroBlock | undefined {
    if (this.mempool.length === 0) return undefined;
    const records = this.mempool;
    commitState(this.pending);
    for (const query of this.#pendingQueries) indexQuery(this.#queryExpiry, query);
    this.mempool = [];
    this.#pendingQueries = [];
    this.pending = newState(this.state);
    return this.#sealMicroBlock(records, time ?? this.#now());
  }

  /**
   * sealEmptyMicroBlock adds a micro block with no transactions after the top one, as a node in dev mode emits them
   * (223 of a recorded real node's 440): the mempool must be empty, so nothing pending is left out of it.
   */
  sealEmptyMicroBlock(time?: number): MicroBlock {
    if (this.mempool.length > 0) throw new Error('an empty micro block with transactions pending');
    return this.#sealMicroBlock([], time ?? this.#now());
  }

  #sealMicroBlock(txs: TxRecord[], time: number): MicroBlock {
    const key = this.top;
    const prev = key.micro.at(-1);
    const keyHash = idBytes(key.hash);
    // an empty block's is the empty tree's root, as a node pads it (EMPTY_TXS_HASH): what says it holds none
    const txsHash = txs.length === 0 ? new Uint8Array(32) : hash(Buffer.concat(txs.map((t) => t.hashBytes)));
    const prevState = prev ? this.#micro.stateHashBytes(prev) : idBytes(key.header.stateHash);
    const unsigned: PackedMicroHeader = {
      height: this.txHeight(key.header.height),
      prevHash: prev ? this.#micro.hashBytes(prev) : keyHash,
      prevKeyHash: keyHash,
      stateHash: hash(Buffer.concat([prevState, txsHash])),
      txsHash,
      time,
      version: key.header.version,
    };
    const signature = signBytes(this.options.miner, packedMicroHeaderBytes(unsigned));
    const store = this.txs.store;
    const block = this.#micro.append(
      {
        ...unsigned,
        hash: hash(packedMicroHeaderBytes({ ...unsigned, signature })),
        signature,
        txStart: store.size,
        txCount: txs.length,
      },
      key,
    );
    for (const t of txs) {
      store.append(t, block);
      this.txs.dropPending(t.hash);
    }
    key.micro.push(block);
    return block;
  }

  /** candidate is the next key block without `nonce` and `pow` (the pool manager's pending block). */
  candidate(fields: KeyBlockFields = {}): KeyHeader {
    const prev = this.top.micro.at(-1) ?? this.top;
    if (this.options.hyperchain) return this.#hyperchainCandidate(prev, fields);
    return {
      height: this.height + 1,
      prevHash: prev.hash,
      prevKeyHash: this.top.hash,
      stateHash: this.#keyStateHash(prev),
      miner: fields.miner ?? this.options.miner.address,
      beneficiary: fields.beneficiary ?? this.options.beneficiary,
      target: TARGET,
      time: fields.time ?? this.#now(),
      version: this.schedule.protocolAt(this.height + 1),
      info: fields.info ?? EMPTY_CB,
    };
  }

  /**
   * #hyperchainCandidate is the next key block of a hyperchain: by its scheduled leader, or a hole (when asked and
   * no micro block of the height was made: the leader produced nothing) by the next slot's leader, with the target
   * and flags the node gives it; the end of an epoch is flagged EOE (the devnode's leaders always finalise it).
   */
  #hyperchainCandidate(prev: KeyBlock | MicroBlock, fields: KeyBlockFields): KeyHeader {
    const hyperchain = this.options.hyperchain!;
    const height = this.height + 1;
    const epoch = hyperchain.currentEpoch(this.state);
    const leader = epoch.schedule[height - epoch.first]!;
    const hole =
      fields.hole === true && this.top.micro.length === 0 && this.mempool.length === 0 && height < epoch.last;
    const producer = hole ? epoch.schedule[height + 1 - epoch.first]! : leader;
    const flags = { hole, eoe: !hole && height === epoch.last };
    return {
      height,
      prevHash: prev.hash,
      prevKeyHash: this.top.hash,
      stateHash: this.#keyStateHash(prev),
      miner: producer,
      beneficiary: producer,
      target: keyTarget(this.top.header.target, height, flags),
      time: fields.time ?? this.#now(),
      version: this.schedule.protocolAt(height),
      info: fields.info ?? EMPTY_CB,
      hcFlags: hcFlags(flags),
    };
  }

  /** #keyStateHash is the state hash of a key block after `prev` (the devnode's: a hash of the one before). */
  #keyStateHash(prev: KeyBlock | MicroBlock): string {
    const prevState = prev.kind === 'micro' ? this.#micro.stateHashBytes(prev) : idBytes(prev.header.stateHash);
    return encode('bs', hash(Buffer.concat([prevState, Buffer.from('key')])));
  }

  /** mineKeyBlock first seals the mempool in a micro block (not before a hole: its leader made none), then adds the next key block. */
  mineKeyBlock(fields: KeyBlockFields = {}): KeyBlock {
    // a hole's leader made no micro block; a hole the chain cannot have (an epoch's last block) is an ordinary block
    const isHole = ((this.candidate(fields).hcFlags ?? 0) & HOLE_FLAG) !== 0;
    if (!isHole) this.mineMicroBlock();
    const header = { ...this.candidate(fields), nonce: fields.nonce ?? randomNonce(), pow: fields.pow ?? randomPow() };
    return this.#pushKeyBlock(header);
  }

  /** acceptKeyBlock adds a key block mined elsewhere; it must extend the current top block. */
  acceptKeyBlock(header: KeyHeader): KeyBlock {
    if (header.height !== this.height + 1 || header.prevHash !== this.topHash || header.prevKeyHash !== this.top.hash) {
      throw new TxRejected('block does not extend the current top');
    }
    return this.#pushKeyBlock(header);
  }

  /**
   * fork replaces the top `depth` generations by new ones at the same heights: each new key
   * block's nonce is derived from the block it replaces (so forks are deterministic) and the
   * transactions of each old generation go into one micro block of the new one.
   */
  fork(depth: number): void {
    if (!Number.isInteger(depth) || depth < 1 || depth > this.height)
      throw new RangeError(`fork depth must be 1..${this.height}`);
    const base = this.height - depth;
    const removed = this.keyBlocks.splice(base + 1);
    // the removed generations' transactions are the store's last: read them, then the store forgets them
    const removedTxs = removed.map((kb) => kb.micro.flatMap((m) => m.txs));
    const removedTimes = removed.map((kb) => (kb.micro.length > 0 ? this.#micro.timeOf(kb.micro.at(-1)!) : undefined));
    this.txs.store.truncate(this.txs.store.size - removedTxs.reduce((n, txs) => n + txs.length, 0));
    this.#micro.truncate(this.#micro.size - removed.reduce((n, kb) => n + kb.micro.length, 0));
    const mempool = this.mempool;
    this.mempool = [];
    for (const kb of removed) {
      this.#keyBlocksByHash.delete(kb.hash);
      this.#epochEnds.delete(kb.hash);
      this.#checkpoints.delete(kb.hash);
    }
    this.#replay();
    for (const [k, old] of removed.entries()) {
      const seed = hash(Buffer.concat([decode(old.hash).bytes, Buffer.from('fork')]));
      const nonce = Buffer.from(seed).readBigUInt64BE(0);
      const pow = Array.from({ length: 42 }, (_, i) =>
        Buffer.from(hash(Buffer.concat([seed, Uint8Array.of(i)]))).readUInt32BE(0),
      );
      this.#pushKeyBlock({
        ...this.candidate({ time: old.header.time + 1, beneficiary: old.header.beneficiary }),
        nonce,
        pow,
      });
      const txs = removedTxs[k]!.filter((r) => this.#include(this.state, r, this.height, this.#queryExpiry));
      if (txs.length > 0) this.#sealMicroBlock(txs, (removedTimes[k] ?? old.header.time) + 2);
    }
    this.mempool = mempool;
    this.#resetPending();
  }

  /** #replay rebuilds the committed state through the kept blocks, from the newest checkpoint (or genesis). */
  #replay(): void {
    const { state, expiry } = this.#rebuild(undefined, this.#lastCheckpoint());
    this.state = state;
    this.#queryExpiry = expiry;
    this.#history.clear();
    this.#waypoints.clear();
    this.#trail.clear();
    this.#resetPending();
  }

  /**
   * stateAfter is the committed state right after block `blockHash` (key or micro; the node's state "at" a block),
   * kept for the next reads; undefined for a block not on the chain. Checkpoints and a hyperchain's epoch ends are kept
   * as the chain grows; another block's state is rebuilt from the nearest kept state below the block, or from genesis:
   * a client reading at each new batch's last block (the populator's balances) costs the blocks since its last read,
   * a read far from the last ones the blocks since a checkpoint, a read near a past replay's path the blocks since its
   * waypoint below (a node reads its state trees at the block).
   */
  stateAfter(blockHash: string): WorldState | undefined {
    const at = this.#position(blockHash);
    if (at === undefined) return undefined;
    if (blockHash === this.topHash) return this.state;
    let kept = this.#epochEnds.get(blockHash) ?? this.#checkpoints.get(blockHash);
    kept ??= this.#used(this.#history, blockHash) ?? this.#used(this.#waypoints, blockHash);
    if (!kept) {
      let below: [Map<string, KeptState>, string, KeptState] | undefined;
      for (const map of [this.#history, this.#waypoints, this.#epochEnds, this.#checkpoints])
        for (const [hash, k] of map)
          if (before(k.at, at) && (!below || before(below[2].at, k.at))) below = [map, hash, k];
      if (below) this.#used(below[0], below[1]);
      kept = { at, ...this.#rebuild(blockHash, below?.[2]) };
      this.#keep(this.#history, blockHash, kept, HISTORY_KEPT, HISTORY_VALUES);
    }
    return kept.state;
  }

  /**
   * accountAfter is account `id` (`ak_`) and its contract (under `ct_`) in the state after block `blockHash`, as
   * stateAfter holds them; undefined for a block not on the chain. A block a replay to a past block passed answers
   * from the accounts that replay wrote (store/account-trail.ts) without a replay of its own: a node reads an account
   * at any block in its state trees, and a middleware's bisection reads a few accounts at hundreds of blocks.
   */
  accountAfter(blockHash: string, id: string): AccountEntry | undefined {
    const at = this.#position(blockHash);
    if (at === undefined) return undefined;
    const contractId = reprefix(id, 'ct');
    const passed = this.#trail.read(blockKey(at.height, at.micro), id, contractId);
    if (passed) return passed;
    const state = this.stateAfter(blockHash)!;
    return { account: state.accounts.get(id), contract: state.contracts.get(contractId) };
  }

  /**
   * #used is the state kept at `hash` in `map` (history or waypoints), moved to the newest there: the populator comes
   * back to a range (several batches in flight, bisections inside one), so the least recently used goes first where the
   * oldest read went first.
   */
  #used(map: Map<string, KeptState>, hash: string): KeptState | undefined {
    const kept = map.get(hash);
    if (kept) {
      map.delete(hash);
      map.set(hash, kept);
    }
    return kept;
  }

  /** #position is where block `hash` is on the chain; undefined when it is not. */
  #position(hash: string): BlockPosition | undefined {
    const block = this.blocks.get(hash);
    if (!block) return undefined;
    if (block.kind === 'key') return { height: block.header.height, micro: -1 };
    // a micro block follows the key block of txHeight's inverse (on a hyperchain, the one before its own height's)
    const keyHeight = this.options.hyperchain ? block.height - 1 : block.height;
    return { height: keyHeight, micro: this.keyBlocks[keyHeight]!.micro.indexOf(block) };
  }

  /**
   * #rebuild replays the chain through block `upto` (every kept block when undefined) into a new state: from genesis,
   * or after the kept state `from`, in a layer over it (past MAX_LAYERS, over its base, holding a copy of its layers
   * above the base: a kept state is read by others and never changes). Replaying to a past block, it keeps the state
   * at each WAYPOINT_SPACING-th key block it passes as a waypoint (#keep) and goes on in a layer over it.
   */
  #rebuild(upto: string | undefined, from?: KeptState): Omit<KeptState, 'at'> {
    const layered = from !== undefined && from.layers < MAX_LAYERS;
    let state = !from ? newState() : layered ? newState(from.state) : copyState(from.state, from.base);
    let layers = !from ? 0 : layered ? from.layers + 1 : 1;
    const base = from?.base ?? state;
    const expiry = copyExpiry(from?.expiry ?? new Map());
    const keep = upto === undefined;
    const spacing = this.options.waypointSpacing ?? WAYPOINT_SPACING;
    // blocks compared as objects: a micro block's hash is encoded each time it is read
    const target = upto === undefined ? undefined : this.blocks.get(upto);
    if (!from) this.#seedGenesis(state);
    // a replay to a past block from a kept state leaves the accounts it wrote block by block (accountAfter)
    const trail = keep || !from ? undefined : this.#trail.start(from.state);
    const inBlock = (height: number, micro: number, apply: (s: WorldState) => void): void => {
      if (!trail) return apply(state);
      // the block's writes in a layer of their own, recorded, then moved into the replayed state
      const layer = newState(state);
      apply(layer);
      trail.block(blockKey(height, micro), layer, state);
      commitState(layer);
    };
    for (const kb of this.keyBlocks.slice(from?.at.height ?? 0)) {
      const height = kb.header.height;
      const continued = from !== undefined && height === from.at.height;
      if (!continued) inBlock(height, -1, (s) => this.#keyBlockEffects(s, kb.header, expiry));
      if (kb === target) break;
      if (!keep && !continued && spacing > 0 && kb.header.height % spacing === 0) {
        const at = { height: kb.header.height, micro: -1 };
        this.#keep(
          this.#waypoints,
          kb.hash,
          { at, state, expiry: copyExpiry(expiry), base, layers },
          WAYPOINTS_KEPT,
          WAYPOINT_VALUES,
        );
        state = newState(state);
        layers += 1;
      }
      const last = target?.kind === 'micro' ? kb.micro.indexOf(target) : -1;
      const first = continued ? from.at.micro + 1 : 0;
      const micro = kb.micro.slice(first, last < 0 ? undefined : last + 1);
      micro.forEach((mb, i) =>
        inBlock(height, first + i, (s) => {
          for (const r of mb.txs) this.#include(s, r, height, expiry, keep);
        }),
      );
      if (last >= 0) break;
    }
    return { state, expiry, base, layers };
  }

  /**
   * #keep keeps `kept` at `hash` in `map` (history or waypoints), first dropping its least recently used states while
   * it would hold `count` of them or more than `values` values in their own layers.
   */
  #keep(map: Map<string, KeptState>, hash: string, kept: KeptState, count: number, values: number): void {
    let held = ownSize(kept.state);
    for (const k of map.values()) held += ownSize(k.state);
    for (const [oldest, evicted] of map) {
      if (map.size < count && held <= values) break;
      map.delete(oldest);
      held -= ownSize(evicted.state);
    }
    map.set(hash, kept);
  }
}
