/** @module A list's `scope` as positions: generations, times (micro block times) and txis all become the first and last position in range. */
import type { Queryable } from '../../../db/pool.ts';
import { positionsOfTime, type TxPosition } from '../../../db/queries/transaction-filter.ts';
import { positionsOfTxis } from '../../../db/queries/txis.ts';
import type { Scope } from './params.ts';

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
