/**
 * @module The `channels` area: the state after each channel transaction stored before the writer kept it (migrations
 * 1051, 1147), folded from its channel's state before the heights, as the writer folds a batch's (chain-state.ts); and
 * what a wrapped deposit or withdrawal moved, which rows stored before 1147 lack.
 */
import { renderStoredTx } from '../../chain/stored-tx.ts';
import { ownTx } from '../../chain/tx-fields.ts';
import type { Queryable } from '../../db/connection/pool.ts';
import { priorChannelStates } from '../../db/queries/state-events.ts';
import { storedChannelTxs, writeChannelStates, type ChannelStateRow } from '../../db/writes/channel-states.ts';
import { foldChannelEvents } from '../rows/chain-state.ts';
import { movedAmount } from '../rows/tx-rows.ts';

/** deriveChannelStates stores the state after each channel transaction of heights from..to (the backfill's order). */
export async function deriveChannelStates(db: Queryable, from: number, to: number): Promise<void> {
  const txs = (await storedChannelTxs(db, from, to)).map((t) => {
    const tx = renderStoredTx(t.signed).tx;
    return { ...t, update: { tx: ownTx(tx, t.txType) ?? tx, height: t.blockHeight } };
  });
  const prior = await priorChannelStates(db, [...new Set(txs.map((t) => t.channelId))], {
    height: from,
    microIndex: 0,
  });
  const rows: ChannelStateRow[] = [];
  for (const t of foldChannelEvents(prior, txs))
    if (t.state !== null)
      rows.push({
        channelId: t.channelId,
        height: t.height,
        microIndex: t.microIndex,
        txIndex: t.txIndex,
        moved: movedAmount(t.update.tx),
        ...t.state,
      });
  await writeChannelStates(db, rows);
}
