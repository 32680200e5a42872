/** @module Reads the committed chain rows of a height range as websocket events, in chain order, with their payloads. */
import { stringifyJson, type Json } from '../chain/json.ts';
import { nodeSignedTx, type MinedTx } from '../chain/signed-tx.ts';
import { withSnapshot, type Pool, type Queryable } from '../db/connection/pool.ts';
import {
  keyBlocksBetween,
  keyBlocksPage,
  microBlocksBetween,
  microBlocksCountedBetween,
} from '../db/queries/blocks.ts';
import { txIdsBetween, type TxIdRow } from '../db/queries/account-transactions.ts';
import { blockHashesBetween } from '../db/queries/block-hashes.ts';
import { epochsFixedAt, schedulePage } from '../db/queries/hyperchain.ts';
import { lastReorgSeq, reorgsAfter, type Reorg } from '../db/queries/reorgs.ts';
import { readReplayed, type Replayed } from '../db/connection/replication.ts';
import { transactionsBetween, txRowsBetween } from '../db/queries/transactions.ts';
import { txisBeforeBlocks } from '../db/queries/txis.ts';
import { keyBlockJson, microBlockJson } from '../shapes/v3/render-blocks.ts';
import { epochJson, mdwTxPayloads, type MdwTxPayloads } from './mdw-render.ts';

/**
 * ChainEvent is one thing that happened on chain, with its payloads already serialised once
 * (exact integers), so fan-out to thousands of clients costs no further JSON work: the node's (the
 * seed's protocol, and ae_mdw's `node` source) always, ae_mdw's `mdw` source's when the read was for it.
 */
export type ChainEvent =
  | {
      readonly type: 'key_block' | 'micro_block';
      readonly height: number;
      readonly block: string;
      readonly payload: string;
      /** /v3's KeyBlock or MicroBlock (a chunk read with `mdw`) */
      readonly mdw?: string;
      /** a key block's hyperchain epoch it fixed (its first - 1), with its leaders (a chunk read with `epochs`) */
      readonly epoch?: string;
    }
  | {
      readonly type: 'transaction';
      readonly height: number;
      readonly hash: string;
      /** The micro block holding the transaction. */
      readonly block: string;
      readonly payload: string;
      /** Every id the transaction references or creates (its account_transactions rows). */
      readonly ids: readonly string[];
      /** /v3's Transaction and ae_mdw's v2 shape (a chunk read with `mdw`) */
      readonly mdw?: MdwTxPayloads;
    };

/**
 * ChunkWants is what a chunk is read for beyond the node's payloads, which every read renders: ae_mdw's `mdw` source
 * (its blocks and transactions read with what /v3 shows of them, in place of the node's rows: one read of each either
 * way), and a hyperchain's epochs. The subscriptions decide it, so a server without such subscribers reads no more
 * than the node's rows.
 */
export interface ChunkWants {
  readonly mdw: boolean;
  readonly epochs: boolean;
}

/** NODE_PAYLOADS: a read for the node's payloads alone. */
export const NODE_PAYLOADS: ChunkWants = { mdw: false, epochs: false };

/** covers is true when a read for `read` renders everything `wanted` asks for. */
export function covers(read: ChunkWants, wanted: ChunkWants): boolean {
  return (read.mdw || !wanted.mdw) && (read.epochs || !wanted.epochs);
}

/**
 * ChainChunk is a range of heights as one snapshot has it, with the reorg log of that snapshot: the log's rows are
 * written in the transaction of the blocks that replace what they drop, so the snapshot that holds a new chain's blocks
 * holds their reorg too, on the primary or on any standby.
 */
export interface ChainChunk {
  readonly events: ChainEvent[];
  /** the reorgs logged after the one given (`afterSeq`), in commit order (none when none was given) */
  readonly reorgs: Reorg[];
  /** the last reorg logged in the snapshot (0: none) */
  readonly reorgSeq: number;
}

/**
 * readChainEvents returns the events of heights from..to (inclusive), in chain order: each key
 * block, then each micro block of its generation followed by the block's transactions. One
 * repeatable-read snapshot, so a concurrent fork cannot mix two chains in one answer.
 */
export async function readChainEvents(
  pool: Pool,
  from: number,
  to: number,
  wants: ChunkWants = NODE_PAYLOADS,
): Promise<ChainEvent[]> {
  return (await readChainChunk(pool, from, to, { wants })).events;
}

/** How a chunk is read: for what (`wants`), and with the reorgs logged after `afterSeq` (none when not given). */
export interface ChunkRead {
  readonly afterSeq?: number;
  readonly wants?: ChunkWants;
}

/** readChainChunk reads heights from..to, their payloads and the reorg log (after `afterSeq`) in one snapshot. */
export function readChainChunk(pool: Pool, from: number, to: number, read: ChunkRead = {}): Promise<ChainChunk> {
  return withSnapshot(pool, (db) => chunkIn(db, from, to, read));
}

/**
 * readReplayedChainChunk is readChainChunk with the replay position of the standby read (a read replica may have
 * replayed commits beyond the notification the events are read for: the server's floor must be there before it
 * pushes them).
 */
export function readReplayedChainChunk(
  pool: Pool,
  from: number,
  to: number,
  read: ChunkRead,
): Promise<Replayed<ChainChunk>> {
  return readReplayed(pool, (db) => chunkIn(db, from, to, read));
}

/** readStoredHashes reads the block hashes of heights from..to (by height) and the reorgs after `afterSeq` in one snapshot. */
export function readStoredHashes(
  pool: Pool,
  from: number,
  to: number,
  afterSeq: number,
): Promise<{ hashes: Map<number, string[]>; reorgs: Reorg[]; reorgSeq: number }> {
  return withSnapshot(pool, async (db) => {
    const hashes = await blockHashesBetween(db, from, to);
    const reorgs = await reorgsAfter(db, afterSeq);
    return { hashes, reorgs, reorgSeq: reorgs.at(-1)?.seq ?? afterSeq };
  });
}

async function chunkIn(db: Queryable, from: number, to: number, read: ChunkRead): Promise<ChainChunk> {
  const events = await eventsIn(db, from, to, read.wants ?? NODE_PAYLOADS);
  const { afterSeq } = read;
  if (afterSeq === undefined) return { events, reorgs: [], reorgSeq: await lastReorgSeq(db) };
  const reorgs = await reorgsAfter(db, afterSeq);
  return { events, reorgs, reorgSeq: reorgs.at(-1)?.seq ?? afterSeq };
}

/** A block of a chunk as its events carry it: the node's object, and /v3's when read for it. */
interface ChunkBlock {
  readonly height: number;
  readonly hash: string;
  readonly node: Json;
  readonly mdw?: string;
}

/**
 * A transaction of a chunk: what the node's object is made of (its `encoded_tx` too, which the node sends in every
 * transaction since 7.x and the cached answers carry), and ae_mdw's payloads when read for them.
 */
interface ChunkTx {
  readonly tx: MinedTx & { readonly microIndex: number; readonly txIndex: number; readonly encoded: string | null };
  readonly mdw?: MdwTxPayloads;
}

/** The rows of a chunk, each read once: every payload of its events is rendered from them. */
interface ChunkRows {
  readonly keyBlocks: readonly ChunkBlock[];
  readonly microBlocks: readonly (ChunkBlock & { readonly microIndex: number })[];
  readonly transactions: readonly ChunkTx[];
  readonly ids: readonly TxIdRow[];
  /** the epochs' payloads, by the height of the key block that fixed each */
  readonly epochs: ReadonlyMap<number, string>;
}

async function eventsIn(db: Queryable, from: number, to: number, wants: ChunkWants): Promise<ChainEvent[]> {
  // One client runs one query at a time, so these go one after the other.
  const blocksAndTxs = wants.mdw ? await mdwRowsIn(db, from, to) : await nodeRowsIn(db, from, to);
  const ids = await txIdsBetween(db, from, to);
  const keyHeights = blocksAndTxs.keyBlocks.map((k) => k.height);
  const epochs = wants.epochs ? await epochsIn(db, keyHeights) : new Map<number, string>();
  return inChainOrder({ ...blocksAndTxs, ids, epochs });
}

type BlocksAndTxs = Pick<ChunkRows, 'keyBlocks' | 'microBlocks' | 'transactions'>;

/** nodeRowsIn reads the blocks and transactions of heights from..to as the node's objects are made of them. */
async function nodeRowsIn(db: Queryable, from: number, to: number): Promise<BlocksAndTxs> {
  const keyBlocks = await keyBlocksBetween(db, from, to, to - from + 1, 0);
  const microBlocks = await microBlocksBetween(db, from, to);
  const transactions = await transactionsBetween(db, from, to);
  return {
    keyBlocks: keyBlocks.map((k) => ({ height: k.height, hash: k.hash, node: k.data })),
    microBlocks: microBlocks.map((m) => ({ height: m.height, microIndex: m.microIndex, hash: m.hash, node: m.header })),
    transactions: transactions.map((tx) => ({ tx })),
  };
}

/**
 * mdwRowsIn reads the blocks and transactions of heights from..to as /v3 shows them (which hold the node's objects
 * too), with the transactions of the chain before each micro block (a v2 transaction's index).
 */
async function mdwRowsIn(db: Queryable, from: number, to: number): Promise<BlocksAndTxs> {
  const keyBlocks = await keyBlocksPage(
    db,
    { first: from, last: to },
    { walk: 'forward', from: undefined, n: to - from + 1 },
  );
  const microBlocks = await microBlocksCountedBetween(db, from, to);
  const transactions = await txRowsBetween(db, from, to);
  const before = await txisBeforeBlocks(db, transactions);
  return {
    keyBlocks: keyBlocks.map((k) => ({
      height: k.height,
      hash: String(k.data.hash),
      node: k.data,
      mdw: keyBlockJson(k),
    })),
    microBlocks: microBlocks.map((m) => ({
      height: m.height,
      microIndex: m.microIndex,
      hash: String(m.header.hash),
      node: m.header,
      mdw: microBlockJson(m),
    })),
    transactions: transactions.map((tx) => ({
      tx,
      mdw: mdwTxPayloads(tx, before.get(`${tx.height}:${tx.microIndex}`) ?? 0),
    })),
  };
}

/** epochsIn reads the epochs the key blocks at these heights fixed (first - 1), with their schedules, as payloads. */
async function epochsIn(db: Queryable, heights: readonly number[]): Promise<Map<number, string>> {
  const payloads = new Map<number, string>();
  if (heights.length === 0) return payloads;
  for (const e of await epochsFixedAt(db, heights))
    payloads.set(
      e.first - 1,
      epochJson(e, await schedulePage(db, e, { walk: 'forward', from: undefined, n: e.length })),
    );
  return payloads;
}

function inChainOrder(rows: ChunkRows): ChainEvent[] {
  const idsByTx = new Map<string, string[]>();
  for (const r of rows.ids) {
    const key = position(r.height, r.microIndex, r.txIndex);
    const list = idsByTx.get(key);
    if (list) list.push(r.account);
    else idsByTx.set(key, [r.account]);
  }
  const txsByMicro = groupBy(rows.transactions, ({ tx }) => `${tx.height}:${tx.microIndex}`);
  const microsByHeight = groupBy(rows.microBlocks, (m) => String(m.height));
  const events: ChainEvent[] = [];
  for (const kb of [...rows.keyBlocks].sort((a, b) => a.height - b.height)) {
    const epoch = rows.epochs.get(kb.height);
    events.push({ type: 'key_block', ...blockEvent(kb), ...(epoch === undefined ? {} : { epoch }) });
    const micros = (microsByHeight.get(String(kb.height)) ?? []).sort((a, b) => a.microIndex - b.microIndex);
    for (const mb of micros) {
      events.push({ type: 'micro_block', ...blockEvent(mb) });
      const blockTxs = (txsByMicro.get(`${mb.height}:${mb.microIndex}`) ?? []).sort(
        (a, b) => a.tx.txIndex - b.tx.txIndex,
      );
      for (const { tx: t, mdw } of blockTxs) {
        const txIds = idsByTx.get(position(t.height, t.microIndex, t.txIndex)) ?? [];
        events.push({
          type: 'transaction',
          height: t.height,
          hash: t.hash,
          block: t.microBlockHash,
          payload: stringifyJson(nodeSignedTx(t, t.encoded)),
          ids: txIds,
          ...(mdw === undefined ? {} : { mdw }),
        });
      }
    }
  }
  return events;
}

/** blockEvent is what a block's event carries: where it is, the node's object, and /v3's when read. */
function blockEvent(b: ChunkBlock): { height: number; block: string; payload: string; mdw?: string } {
  const event = { height: b.height, block: b.hash, payload: stringifyJson(b.node) };
  return b.mdw === undefined ? event : { ...event, mdw: b.mdw };
}

function position(height: number, microIndex: number, txIndex: number): string {
  return `${height}:${microIndex}:${txIndex}`;
}

function groupBy<T>(items: readonly T[], keyOf: (item: T) => string): Map<string, T[]> {
  const groups = new Map<string, T[]>();
  for (const item of items) {
    const key = keyOf(item);
    const group = groups.get(key);
    if (group) group.push(item);
    else groups.set(key, [item]);
  }
  return groups;
}
