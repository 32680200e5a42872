/**
 * @module A list's `scope` as positions: generations, times (micro block times) and txis all become the first and last
 * position in range; transactions (`transaction:th_A-th_B`) become the txis of those transactions first.
 */
import type { Queryable } from '../../../db/connection/pool.ts';
import { positionsOfTime } from '../../../db/queries/transaction-filter.ts';
import type { TxPosition } from '../../../db/queries/positions.ts';
import { positionsOfTxis, txiOfHash } from '../../../db/queries/txis.ts';
import { v3BadRequest } from './mdw-errors.ts';
import { parseHash, type Scope } from './mdw-params.ts';

const MAX_INDEX = 2 ** 31 - 1;

/** PositionRange: the first and last position a list shows (both inclusive; none: the whole chain). */
export interface PositionRange {
  readonly from?: TxPosition;
  readonly to?: TxPosition;
}

/** positionBounds turns `gen:a-b`, `time:a-b` (unix seconds, micro block times) or `txi:a-b` into position bounds. */
export async function positionBounds(db: Queryable, scope: Scope | undefined): Promise<PositionRange> {
  if (!scope) return {};
  if (scope.type === 'gen')
    return {
      from: { height: scope.first, microIndex: 0, txIndex: 0 },
      to: { height: scope.last, microIndex: MAX_INDEX, txIndex: MAX_INDEX },
    };
  if (scope.type === 'time') return positionsOfTime(db, scope.first * 1000, scope.last * 1000 + 999);
  return positionsOfTxis(db, scope.first, scope.last);
}

const TRANSACTION_SCOPE = 'transaction:';

/**
 * txiScopeOfTransactions reads ae_mdw's `transaction:th_A-th_B` (or `transaction:th_A`) as the scope `txi:a-b` of those
 * transactions' txis, in the order given (so the walk's direction follows it, as for any scope); undefined for any other
 * scope. 400 for a hash that is not one or a transaction not stored, as ae_mdw answers.
 */
export async function txiScopeOfTransactions(db: Queryable, text: string): Promise<string | undefined> {
  if (!text.startsWith(TRANSACTION_SCOPE)) return undefined;
  const hashes = text.slice(TRANSACTION_SCOPE.length).split('-');
  if (hashes.length > 2) throw v3BadRequest(`invalid scope: ${text}`);
  const txis: number[] = [];
  for (const given of hashes) {
    const txi = await txiOfHash(db, parseHash(given, 'th'));
    if (txi === undefined) throw v3BadRequest(`not found: ${given}`);
    txis.push(txi);
  }
  return `txi:${txis.join('-')}`;
}
