/** @module /v3/channels: channels by their latest transaction, and one channel's state. */
import { isEncoded } from '../../../chain/encoding.ts';
import { type Json } from '../../../chain/json.ts';
import { ownTx } from '../../../chain/tx-fields.ts';
import { jsonInt } from '../../../chain/tx-parse.ts';
import {
  channelById,
  channelExists,
  channelsPage,
  channelUpdatesPage,
  type ChannelKey,
  type ChannelRow,
  type ChannelUpdateRow,
} from '../../../db/queries/channels.ts';
import { POSITION_CURSOR, positionMatched, cursorCodec, type CursorCodec } from './cursors.ts';
import { v3BadRequest, v3NotFound } from './mdw-errors.ts';
import { listPage } from './list.ts';
import { oneObject, page, resource } from './resource.ts';
import { one, parseActiveState, parseId, parsePaging } from './mdw-params.ts';
import { sourceTxFields, txBody } from '../../../shapes/v3/render-source-tx.ts';
import type { ShapeValue } from '../../../shapes/shape-table.ts';
import { CHANNEL, CHANNEL_UPDATE } from '../../../shapes/v3/shapes-channels.ts';

export const CHANNEL_CURSOR: CursorCodec<ChannelKey> = cursorCodec({
  encode: (k) => `${k.height}-${k.microIndex}-${k.txIndex}-${k.channelId}`,
  decode(text) {
    if (text === undefined) return undefined;
    const match = /^(\d{1,10})-(\d{1,10})-(\d{1,10})-(ch_\w+)$/.exec(text);
    if (!match || !isEncoded(match[4]!, ['ch'])) throw v3BadRequest(`invalid cursor: ${text}`);
    return { ...positionMatched(match), channelId: match[4]! };
  },
});

/** channelObject is ae_mdw's Channel from the create tx, the latest tx, the state kept after it and the amounts moved. Pure. */
export function channelObject(c: ChannelRow): Record<string, Json> {
  const create = c.createTx;
  const state = c.state;
  const big = (v: Json | undefined): bigint => BigInt(String(v ?? 0));
  const created = [big(create.initiator_amount), big(create.responder_amount)] as const;
  return {
    channel: c.channelId,
    active: c.active,
    amount: created[0] + created[1] + BigInt(c.deposited) - BigInt(c.withdrawn),
    channel_reserve: big(create.channel_reserve),
    initiator: create.initiator_id ?? null,
    responder: create.responder_id ?? null,
    // the node's on-chain amounts (a deposit or withdrawal moves `amount` only); the creation's while not derived
    initiator_amount: state ? state.initiatorAmount : created[0],
    responder_amount: state ? state.responderAmount : created[1],
    delegate_ids: delegateIds(c),
    last_updated_height: c.last.height,
    last_updated_time: Number(c.last.timeMs),
    last_updated_tx_hash: c.last.txHash,
    last_updated_tx_type: c.last.txType,
    lock_period: create.lock_period ?? null,
    locked_until: lockedUntil(c),
    // unknown (null) only while the channels area derives the rows stored before migration 1051
    round: state && jsonInt(state.round),
    solo_round: state && jsonInt(state.soloRound),
    state_hash: state && state.stateHash,
    updates_count: c.updatesCount,
  };
}

/** LOCKING_TXS set a closing channel's lock: a solo close starts it, a slash restarts it. */
const LOCKING_TXS: ReadonlySet<string> = new Set(['ChannelCloseSoloTx', 'ChannelSlashTx']);

/**
 * lockedUntil is the height from which a solo-closed channel can be settled, 0 while it is open. The node sets it at
 * each solo close, slash and force progress of a closing channel (aesc_channels close_solo_int, force_progress) to that
 * transaction's micro block height (the next one on a hyperchain) plus the lock period. A closing channel takes no
 * other transaction but the settle or mutual close that end it (deposits, withdrawals, snapshots and delegates need an
 * active one), so until it ends its latest transaction is the one that set the lock. Pure.
 */
export function lockedUntil(c: ChannelRow): number {
  const type = c.last.updateType;
  const locks = LOCKING_TXS.has(type) || (type === 'ChannelForceProgressTx' && c.soloClosed);
  return locks ? c.last.blockHeight + Number(c.createTx.lock_period ?? 0) : 0;
}

/** delegateIds are a channel's delegates: as its latest ChannelSetDelegatesTx (since Iris) names them, else its creation. */
function delegateIds(c: ChannelRow): Json {
  const set = c.delegatesTx && ownTx(c.delegatesTx, 'ChannelSetDelegatesTx');
  if (set) return { initiator: set.initiator_delegate_ids ?? [], responder: set.responder_delegate_ids ?? [] };
  return c.createTx.delegate_ids ?? { initiator: [], responder: [] };
}

/** getChannels: channels by their latest transaction, of a state when one is given (both otherwise, as ae_mdw). */
export const getChannels = resource(page(CHANNEL), async ({ pool }, req) => {
  const paging = parsePaging(req.query);
  const state = parseActiveState(one(req.query.state));
  return listPage(paging, {
    cursor: CHANNEL_CURSOR,
    read: (window) => channelsPage(pool, state, window),
    key: (c) => ({ ...c.last, channelId: c.channelId }),
    render: (rows) => rows.map((c) => channelObject(c)),
  });
});

/** getChannel: a channel's state. */
export const getChannel = oneObject(CHANNEL, (p) => parseId(p.id, ['ch']), channelById, channelObject);

/** getChannelUpdates: a channel's transactions, its creation first (the explorer reads the creation this way). */
export const getChannelUpdates = resource(page(CHANNEL_UPDATE), async ({ pool }, req) => {
  const paging = parsePaging(req.query);
  const id = parseId(req.params.id, ['ch']);
  if (!(await channelExists(pool, id))) throw v3NotFound(id);
  return listPage(paging, {
    cursor: POSITION_CURSOR,
    read: (window) => channelUpdatesPage(pool, id, window),
    key: (u) => ({ height: u.height, microIndex: u.microIndex, txIndex: u.txIndex }),
    render: (rows) => rows.map((u) => channelUpdateObject(id, u)),
  });
});

/** channelUpdateObject is ae_mdw's ChannelUpdate: the channel transaction (unwrapped) and its source. Pure. */
export function channelUpdateObject(channelId: string, u: ChannelUpdateRow): Record<string, Json> {
  const update = ownTx(u.tx, u.updateType) ?? u.tx;
  return { channel: channelId, tx_type: u.updateType, ...sourceTxFields(u), tx: txBody(update) } satisfies ShapeValue<
    typeof CHANNEL_UPDATE
  >;
}
