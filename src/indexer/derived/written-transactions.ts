/**
 * @module The transactions the populator wrote while catching up, kept for the balances' next stretch (issue 88): the
 * stretch derives their changes from their ids and amounts, which it read back as each one's signed bytes (a `bytea`
 * PostgreSQL sends as hex text, 14 of its 24 ms of CPU per 10 000 transactions of the stretch) and decoded again. A
 * transaction's hash names its bytes, so a kept copy found by its hash is what the stored row holds, whatever forks
 * and reloads came between; one not kept (a restart, a stretch larger than the bound, a backfill of stored heights) is
 * read back as before.
 */
import { txAmounts } from '../../chain/stored-tx.ts';
import type { TxFields } from '../../chain/tx-serialize.ts';
import type { GenerationRows } from '../rows/rows.ts';

/** A transaction the populator wrote: its place's height, its hash, and the node's JSON of it. */
export interface WrittenTransaction {
  readonly height: number;
  readonly txHash: string;
  readonly tx: TxFields;
}

/** Where a range's transactions' fields may be found without reading them back: by the transaction's hash. */
export type KnownTransactions = (hash: string) => TxFields | undefined;

/**
 * WrittenTransactions keeps the ids and amounts (txAmounts) of the transactions written, until a stretch that took
 * them forgets their heights; at most `limit` of them, the oldest dropped first (an area behind or failing holds none
 * for ever).
 */
export class WrittenTransactions {
  readonly #limit: number;
  readonly #kept = new Map<string, { readonly height: number; readonly fields: TxFields }>();

  constructor(limit: number) {
    this.#limit = limit;
  }

  /** keep remembers the transactions of a committed batch. */
  keep(txs: readonly WrittenTransaction[]): void {
    for (const t of txs) this.#kept.set(t.txHash, { height: t.height, fields: txAmounts(t.tx) });
    // a Map iterates in insertion order: the oldest first
    for (const hash of this.#kept.keys()) {
      if (this.#kept.size <= this.#limit) break;
      this.#kept.delete(hash);
    }
  }

  /** fieldsOf gives a kept transaction's ids and amounts. */
  readonly fieldsOf: KnownTransactions = (hash) => this.#kept.get(hash)?.fields;

  /** forgetThrough drops the transactions kept of heights up to `height` (a stretch derived them). */
  forgetThrough(height: number): void {
    for (const [hash, t] of this.#kept) if (t.height <= height) this.#kept.delete(hash);
  }

  /** size is how many are kept. */
  get size(): number {
    return this.#kept.size;
  }
}

/** batchTransactions are a batch's own transactions, whole, for its balances derived in its transaction. */
export function batchTransactions(gens: readonly GenerationRows[]): KnownTransactions {
  const byHash = new Map(gens.flatMap((g) => g.transactions.map((t) => [t.txHash, t.tx] as const)));
  return (hash) => byHash.get(hash);
}
