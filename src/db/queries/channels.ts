/**
 * @module Read-side SQL for state channels from channel_events: the original's open channels and a channel's
 * transactions, and ae_mdw's channels with their create tx, latest tx, updates and amounts.
 */
import type { ChannelState } from '../../chain/channel-state.ts';
import type { Json } from '../../chain/json.ts';
import { renderStoredTx } from '../../chain/stored-tx.ts';
import type { Queryable } from '../connection/pool.ts';
import { keyset, positionKeyset, type PageReader, type TxPosition } from './positions.ts';
import { withTxObjects } from './stored-tx-json.ts';
import { microBlockHashSql, renderedTxJson, SIGNED_TX_JSON_COLUMNS, txTypeNameSql } from './transactions.ts';
import type { TxJson, Window } from './transactions.ts';

/** activeChannels pages the ids of channels that have no closing transaction, in id order. */
export async function activeChannels(db: Queryable, w: Window): Promise<string[]> {
  const { rows } = await db.query<{ channel_id: string }>(
    `SELECT channel_id FROM channel_totals WHERE closes = 0 ORDER BY channel_id LIMIT $1 OFFSET $2`,
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

/** A channel: its creation, its latest transaction, its state after it, and what its transactions moved. */
export interface ChannelRow {
  readonly channelId: string;
  readonly active: boolean;
  /** a ChannelCloseSoloTx is among its transactions: it is closing since (until settled or closed mutually) */
  readonly soloClosed: boolean;
  readonly createTx: { [key: string]: Json };
  /** its latest ChannelSetDelegatesTx (as stored: the outer tx when wrapped), which names its delegates since */
  readonly delegatesTx: { [key: string]: Json } | undefined;
  /**
   * its latest transaction; `blockHeight` is its micro block's height, from which the node counts a lock period: the
   * generation's, but the next on a hyperchain (the row keeps the header's height when it differs); `updateType` is
   * the channel transaction's own type, `txType` the outer one's when it is wrapped
   */
  readonly last: TxPosition & {
    blockHeight: number;
    txHash: string;
    txType: string;
    updateType: string;
    timeMs: string;
  };
  /**
   * its state after its latest transaction (round, solo round, state hash, the parties' on-chain amounts), kept on that
   * row (migrations 1051, 1147); null while the channels area has not derived it for a row stored before
   */
  readonly state: ChannelState | null;
  readonly updatesCount: number;
  readonly deposited: string;
  readonly withdrawn: string;
}

/** microBlockHeightSql is the height of the micro block of the transaction `x` (a channel_events row), see `last`. */
function microBlockHeightSql(x: string): string {
  return `coalesce((SELECT (m.header->>'height')::int FROM micro_blocks m
                     WHERE m.height = ${x}.height AND m.micro_index = ${x}.micro_index), ${x}.height)`;
}

/**
 * channelSql is one row per channel of `source` (channel_totals rows, migration 1051, as `k`): probes of its first
 * transaction, its latest (with the state after it) and its latest delegates change; never a fold of its transactions.
 */
function channelSql(source: string): string {
  const k = 'k';
  return `SELECT ${k}.channel_id AS "channelId", ${k}.closes = 0 AS active, ${k}.solo_closes > 0 AS "soloClosed",
    (SELECT t.signed FROM channel_events x
       JOIN transactions t ON t.height = x.height AND t.micro_index = x.micro_index AND t.tx_index = x.tx_index
      WHERE x.channel_id = ${k}.channel_id ORDER BY x.height, x.micro_index, x.tx_index LIMIT 1) AS "createTx",
    (SELECT t.signed FROM channel_events x
       JOIN transactions t ON t.height = x.height AND t.micro_index = x.micro_index AND t.tx_index = x.tx_index
      WHERE x.channel_id = ${k}.channel_id AND x.tx_type = 'ChannelSetDelegatesTx'
      ORDER BY x.height DESC, x.micro_index DESC, x.tx_index DESC LIMIT 1) AS "delegatesTx",
    json_build_object('height', lt.height, 'microIndex', lt.micro_index, 'txIndex', lt.tx_index, 'txHash', lt.hash,
                      'blockHeight', ${microBlockHeightSql('lt')},
                      'txType', ${txTypeNameSql('lt')}, 'updateType', lt.update_type, 'timeMs', lt.micro_time_ms::text) AS last,
    lt.round::text AS round, lt.solo_round::text AS "soloRound", lt.state_hash AS "stateHash",
    lt.initiator_amount::text AS "initiatorAmount", lt.responder_amount::text AS "responderAmount",
    ${k}.updates AS "updatesCount", ${k}.deposited::text AS deposited, ${k}.withdrawn::text AS withdrawn
  FROM (${source}) k
  CROSS JOIN LATERAL (SELECT t.*, x.tx_type AS update_type, x.round, x.solo_round, x.state_hash, x.initiator_amount,
                             x.responder_amount FROM channel_events x
                        JOIN transactions t ON t.height = x.height AND t.micro_index = x.micro_index AND t.tx_index = x.tx_index
                       WHERE x.channel_id = ${k}.channel_id AND x.height = ${k}.last_height
                         AND x.micro_index = ${k}.last_micro_index AND x.tx_index = ${k}.last_tx_index) lt`;
}

/** A channel as selected: the create and delegates txs' stored forms, the state's columns. */
type StoredChannelRow = Omit<ChannelRow, 'createTx' | 'delegatesTx' | 'state'> & {
  createTx: Buffer;
  delegatesTx: Buffer | null;
  round: string | null;
  soloRound: string | null;
  stateHash: string | null;
  initiatorAmount: string | null;
  responderAmount: string | null;
};

/** rendered renders a channel's transactions from their stored forms. */
function rendered({
  round,
  soloRound,
  stateHash,
  initiatorAmount,
  responderAmount,
  ...r
}: StoredChannelRow): ChannelRow {
  return {
    ...r,
    createTx: renderStoredTx(r.createTx).tx,
    delegatesTx: r.delegatesTx ? renderStoredTx(r.delegatesTx).tx : undefined,
    state:
      round === null
        ? null
        : {
            round: BigInt(round),
            soloRound: BigInt(soloRound ?? 0),
            stateHash,
            initiatorAmount: BigInt(initiatorAmount ?? 0),
            responderAmount: BigInt(responderAmount ?? 0),
          },
  };
}

/** Channel list key: the position of its latest transaction. */
export type ChannelKey = TxPosition & { channelId: string };

/** channelsPage reads up to n channels (active: not closed) by their latest transaction, walking from a key. */
export const channelsPage: PageReader<'active' | 'inactive' | undefined, ChannelKey, ChannelRow> = async (
  db,
  state,
  { walk, from, n },
) => {
  const values: unknown[] = [n];
  if (from) values.push(from.height, from.microIndex, from.txIndex, from.channelId);
  const ks = keyset(
    ['k.last_height', 'k.last_micro_index', 'k.last_tx_index', 'k.channel_id'],
    walk,
    from ? '$2::int, $3::int, $4::int, $5::text' : undefined,
  );
  // the partial indexes of channel_totals (migration 1051) walk each state's channels in this order
  const filter = state === 'active' ? 'k.closes = 0' : state === 'inactive' ? 'k.closes > 0' : 'true';
  const { rows } = await db.query<StoredChannelRow>(
    `${channelSql(`SELECT * FROM channel_totals k WHERE ${filter} AND ${ks.where} ORDER BY ${ks.order} LIMIT $1`)}
      ORDER BY ${ks.order}`,
    values,
  );
  return rows.map(rendered);
};

/** channelById reads one channel. */
export async function channelById(db: Queryable, channelId: string): Promise<ChannelRow | undefined> {
  const { rows } = await db.query<StoredChannelRow>(
    channelSql('SELECT * FROM channel_totals k WHERE k.channel_id = $1'),
    [channelId],
  );
  return rows[0] && rendered(rows[0]);
}

/** channelExists is whether a channel has a stored transaction: a probe, where channelById folds all of them. */
export async function channelExists(db: Queryable, channelId: string): Promise<boolean> {
  const { rows } = await db.query('SELECT 1 FROM channel_events WHERE channel_id = $1 LIMIT 1', [channelId]);
  return rows.length > 0;
}

/** A channel's transaction (an update, in ae_mdw's words) with its block; `tx` is the outer transaction. */
export interface ChannelUpdateRow extends TxPosition {
  readonly blockHash: string;
  readonly txHash: string;
  readonly txType: string;
  /** the channel transaction's own type (the outer one's when not wrapped) */
  readonly updateType: string;
  readonly tx: { [key: string]: Json };
}

/** channelUpdatesPage reads up to n of a channel's transactions walking from a position (its primary key). */
export const channelUpdatesPage: PageReader<string, TxPosition, ChannelUpdateRow> = async (db, channelId, window) => {
  const ks = positionKeyset('x', window, 3);
  const { rows } = await db.query(
    `SELECT t.height, t.micro_index AS "microIndex", t.tx_index AS "txIndex", ${microBlockHashSql('t')} AS "blockHash",
            t.hash AS "txHash", ${txTypeNameSql('t')} AS "txType", x.tx_type AS "updateType", t.signed AS tx
       FROM channel_events x
       JOIN transactions t ON t.height = x.height AND t.micro_index = x.micro_index AND t.tx_index = x.tx_index
      WHERE x.channel_id = $1 AND ${ks.where} ORDER BY ${ks.order} LIMIT $2`,
    [channelId, window.n, ...ks.values],
  );
  return withTxObjects<ChannelUpdateRow>(rows, 'tx');
};
