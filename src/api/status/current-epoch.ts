/**
 * @module The current epoch of a hyperchain as both statuses show it (`/middleware/status`'s `epoch`, `/mdw/v3/status`'s
 * `mdw_epoch`): the epoch of the top stored height, its heights and length. Nothing on another chain.
 */
import type { Queryable } from '../../db/connection/pool.ts';
import { currentEpoch, epochAt } from '../../db/queries/hyperchain.ts';

/** The current epoch: its number and heights. */
export interface EpochReport {
  readonly epoch: number;
  readonly first: number;
  readonly last: number;
  readonly length: number;
}

/** EPOCH_REPORT_SCHEMA: the OpenAPI schema of an EpochReport, which both statuses' documents carry. */
export const EPOCH_REPORT_SCHEMA = {
  type: 'object',
  required: ['epoch', 'first', 'last', 'length'],
  properties: {
    epoch: { type: 'integer' },
    first: { type: 'integer' },
    last: { type: 'integer' },
    length: { type: 'integer' },
  },
} as const;

/** currentEpochReport reads the current epoch; undefined on a chain that is not a hyperchain, or before its first. */
export async function currentEpochReport(db: Queryable): Promise<EpochReport | undefined> {
  const epoch = await currentEpoch(db);
  const row = epoch === undefined ? undefined : await epochAt(db, epoch);
  return row && { epoch: row.epoch, first: row.first, last: row.last, length: row.length };
}
