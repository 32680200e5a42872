/** @module A batch's transactions per outer type, as tx_type_totals keeps them (db/writes/tx-type-totals.ts). Pure. */
import type { TxTypeTotal } from '../../db/writes/tx-type-totals.ts';
import type { TransactionRow } from './rows.ts';

/**
 * txTypeTotals counts `transactions` per type, by the code `code` gives each type, and sums their stored sizes; one
 * total per code, in the order the codes are first met.
 */
export function txTypeTotals(
  transactions: readonly Pick<TransactionRow, 'txType' | 'stored'>[],
  code: (type: string) => number,
): TxTypeTotal[] {
  const totals = new Map<number, { code: number; n: number; size: number }>();
  for (const t of transactions) {
    const c = code(t.txType);
    const total = totals.get(c);
    if (total === undefined) totals.set(c, { code: c, n: 1, size: t.stored.size });
    else {
      total.n++;
      total.size += t.stored.size;
    }
  }
  return [...totals.values()];
}
