/**
 * @module The populator's start-up repair of the rows a failed inner GA transaction left (migration 1142, issue 88).
 * A populator before this release wrote a GAMetaTx's inner transaction's rows even where the node undid it, and
 * derived later heights' name, oracle and channel rows from that phantom state. The start reloads, as `mdw -H` does,
 * the heights holding such a transaction and the later heights holding an event of a name, oracle or channel one of
 * them named (or the transactions sent to such a name), then forgets them: a few heights, not the chain, before
 * the populator follows the head. A token's rows need no later height: its balances are kept by triggers that follow
 * a deleted event (1050), and a call, a contract or a listing is its own height's alone.
 */
import { mapLimit } from '../../base/workers.ts';
import { failedInner } from '../../chain/ga-outcome.ts';
import { stateIds } from '../../chain/tx-fields.ts';
import { renderStoredTx } from '../../chain/stored-tx.ts';
import {
  clearRepair,
  heightsNamingAfter,
  heightsSendingToAfter,
  listRepairHeights,
  namesAt,
  repairHeights,
  seedGaMetas,
} from '../../db/writes/repair-heights.ts';
import { SyncStatus } from '../../db/writes/sync-state.ts';
import { unlessGone } from '../../node/errors.ts';
import type { GaInfoReader } from '../derived/ga-calls.ts';
import type { JsonObject } from '../rows/rows.ts';
import { reloadWith, type ReloadDeps } from './reload-run.ts';

/** The repair's name in repair_heights. */
export const GA_FAILED_INNER = 'ga_failed_inner';

/** Infos asked at once, as the ga area asks them. */
const IN_FLIGHT = 64;

/**
 * repairFailedInner lists the heights to reload from the seeds migration 1142 recorded (asking the node the info of
 * each GA transaction there), reloads them in chain order and forgets them; an interrupted one goes on from the last
 * batch written. The heights reloaded, 0 when nothing was pending.
 */
export async function repairFailedInner(deps: ReloadDeps): Promise<number> {
  const { log, loader } = deps;
  const pending = await repairHeights(loader.pool, GA_FAILED_INNER);
  if (pending.seed.length === 0 && pending.reload.length === 0) return 0;
  let heights = pending.reload;
  if (pending.seed.length > 0) {
    heights = await listedHeights(deps);
    await listRepairHeights(loader.pool, GA_FAILED_INNER, heights);
  }
  if (heights.length > 0) {
    log.warn(
      { heights: heights.length, from: heights[0], to: heights.at(-1) },
      'reloading the heights a failed inner GA transaction left rows at, and the later ones derived from them',
    );
    await reloadWith(deps, heights, SyncStatus.CATCHING_UP);
  }
  await clearRepair(loader.pool, GA_FAILED_INNER);
  if (heights.length > 0) log.info({ heights: heights.length }, 'the failed inner GA transactions are repaired');
  return heights.length;
}

/**
 * listedHeights are the heights of the seeds' GA transactions whose inner transaction failed, and the later heights
 * whose rows derive from the names, oracles and channels those named (the inner transaction's own ids, and the names
 * its contract call's AENS calls acted on: their stored events at its position): their events, and the transactions
 * sent to such a name, listed under what it pointed at.
 */
async function listedHeights(deps: ReloadDeps): Promise<number[]> {
  const { log, loader } = deps;
  const metas = await seedGaMetas(loader.pool, GA_FAILED_INNER);
  const infos = await mapLimit(metas, IN_FLIGHT, async (meta) => {
    const tx = renderStoredTx(meta.signed).tx as JsonObject;
    const info = await gaInfo(loader.node, meta.hash, meta.height);
    return info === GONE ? GONE : failedInner(tx, info);
  });
  const gone = metas.filter((_, i) => infos[i] === GONE);
  const goneHeights = new Set(gone.map((m) => m.height));
  if (gone.length > 0) {
    // a reload of such a height could tell nothing more (the fetch takes a gone GA info as done): they are left
    // as stored, for an `mdw -H` with an archive node in NODE_URLS
    log.warn(
      { transactions: gone.map((m) => m.hash), heights: [...goneHeights] },
      'no node holds the info of these GA transactions (410): it alone tells whether their inner transaction took ' +
        'effect, and their heights cannot be reloaded without it; their heights are not repaired, run mdw -H over ' +
        'them with an archive node in NODE_URLS',
    );
  }
  const failed = metas.flatMap((meta, i) => {
    const inner = infos[i];
    return inner && inner !== GONE && !goneHeights.has(meta.height) ? [{ ...meta, inner }] : [];
  });
  const named = [
    ...failed.flatMap((f) => stateIds(f.inner).map((id) => ({ id, after: f.height }))),
    ...(await namesAt(loader.pool, failed)).map((n) => ({ id: n.name, after: n.height })),
  ];
  const later = [
    ...(await heightsNamingAfter(loader.pool, named)),
    ...(await heightsSendingToAfter(
      loader.pool,
      named.filter((n) => n.id.startsWith('nm_')),
    )),
  ];
  const heights = [...new Set([...failed.map((f) => f.height), ...later])]
    .filter((height) => !goneHeights.has(height))
    .sort((a, b) => a - b);
  log.info(
    { gaTransactions: metas.length, failedInner: failed.length, ids: named.length, heights: heights.length },
    'listed the heights a failed inner GA transaction left rows at',
  );
  return heights;
}

/** What gaInfo answers where no node holds the info any more (410): the outcome is unknown. */
const GONE = Symbol('gone');

/**
 * gaInfo is the node's info of the transaction `hash` at `height`, which tells whether its inner transaction took
 * effect; GONE where no node holds it. Asked even where a stored GA call tells the outcome: the reload of its height
 * would take one no node holds as done (fetch.ts), a stored failure included.
 */
async function gaInfo(node: GaInfoReader, hash: string, height: number): Promise<JsonObject | typeof GONE> {
  return (await unlessGone(node.transactionInfo(hash, height)))?.info ?? GONE;
}
