/** @module Read-side SQL for state channels. */
import type { Queryable } from '../pool.ts';
import { renderedTxJson, SIGNED_TX_JSON_COLUMNS, type TxJson, type Window } from './transactions.ts';

/** activeChannels pages the ids of channels that have no closing transaction, in id order. */
export async function activeChannels(db: Queryable, w: Window): Promise<string[]> {
  const { rows } = await db.query<{ channel_id: string }>(
    `SELECT channel_id FROM channel_events GROUP BY channel_id HAVING NOT bool_or(closes)
      ORDER BY channel_id LIMIT $1 OFFSET $2`,
    [w.limit, w.offset],
  );
  return rows.map((r) => r.channel_id);
}

/** channelTransactions pages a channel's on-chain transactions in chain order. */
export async function channelTransactions(db: Queryable, channelId: string, w: Window): Promise<TxJson[]> {
  const { rows } = await db.query<TxJson>(
    `SELECT ${SIGNED_TX_JSON_COLUMNS}
       FROM channel_events e JOIN transactions t ON t.hash = e.tx_hash
      WHERE e.channel_id = $1
      ORDER BY e.height, e.micro_index, e.tx_index LIMIT $2 OFFSET $3`,
    [channelId, w.limit, w.offset],
  );
  return renderedTxJson(rows);
}
