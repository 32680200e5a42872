/** @module Reads the committed chain rows of a height range as websocket events, in chain order. */
import { stringifyJson, type Json } from '../chain/json.ts';
import { withTransaction, type Pool, type Queryable } from '../db/pool.ts';

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
      /** The micro block holding the transaction. */
      readonly block: string;
      readonly payload: string;
      /** Every id the transaction references or creates (its account_transactions rows). */
      readonly ids: readonly string[];
    };

interface KeyBlockRow {
  height: number;
  hash: string;
  data: Json;
}
interface MicroBlockRow {
  height: number;
  micro_index: number;
  hash: string;
  header: Json;
}
interface TransactionRow {
  hash: string;
  height: number;
  micro_block_hash: string;
  micro_index: number;
  tx_index: number;
  signatures: string[] | null;
  tx: Json;
}
interface IdRow {
  height: number;
  micro_index: number;
  tx_index: number;
  account: string;
}

/**
 * readChainEvents returns the events of heights from..to (inclusive), in chain order: each key
 * block, then each micro block of its generation followed by the block's transactions. One
 * repeatable-read snapshot, so a concurrent fork cannot mix two chains in one answer.
 */
export function readChainEvents(pool: Pool, from: number, to: number): Promise<ChainEvent[]> {
  return withTransaction(
    pool,
    async (db) => {
      const range = [from, to];
      // One client runs one query at a time, so these go one after the other.
      const keyBlocks = await db.query<KeyBlockRow>(
        'SELECT height, hash, data FROM key_blocks WHERE height BETWEEN $1 AND $2',
        range,
      );
      const microBlocks = await db.query<MicroBlockRow>(
        'SELECT height, micro_index, hash, header FROM micro_blocks WHERE height BETWEEN $1 AND $2',
        range,
      );
      const transactions = await db.query<TransactionRow>(
        `SELECT hash, height, micro_block_hash, micro_index, tx_index, signatures, tx
         FROM transactions WHERE height BETWEEN $1 AND $2`,
        range,
      );
      const ids = await db.query<IdRow>(
        'SELECT height, micro_index, tx_index, account FROM account_transactions WHERE height BETWEEN $1 AND $2',
        range,
      );
      return inChainOrder(keyBlocks.rows, microBlocks.rows, transactions.rows, ids.rows);
    },
    'ISOLATION LEVEL REPEATABLE READ READ ONLY',
  );
}

/** readBlockHashes lists the stored key and micro block hashes of heights from..to, by height. */
export async function readBlockHashes(db: Queryable, from: number, to: number): Promise<Map<number, string[]>> {
  const { rows } = await db.query<{ height: number; hash: string }>(
    `SELECT height, hash FROM key_blocks WHERE height BETWEEN $1 AND $2
     UNION ALL SELECT height, hash FROM micro_blocks WHERE height BETWEEN $1 AND $2`,
    [from, to],
  );
  const byHeight = new Map<number, string[]>();
  for (const r of rows) byHeight.set(r.height, [...(byHeight.get(r.height) ?? []), r.hash]);
  return byHeight;
}

/** signedTxPayload is a stored transaction as the node serves it (GenericSignedTx). */
export function signedTxPayload(
  row: Pick<TransactionRow, 'hash' | 'height' | 'micro_block_hash' | 'signatures' | 'tx'>,
): string {
  const signed: Record<string, unknown> = {
    block_hash: row.micro_block_hash,
    block_height: row.height,
    hash: row.hash,
  };
  // GAMetaTx is printed by the node without signatures; stored as null.
  if (row.signatures !== null) signed.signatures = row.signatures;
  signed.tx = row.tx;
  return stringifyJson(signed);
}

function inChainOrder(
  keyBlocks: KeyBlockRow[],
  microBlocks: MicroBlockRow[],
  txs: TransactionRow[],
  ids: IdRow[],
): ChainEvent[] {
  const idsByTx = new Map<string, string[]>();
  for (const r of ids) {
    const key = position(r.height, r.micro_index, r.tx_index);
    const list = idsByTx.get(key);
    if (list) list.push(r.account);
    else idsByTx.set(key, [r.account]);
  }
  const txsByMicro = groupBy(txs, (t) => `${t.height}:${t.micro_index}`);
  const microsByHeight = groupBy(microBlocks, (m) => String(m.height));
  const events: ChainEvent[] = [];
  for (const kb of keyBlocks.sort((a, b) => a.height - b.height)) {
    events.push({ type: 'key_block', height: kb.height, block: kb.hash, payload: stringifyJson(kb.data) });
    const micros = (microsByHeight.get(String(kb.height)) ?? []).sort((a, b) => a.micro_index - b.micro_index);
    for (const mb of micros) {
      events.push({ type: 'micro_block', height: mb.height, block: mb.hash, payload: stringifyJson(mb.header) });
      const blockTxs = (txsByMicro.get(`${mb.height}:${mb.micro_index}`) ?? []).sort((a, b) => a.tx_index - b.tx_index);
      for (const t of blockTxs) {
        const txIds = idsByTx.get(position(t.height, t.micro_index, t.tx_index)) ?? [];
        events.push({
          type: 'transaction',
          height: t.height,
          block: t.micro_block_hash,
          payload: signedTxPayload(t),
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
