/**
 * @module Block rewards a hyperchain never paid, stored by a version from before issue 45 (which derived the main
 * chain's `reward_block`/`reward_dev` transfers on every chain): derived away again from the stored rows at the start.
 */
import { topHeight } from '../../db/queries/blocks.ts';
import { lowestKeyBlockTransfer } from '../../db/queries/internal-transfers.ts';
import type { Queryable } from '../../db/connection/pool.ts';
import { recordBackfill } from '../../db/writes/derive-backfill.ts';
import type { TransferRules } from './internal-transfers.ts';

const REWARD_KINDS = ['reward_block', 'reward_dev'];

/**
 * backfillUnpaidRewards has the populator's backfill derive again, from the stored rows, the transfers from the lowest
 * key block holding a block reward the rules do not pay (the area's derivation deletes a range's transfers first) and
 * the statistics from there up (supply, miners' rewards sum them): nothing is fetched, and a start killed midway asks
 * again, the rewards still stored. It gives the heights it asked for; undefined when the rules pay rewards or none
 * is stored. Reading the lowest height scans the transfers once per start, on a hyperchain only.
 */
export async function backfillUnpaidRewards(
  db: Queryable,
  rules: TransferRules,
): Promise<{ from: number; to: number } | undefined> {
  if (rules.rewards.paysBeneficiaries) return undefined;
  const from = await lowestKeyBlockTransfer(db, REWARD_KINDS);
  const to = from === undefined ? undefined : await topHeight(db);
  if (from === undefined || to === undefined) return undefined;
  await recordBackfill(db, 'transfers', from, to);
  await recordBackfill(db, 'stats', from, to);
  return { from, to };
}
