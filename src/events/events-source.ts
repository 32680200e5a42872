/** @module Reads the committed chain rows of a height range as websocket events, in chain order. */
import { stringifyJson } from '../chain/json.ts';
import { signedTx } from '../chain/signed-tx.ts';
import { withSnapshot, type Pool, type Queryable } from '../db/pool.ts';
import { keyBlocksBetween, microBlocksBetween, type KeyBlockRow, type MicroBlockRow } from '../db/queries/blocks.ts';
import { txIdsBetween, type TxIdRow } from '../db/queries/account-transactions.ts';
import { blockHashesBetween } from '../db/queries/block-hashes.ts';
import { lastReorgSeq, reorgsAfter, type Reorg } from '../db/queries/reorgs.ts';
import { readReplayed, type Replayed } from '../db/queries/replication.ts';
import { transactionsBetween, type TransactionRow } from '../db/queries/transactions.ts';

/**
 * ChainEvent is one thing that happened on chain, with its payload already serialised once
 * (exact integers), so fan-out to thousands of clients costs no further JSON work.
 */
export type ChainEvent =
  | {
      readonly type: 'key_block' | 'micro_block';
      readonly height: number;
      readonly block: string;
      readonly payload: string;
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
    };

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
export async function readChainEvents(pool: Pool, from: number, to: number): Promise<ChainEvent[]> {
  return (await readChainChunk(pool, from, to)).events;
}

/** readChainChunk reads heights from..to and the reorg log (after `afterSeq`) in one snapshot. */
export function readChainChunk(pool: Pool, from: number, to: number, afterSeq?: number): Promise<ChainChunk> {
  return withSnapshot(pool, (db) => chunkIn(db, from, to, afterSeq));
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
  afterSeq: number,
): Promise<Replayed<ChainChunk>> {
  return readReplayed(pool, (db) => chunkIn(db, from, to, afterSeq));
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

async function chunkIn(db: Queryable, from: number, to: number, afterSeq: number | undefined): Promise<ChainChunk> {
  const events = await eventsIn(db, from, to);
  if (afterSeq === undefined) return { events, reorgs: [], reorgSeq: await lastReorgSeq(db) };
  const reorgs = await reorgsAfter(db, afterSeq);
  return { events, reorgs, reorgSeq: reorgs.at(-1)?.seq ?? afterSeq };
}

async function eventsIn(db: Queryable, from: number, to: number): Promise<ChainEvent[]> {
  // One client runs one query at a time, so these go one after the other.
  const keyBlocks = await keyBlocksBetween(db, from, to, to - from + 1, 0);
  const microBlocks = await microBlocksBetween(db, from, to);
  const transactions = await transactionsBetween(db, from, to);
  const ids = await txIdsBetween(db, from, to);
  return inChainOrder(keyBlocks, microBlocks, transactions, ids);
}

function inChainOrder(
  keyBlocks: KeyBlockRow[],
  microBlocks: MicroBlockRow[],
  txs: TransactionRow[],
  ids: TxIdRow[],
): ChainEvent[] {
  const idsByTx = new Map<string, string[]>();
  for (const r of ids) {
    const key = position(r.height, r.microIndex, r.txIndex);
    const list = idsByTx.get(key);
    if (list) list.push(r.account);
    else idsByTx.set(key, [r.account]);
  }
  const txsByMicro = groupBy(txs, (t) => `${t.height}:${t.microIndex}`);
  const microsByHeight = groupBy(microBlocks, (m) => String(m.height));
  const events: ChainEvent[] = [];
  for (const kb of keyBlocks.sort((a, b) => a.height - b.height)) {
    events.push({ type: 'key_block', height: kb.height, block: kb.hash, payload: stringifyJson(kb.data) });
    const micros = (microsByHeight.get(String(kb.height)) ?? []).sort((a, b) => a.microIndex - b.microIndex);
    for (const mb of micros) {
      events.push({ type: 'micro_block', height: mb.height, block: mb.hash, payload: stringifyJson(mb.header) });
      const blockTxs = (txsByMicro.get(`${mb.height}:${mb.microIndex}`) ?? []).sort((a, b) => a.txIndex - b.txIndex);
      for (const t of blockTxs) {
        const txIds = idsByTx.get(position(t.height, t.microIndex, t.txIndex)) ?? [];
        events.push({
          type: 'transaction',
          height: t.height,
          hash: t.hash,
          block: t.microBlockHash,
          payload: stringifyJson(signedTx(t)),
          ids: txIds,
        });
      }
    }
  }
  return events;
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
