/**
 * @module The transactions the populator wrote while catching up, kept for the balances' next stretch (issue 88): the
 * stretch derives their changes from their ids and amounts, which it read back as each one's signed bytes (a `bytea`
 * PostgreSQL sends as hex text) and decoded again: 8k of PostgreSQL's 607k instructions a transaction of a catch-up,
 * and some 140k of the populator's 1 066–1 091k (bench/own-instructions-ab.ts, docs/benchmarks.md). They are kept by
 * micro block: a micro block's hash names its header, whose transactions' root names its transactions, so the
 * transactions kept under the hash of a stored micro block are the ones stored there, in their order, whatever forks
 * and reloads came between. A stretch whose micro blocks are not all kept (a restart, a stretch larger than the bound,
 * a backfill of stored heights) reads its transactions back, as before.
 */
import { txAmounts } from '../../chain/stored-tx.ts';
import type { TxFields } from '../../chain/tx-serialize.ts';
import type { GenerationRows } from '../rows/rows.ts';

/** A transaction held in memory: its hash, and its fields (txAmounts, or all of them). */
export interface HeldTransaction {
  readonly hash: string;
  readonly fields: TxFields;
}

/** The transactions of a micro block, in their order, by the micro block's hash (undefined: not held). */
export type KnownTransactions = (microHash: string) => readonly HeldTransaction[] | undefined;

/**
 * WrittenTransactions keeps the ids and amounts (txAmounts) of the transactions of the batches written, until a stretch
 * that took them forgets their heights; at most `limit` transactions, the oldest micro blocks dropped first (an area
 * behind or failing holds none for ever).
 */
export class WrittenTransactions {
  readonly #limit: number;
  readonly #kept = new Map<string, { readonly height: number; readonly txs: readonly HeldTransaction[] }>();
  #count = 0;

  constructor(limit: number) {
    this.#limit = limit;
  }

  /** keep remembers the transactions of a committed batch's generations. */
  keep(gens: readonly GenerationRows[]): void {
    for (const [hash, block] of byMicroBlock(gens, txAmounts)) {
      this.#count += block.txs.length - (this.#kept.get(hash)?.txs.length ?? 0);
      this.#kept.set(hash, block);
    }
    // a Map iterates in insertion order: the oldest first
    for (const [hash, block] of this.#kept) {
      if (this.#count <= this.#limit) break;
      this.#drop(hash, block.txs.length);
    }
  }

  /** transactionsOf gives a kept micro block's transactions. */
  readonly transactionsOf: KnownTransactions = (microHash) => this.#kept.get(microHash)?.txs;

  /** forgetThrough drops the micro blocks kept of heights up to `height` (a stretch derived them). */
  forgetThrough(height: number): void {
    for (const [hash, block] of this.#kept) if (block.height <= height) this.#drop(hash, block.txs.length);
  }

  /** count is how many transactions are kept. */
  get count(): number {
    return this.#count;
  }

  #drop(hash: string, txs: number): void {
    this.#kept.delete(hash);
    this.#count -= txs;
  }
}

/** batchTransactions are a batch's own transactions, whole, for its balances derived in its transaction. */
export function batchTransactions(gens: readonly GenerationRows[]): KnownTransactions {
  const held = byMicroBlock(gens, (tx) => tx);
  return (microHash) => held.get(microHash)?.txs;
}

/** byMicroBlock groups generations' transactions (`fields` of each) by their micro block's hash, in their order. */
function byMicroBlock(
  gens: readonly GenerationRows[],
  fields: (tx: TxFields) => TxFields,
): Map<string, { height: number; txs: HeldTransaction[] }> {
  const blocks = new Map<string, { height: number; txs: HeldTransaction[] }>();
  for (const g of gens) {
    const at = new Map<number, HeldTransaction[]>();
    for (const m of g.microBlocks) {
      const txs: HeldTransaction[] = [];
      at.set(m.microIndex, txs);
      blocks.set(m.hash, { height: m.height, txs });
    }
    // a transaction's index in its micro block is its place in the list
    for (const t of g.transactions) {
      const txs = at.get(t.microIndex);
      if (txs !== undefined) txs[t.txIndex] = { hash: t.txHash, fields: fields(t.tx) };
    }
  }
  return blocks;
}
