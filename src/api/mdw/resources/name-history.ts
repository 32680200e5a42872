/**
 * @module /v3/names/{id}/history: everything that happened to a name, as ae_mdw lists it: its claims and bids,
 * updates, transfers and revokes (each as in /claims, /updates, /transfers), and each registration that expired,
 * `{active_from, expired_at}`, in chain order.
 */
import { topHeight } from '../../../db/queries/blocks.ts';
import {
  nameByHash,
  nameEventsPage,
  nameExpiries,
  type NameEventRow,
  type NameExpiryRow,
} from '../../../db/queries/names.ts';
import { comparePositions, type TxPosition, type KeyWindow } from '../../../db/queries/positions.ts';
import { nameEventObject } from '../../../shapes/v3/render-names.ts';
import { cursorCodec, type CursorCodec } from './cursors.ts';
import { v3BadRequest, v3NotFound } from './mdw-errors.ts';
import { listPage } from './list.ts';
import { nameHashOf } from './names.ts';
import { page, resource } from './resource.ts';
import { parseNonNegative, parsePaging } from './mdw-params.ts';

/** The events a name's history lists (every kind of name_events). */
const HISTORY_KINDS = ['claim', 'bid', 'update', 'transfer', 'revoke'];

/** An item of the history: a transaction's event, or an expiry at key-block level (micro and tx index −1). */
type HistoryItem = { readonly key: TxPosition; readonly event: NameEventRow } | ExpiryItem;
type ExpiryItem = { readonly key: TxPosition; readonly expiry: NameExpiryRow };

/** HISTORY_CURSOR: a transaction's `<height>-<micro index>-<tx index>`, or an expiry's `<height>`. */
export const HISTORY_CURSOR: CursorCodec<TxPosition> = cursorCodec({
  encode: (p) => (p.microIndex < 0 ? String(p.height) : `${p.height}-${p.microIndex}-${p.txIndex}`),
  decode(text) {
    if (text === undefined) return undefined;
    const parts = text.split('-').map(parseNonNegative);
    if ((parts.length !== 3 && parts.length !== 1) || parts.some((n) => n === undefined))
      throw v3BadRequest(`invalid cursor: ${text}`);
    return parts.length === 1
      ? { height: parts[0]!, microIndex: -1, txIndex: -1 }
      : { height: parts[0]!, microIndex: parts[1]!, txIndex: parts[2]! };
  },
});

/**
 * historyPage merges up to n of a name's events from `from` (inclusive) with its expiries (a few per name, all read)
 * in the walk's order, and keeps the first n. Pure.
 */
export function historyPage(
  events: readonly NameEventRow[],
  expiries: readonly NameExpiryRow[],
  { walk, from, n }: KeyWindow<TxPosition>,
): HistoryItem[] {
  const sign = walk === 'forward' ? 1 : -1;
  const expired: ExpiryItem[] = expiries.map((expiry) => ({
    key: { height: expiry.expiredAt, microIndex: -1, txIndex: -1 },
    expiry,
  }));
  const items: HistoryItem[] = [
    ...events.map((event) => ({
      key: { height: event.height, microIndex: event.microIndex, txIndex: event.txIndex },
      event,
    })),
    ...expired.filter((x) => from === undefined || sign * comparePositions(x.key, from) >= 0),
  ];
  return items.sort((a, b) => sign * comparePositions(a.key, b.key)).slice(0, n);
}

/** getNameHistory: a name's history, newest first by default; 404 for a name never claimed. */
export const getNameHistory = resource(page('NameHistoryItem'), async ({ pool }, req) => {
  const paging = parsePaging(req.query);
  const hash = nameHashOf(req.params.id!);
  if (!(await nameByHash(pool, hash))) throw v3NotFound(req.params.id!);
  const expiries = await nameExpiries(pool, hash, (await topHeight(pool)) ?? -1);
  return listPage(paging, {
    cursor: HISTORY_CURSOR,
    read: async (window) =>
      historyPage(await nameEventsPage(pool, { nameHash: hash, kinds: HISTORY_KINDS }, window), expiries, window),
    key: (item) => item.key,
    render: (items) =>
      items.map((item) =>
        'event' in item
          ? nameEventObject(item.event)
          : { active_from: item.expiry.activeFrom, expired_at: item.expiry.expiredAt },
      ),
  });
});
