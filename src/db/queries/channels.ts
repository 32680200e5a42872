/**
 * @module Read-side SQL for state channels from channel_events: the original's open channels and a channel's
 * transactions, and ae_mdw's channels with their create tx, latest tx, updates and amounts.
 */
import type { Json } from '../../chain/json.ts';
import { renderStoredTx } from '../../chain/stored-tx.ts';
import type { Queryable } from '../pool.ts';
import { keyset, type Walk } from './positions.ts';
import type { TxPosition } from './transaction-filter.ts';
import { withTxObjects } from './stored-tx-json.ts';
import {
  microBlockHashSql,
  renderedTxJson,
  SIGNED_TX_JSON_COLUMNS,
  txTypeNameSql,
  type TxJson,
  type Window,
} from './transactions.ts';

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

/** A channel's transaction as stored (the outer one when wrapped), its own type and its micro block's height. */
export interface ChannelTxRow {
  readonly type: string;
  readonly blockHeight: number;
  readonly tx: { [key: string]: Json };
}

/** A channel: its creation, its latest transaction, all of them, and what they moved. */
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
   * its transactions in chain order, from which its round, solo round and state hash follow (a payload's state, a
   * chain of forced states: not the latest transaction alone); on-chain channels take few transactions
   */
  readonly txs: readonly ChannelTxRow[];
  readonly updatesCount: number;
  readonly deposited: string;
  readonly withdrawn: string;
}

// The channels a statement reads: every one, or the one whose id is $1.
const CHANNEL_IDS = {
  all: 'SELECT DISTINCT channel_id FROM channel_events',
  one: 'SELECT DISTINCT channel_id FROM channel_events WHERE channel_id = $1',
} as const;

/** microBlockHeightSql is the height of the micro block of the transaction `x` (a channel_events row), see `last`. */
function microBlockHeightSql(x: string): string {
  return `coalesce((SELECT (m.header->>'height')::int FROM micro_blocks m
                     WHERE m.height = ${x}.height AND m.micro_index = ${x}.micro_index), ${x}.height)`;
}

/** txsSql is the transactions of the channel of each row of `s` (a channelSql), read for the rows answered only. */
function txsSql(s: string): string {
  return `SELECT ${s}.*, (SELECT json_agg(json_build_object('type', x.tx_type, 'blockHeight', ${microBlockHeightSql('x')},
                                               'tx', encode(t.signed, 'hex'))
                            ORDER BY x.height, x.micro_index, x.tx_index)
                    FROM channel_events x JOIN transactions t ON t.hash = x.tx_hash
                   WHERE x.channel_id = ${s}."channelId") AS txs`;
}

// One row per channel of `ids`.
function channelSql(ids: keyof typeof CHANNEL_IDS): string {
  return `SELECT c.channel_id AS "channelId", NOT EXISTS (SELECT 1 FROM channel_events x WHERE x.channel_id = c.channel_id AND x.closes) AS active,
    EXISTS (SELECT 1 FROM channel_events x WHERE x.channel_id = c.channel_id AND x.tx_type = 'ChannelCloseSoloTx') AS "soloClosed",
    ct.signed AS "createTx",
    (SELECT t.signed FROM channel_events x JOIN transactions t ON t.hash = x.tx_hash
      WHERE x.channel_id = c.channel_id AND x.tx_type = 'ChannelSetDelegatesTx'
      ORDER BY x.height DESC, x.micro_index DESC, x.tx_index DESC LIMIT 1) AS "delegatesTx",
    json_build_object('height', lt.height, 'microIndex', lt.micro_index, 'txIndex', lt.tx_index, 'txHash', lt.hash,
                      'blockHeight', ${microBlockHeightSql('lt')},
                      'txType', ${txTypeNameSql('lt')}, 'updateType', lt.update_type, 'timeMs', lt.micro_time_ms::text) AS last,
    (SELECT count(*) FROM channel_events x WHERE x.channel_id = c.channel_id)::int AS "updatesCount",
    (SELECT coalesce(sum(t.channel_amount), 0)::text FROM channel_events x JOIN transactions t ON t.hash = x.tx_hash
      WHERE x.channel_id = c.channel_id AND x.tx_type = 'ChannelDepositTx') AS deposited,
    (SELECT coalesce(sum(t.channel_amount), 0)::text FROM channel_events x JOIN transactions t ON t.hash = x.tx_hash
      WHERE x.channel_id = c.channel_id AND x.tx_type = 'ChannelWithdrawTx') AS withdrawn
  FROM (${CHANNEL_IDS[ids]}) c
  CROSS JOIN LATERAL (SELECT t.signed FROM channel_events x JOIN transactions t ON t.hash = x.tx_hash
                       WHERE x.channel_id = c.channel_id ORDER BY x.height, x.micro_index, x.tx_index LIMIT 1) ct
  CROSS JOIN LATERAL (SELECT t.*, x.tx_type AS update_type FROM channel_events x JOIN transactions t ON t.hash = x.tx_hash
                       WHERE x.channel_id = c.channel_id ORDER BY x.height DESC, x.micro_index DESC, x.tx_index DESC LIMIT 1) lt`;
}

/** A channel as selected: the create tx's stored form, its transactions' in hex (inside JSON). */
type StoredChannelRow = Omit<ChannelRow, 'createTx' | 'delegatesTx' | 'txs'> & {
  createTx: Buffer;
  delegatesTx: Buffer | null;
  txs: (Omit<ChannelTxRow, 'tx'> & { tx: string })[];
};

/** rendered renders a channel's transactions from their stored forms. */
function rendered(r: StoredChannelRow): ChannelRow {
  return {
    ...r,
    createTx: renderStoredTx(r.createTx).tx,
    delegatesTx: r.delegatesTx ? renderStoredTx(r.delegatesTx).tx : undefined,
    txs: r.txs.map((u) => ({ ...u, tx: renderStoredTx(Buffer.from(u.tx, 'hex')).tx })),
  };
}

/** Channel list key: the position of its latest transaction. */
export type ChannelKey = TxPosition & { channelId: string };

/** channelsPage reads up to n channels (active: not closed) by their latest transaction, walking from a key. */
export async function channelsPage(
  db: Queryable,
  state: 'active' | 'inactive' | undefined,
  walk: Walk,
  from: ChannelKey | undefined,
  n: number,
): Promise<ChannelRow[]> {
  const values: unknown[] = [n];
  if (from) values.push(from.height, from.microIndex, from.txIndex, from.channelId);
  const cols = [
    "(s.last->>'height')::int",
    "(s.last->>'microIndex')::int",
    "(s.last->>'txIndex')::int",
    's."channelId"',
  ];
  const ks = keyset(cols, walk, from ? '$2::int, $3::int, $4::int, $5::text' : undefined);
  const filter = state === 'active' ? 's.active' : state === 'inactive' ? 'NOT s.active' : 'true';
  const { rows } = await db.query<StoredChannelRow>(
    `${txsSql('s')} FROM (SELECT * FROM (${channelSql('all')}) s WHERE ${filter} AND ${ks.where} ORDER BY ${ks.order} LIMIT $1) s
      ORDER BY ${ks.order}`,
    values,
  );
  return rows.map(rendered);
}

/** channelById reads one channel. */
export async function channelById(db: Queryable, channelId: string): Promise<ChannelRow | undefined> {
  const { rows } = await db.query<StoredChannelRow>(`${txsSql('s')} FROM (${channelSql('one')}) s`, [channelId]);
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
export async function channelUpdatesPage(
  db: Queryable,
  channelId: string,
  walk: Walk,
  from: TxPosition | undefined,
  n: number,
): Promise<ChannelUpdateRow[]> {
  const values: unknown[] = [channelId, n];
  if (from) values.push(from.height, from.microIndex, from.txIndex);
  const ks = keyset(['x.height', 'x.micro_index', 'x.tx_index'], walk, from ? '$3::int, $4::int, $5::int' : undefined);
  const { rows } = await db.query(
    `SELECT t.height, t.micro_index AS "microIndex", t.tx_index AS "txIndex", ${microBlockHashSql('t')} AS "blockHash",
            t.hash AS "txHash", ${txTypeNameSql('t')} AS "txType", x.tx_type AS "updateType", t.signed AS tx
       FROM channel_events x
       JOIN transactions t ON t.height = x.height AND t.micro_index = x.micro_index AND t.tx_index = x.tx_index
      WHERE x.channel_id = $1 AND ${ks.where} ORDER BY ${ks.order} LIMIT $2`,
    values,
  );
  return withTxObjects<ChannelUpdateRow>(rows, 'tx');
}
