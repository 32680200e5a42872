/**
 * @module channel_events' state columns (migrations 1051, 1147) for the stored channel transactions: the transactions
 * of heights from..to with their stored forms, and the states the `channels` area folded for them.
 */
import type { Queryable } from '../connection/pool.ts';

/** A stored channel transaction: its channel, type, stored form and its micro block's height. */
export interface StoredChannelTx {
  readonly channelId: string;
  readonly height: number;
  readonly microIndex: number;
  readonly txIndex: number;
  readonly txType: string;
  readonly blockHeight: number;
  readonly signed: Buffer;
}

/** storedChannelTxs lists the channel transactions of heights from..to in chain order. */
export async function storedChannelTxs(db: Queryable, from: number, to: number): Promise<StoredChannelTx[]> {
  const { rows } = await db.query<StoredChannelTx>(
    `SELECT e.channel_id AS "channelId", e.height, e.micro_index AS "microIndex", e.tx_index AS "txIndex",
            e.tx_type AS "txType", t.signed,
            coalesce((SELECT (m.header->>'height')::int FROM micro_blocks m
                       WHERE m.height = e.height AND m.micro_index = e.micro_index), e.height) AS "blockHeight"
       FROM channel_events e
       JOIN transactions t ON t.height = e.height AND t.micro_index = e.micro_index AND t.tx_index = e.tx_index
      WHERE e.height BETWEEN $1 AND $2
      ORDER BY e.height, e.micro_index, e.tx_index`,
    [from, to],
  );
  return rows;
}

/** A channel's state after one of its transactions, as channel_events keeps it. */
export interface ChannelStateRow {
  readonly channelId: string;
  readonly height: number;
  readonly microIndex: number;
  readonly txIndex: number;
  readonly round: bigint;
  readonly soloRound: bigint;
  readonly stateHash: string | null;
  readonly initiatorAmount: bigint;
  readonly responderAmount: bigint;
  /** what it moved in or out of the channel's amount (a deposit, a withdrawal), null for another */
  readonly moved: string | null;
}

/**
 * writeChannelStates stores the states after channel transactions at their rows that have none (`mdw -v` derives them
 * again inside a transaction it rolls back: it writes, and locks, no row then); and a deposit's or withdrawal's amount
 * where its row has none (a wrapped one stored before migration 1147), which its channel's totals then count (their
 * triggers count a row's amount at its insert only).
 */
export async function writeChannelStates(db: Queryable, rows: readonly ChannelStateRow[]): Promise<void> {
  if (rows.length === 0) return;
  await db.query(
    `WITH u AS (
       SELECT * FROM unnest($1::text[], $2::int[], $3::int[], $4::int[], $5::numeric[], $6::numeric[], $7::text[],
                            $8::numeric[], $9::numeric[], $10::numeric[])
         AS u(channel_id, height, micro_index, tx_index, round, solo_round, state_hash, initiator_amount,
              responder_amount, moved)),
     filled AS (
       SELECT e.channel_id, sum(u.moved) FILTER (WHERE e.tx_type = 'ChannelDepositTx') AS deposited,
              sum(u.moved) FILTER (WHERE e.tx_type = 'ChannelWithdrawTx') AS withdrawn
         FROM channel_events e
         JOIN u ON e.channel_id = u.channel_id AND e.height = u.height AND e.micro_index = u.micro_index
               AND e.tx_index = u.tx_index
        WHERE e.round IS NULL AND e.amount IS NULL AND u.moved IS NOT NULL
        GROUP BY e.channel_id),
     totals AS (
       UPDATE channel_totals k SET deposited = k.deposited + coalesce(f.deposited, 0),
                                   withdrawn = k.withdrawn + coalesce(f.withdrawn, 0)
         FROM filled f WHERE k.channel_id = f.channel_id)
     UPDATE channel_events e SET round = u.round, solo_round = u.solo_round, state_hash = u.state_hash,
                                 initiator_amount = u.initiator_amount, responder_amount = u.responder_amount,
                                 amount = coalesce(e.amount, u.moved)
       FROM u
      WHERE e.channel_id = u.channel_id AND e.height = u.height AND e.micro_index = u.micro_index
        AND e.tx_index = u.tx_index AND e.round IS NULL`,
    [
      rows.map((r) => r.channelId),
      rows.map((r) => r.height),
      rows.map((r) => r.microIndex),
      rows.map((r) => r.txIndex),
      rows.map((r) => r.round.toString()),
      rows.map((r) => r.soloRound.toString()),
      rows.map((r) => r.stateHash),
      rows.map((r) => r.initiatorAmount.toString()),
      rows.map((r) => r.responderAmount.toString()),
      rows.map((r) => r.moved),
    ],
  );
}
