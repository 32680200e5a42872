/**
 * @module /v3/hyperchain/epochs and /v3/hyperchain/schedule: a hyperchain's epochs and its leader schedule, paged by
 * epoch and by height, scoped by `epoch:A-B` (and `gen:A-B` on the schedule). ae_mdw's 400 on another chain.
 */
import type { Pool } from '../../../db/connection/pool.ts';
import {
  currentEpoch,
  epochAt,
  epochHeights,
  epochsPage,
  scheduleAt,
  schedulePage,
} from '../../../db/queries/hyperchain.ts';
import type { Range } from '../../../db/queries/range-page.ts';
import { epochObject, scheduleObject } from '../../../shapes/v3/render-hyperchain.ts';
import { INDEX_CURSOR } from './cursors.ts';
import { onlyOnHyperchain } from './hyperchain-guard.ts';
import { listPage } from './list.ts';
import { v3BadRequest, v3NotFound } from './mdw-errors.ts';
import { ALL_HEIGHTS, NO_RANGE, parseNonNegative, parsePaging, type Scope } from './mdw-params.ts';
import { page } from './resource.ts';
import { EPOCH_INFO, SCHEDULE } from '../../../shapes/v3/shapes-hyperchain.ts';

/** getEpochs: the epochs, newest first unless asked otherwise. */
export const getEpochs = onlyOnHyperchain(page(EPOCH_INFO), async function getEpochs({ pool }, req) {
  const paging = parsePaging(req.query, { scopes: ['epoch'] });
  const epochs = paging.scope ?? ALL_HEIGHTS;
  return listPage(paging, {
    cursor: INDEX_CURSOR,
    read: (window) => epochsPage(pool, epochs, window),
    key: (e) => e.epoch,
    item: epochObject,
  });
});

/** getEpochTop: the epoch of the top stored height. */
export const getEpochTop = onlyOnHyperchain(EPOCH_INFO, async function getEpochTop({ pool }) {
  const epoch = await currentEpoch(pool);
  const row = epoch === undefined ? undefined : await epochAt(pool, epoch);
  if (!row) throw v3NotFound('epoch at the top height');
  return epochObject(row);
});

/** getSchedules: the leader of each height, of every loaded epoch (its coming heights too). */
export const getSchedules = onlyOnHyperchain(page(SCHEDULE), async function getSchedules({ pool }, req) {
  const paging = parsePaging(req.query, { scopes: ['gen', 'epoch'] });
  const heights = await scheduleHeights(pool, paging.scope);
  return listPage(paging, {
    cursor: INDEX_CURSOR,
    read: (window) => schedulePage(pool, heights, window),
    key: (s) => s.height,
    item: scheduleObject,
  });
});

/** getSchedule: the leader of one height. */
export const getSchedule = onlyOnHyperchain(SCHEDULE, async function getSchedule({ pool }, req) {
  const given = req.params.height!;
  const height = parseNonNegative(given);
  if (height === undefined) throw v3BadRequest(`invalid non-negative integer: ${given}`);
  const row = await scheduleAt(pool, height);
  if (!row) throw v3NotFound(`height ${height}`);
  return scheduleObject(row);
});

/** scheduleHeights is the heights a schedule's scope covers: `gen:A-B` itself, `epoch:A-B` its epochs' heights. */
async function scheduleHeights(pool: Pool, scope: Scope | undefined): Promise<Range> {
  if (scope === undefined) return ALL_HEIGHTS;
  if (scope.type === 'gen') return scope;
  return (await epochHeights(pool, scope)) ?? NO_RANGE;
}
