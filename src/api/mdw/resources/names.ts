/** @module /v3/names: names (active, inactive, in auction) from name_state, their claims, transfers and updates, and pointees. */
import { isEncoded } from '../../../chain/encoding.ts';
import { isNameText, nameId } from '../../../chain/derived-ids.ts';
import type { Json } from '../../../chain/json.ts';
import type { Pool } from '../../../db/connection/pool.ts';
import { keyBlockTimes, topHeight } from '../../../db/queries/blocks.ts';
import {
  accountClaimsPage,
  countActiveNames,
  nameByHash,
  nameEventsPage,
  namesPage,
  pointeesPage,
  type NameKey,
  type NameOrder,
  type NameStateRow,
} from '../../../db/queries/names.ts';
import type { TxPosition } from '../../../db/queries/positions.ts';
import { transactionsByHashes } from '../../../db/queries/transactions.ts';
import { POSITION_CURSOR, cursorCodec, type CursorCodec } from './cursors.ts';
import { v3BadRequest, v3NotFound } from './mdw-errors.ts';
import { listPage } from './list.ts';
import { page, resource, type Item, type ItemsPage, type ResourceRequest, type V3Env } from './resource.ts';
import { one, parseActiveState, parseId, parsePaging } from './mdw-params.ts';
import {
  auctionObject,
  isInAuction,
  nameEventObject,
  nameObject,
  pointeeObject,
  type ChainClock,
} from '../../../shapes/v3/render-names.ts';
import { transactionObject } from '../../../shapes/v3/render-tx.ts';
import { NAME, AUCTION, NAME_EVENT, POINTEE } from '../../../shapes/v3/shapes-names.ts';

const ORDERS: ReadonlySet<string> = new Set(['activation', 'deactivation', 'name']);

/**
 * nameCursor: `<height>-<name>` for the height orders, the name alone by name. A name ends with its registrar
 * (`.chain`, or `.test` before Lima), so a text with anything after it is no cursor of ours.
 */
export function nameCursor(order: NameOrder): CursorCodec<NameKey> {
  return cursorCodec({
    encode: (k) => (order === 'name' ? k.name : `${k.height ?? 0}-${k.name}`),
    decode(text) {
      if (text === undefined) return undefined;
      const match = (order === 'name' ? /^()(.+\.(?:chain|test))$/ : /^(\d{1,10})-(.+\.(?:chain|test))$/).exec(text);
      if (!match) throw v3BadRequest(`invalid cursor: ${text}`);
      return order === 'name' ? { name: match[2]! } : { height: Number(match[1]), name: match[2]! };
    },
  });
}

/** getNames: names by activation, deactivation or name, of a state, an owner, a prefix. */
export const getNames = resource(page(NAME), async ({ pool }, req) => {
  const paging = parsePaging(req.query);
  const by = one(req.query.by) ?? 'activation';
  if (!ORDERS.has(by)) throw v3BadRequest(`invalid query: by=${by}`);
  const state = parseActiveState(one(req.query.state));
  const ownedBy = req.query.owned_by === undefined ? undefined : parseId(one(req.query.owned_by), ['ak']);
  const prefix = one(req.query.prefix)?.toLowerCase();
  const top = (await topHeight(pool)) ?? -1;
  const order = by as NameOrder;
  const filter = { state, ownedBy, prefix, top, order };
  return listPage(paging, {
    cursor: nameCursor(order),
    read: (window) => namesPage(pool, filter, window),
    key: (row) => keyOf(row, order),
    render: (rows) => nameItems(pool, rows, top, 'name'),
  });
});

/** getNamesCount: the active names, of an owner. */
export const getNamesCount = resource('integer', async ({ pool }, req) => {
  const ownedBy = req.query.owned_by === undefined ? undefined : parseId(one(req.query.owned_by), ['ak']);
  return countActiveNames(pool, (await topHeight(pool)) ?? -1, ownedBy);
});

/** getNamesAuctions: the names in auction by their auction's end. */
export const getNamesAuctions = resource(page(AUCTION), async ({ pool }, req) => {
  const paging = parsePaging(req.query);
  const top = (await topHeight(pool)) ?? -1;
  return listPage(paging, {
    cursor: nameCursor('activation'),
    read: (window) => namesPage(pool, { inAuction: true, top, order: 'activation' }, window),
    key: (row) => keyOf(row, 'activation'),
    render: (rows) => nameItems(pool, rows, top, 'auction'),
  });
});

/** getNameAuction: a name in auction. */
export const getNameAuction = resource(AUCTION, async ({ pool }, req) => {
  const top = (await topHeight(pool)) ?? -1;
  const row = await nameByHash(pool, nameHashOf(req.params.id!));
  if (!row || !isInAuction(row, top)) throw v3NotFound(req.params.id!);
  return (await nameItems(pool, [row], top, 'auction'))[0]!;
});

/**
 * getName: a name by name or nm_ hash. A name that is only in auction, never registered before, is not a name yet: 404,
 * as ae_mdw answers (it looks in its active and inactive names, and the auction is at /names/auctions/{id}); the
 * explorer then reads the auction. A name auctioned again after an earlier registration is still served.
 */
export const getName = resource(NAME, async ({ pool }, req) => {
  const row = await nameByHash(pool, nameHashOf(req.params.id!));
  const top = (await topHeight(pool)) ?? -1;
  if (!row || (isInAuction(row, top) && !(await registeredBefore(pool, row)))) throw v3NotFound(req.params.id!);
  return (await nameItems(pool, [row], top, 'name'))[0]!;
});

/** registeredBefore: the name was claimed before the registration `row` describes (its first claim is older). */
async function registeredBefore(pool: Pool, row: NameStateRow): Promise<boolean> {
  const [first] = await nameEventsPage(
    pool,
    { nameHash: row.nameHash, kinds: ['claim'] },
    { walk: 'forward', from: undefined, n: 1 },
  );
  return first !== undefined && first.height < row.createdAt;
}

/** getNameClaims: a name's claims and bids. */
export const getNameClaims = resource(page(NAME_EVENT), (env, req) => nameEventPage(env, req, ['claim', 'bid']));
/** getNameTransfers: a name's transfers. */
export const getNameTransfers = resource(page(NAME_EVENT), (env, req) => nameEventPage(env, req, ['transfer']));
/** getNameUpdates: a name's updates. */
export const getNameUpdates = resource(page(NAME_EVENT), (env, req) => nameEventPage(env, req, ['update']));

async function nameEventPage({ pool }: V3Env, req: ResourceRequest, kinds: string[]): Promise<ItemsPage> {
  const paging = parsePaging(req.query);
  const hash = nameHashOf(req.params.id!);
  return listPage(paging, {
    cursor: POSITION_CURSOR,
    read: (window) => nameEventsPage(pool, { nameHash: hash, kinds }, window),
    key: positionOf,
    render: (rows) => rows.map((e) => nameEventObject(e)),
  });
}

/** getAccountNameClaims: the name claims an account made. */
export const getAccountNameClaims = resource(page(NAME_EVENT), async ({ pool }, req) => {
  const paging = parsePaging(req.query);
  const account = parseId(req.params.id, ['ak']);
  return listPage(paging, {
    cursor: POSITION_CURSOR,
    read: (window) => accountClaimsPage(pool, account, window),
    key: positionOf,
    render: (rows) => rows.map((e) => nameEventObject(e)),
  });
});

/** getAccountPointees: the names whose pointers point at an id. */
export const getAccountPointees = resource(page(POINTEE), async ({ pool }, req) => {
  const paging = parsePaging(req.query);
  const id = parseId(req.params.id, ['ak', 'ct', 'ok', 'ch']);
  const top = (await topHeight(pool)) ?? -1;
  return listPage(paging, {
    cursor: POSITION_CURSOR,
    read: (window) => pointeesPage(pool, { id, top }, window),
    key: positionOf,
    render: (rows) => rows.map((p) => pointeeObject(p)),
  });
});

/**
 * nameItems renders names (`name`) or auctions (`auction`) at the top: the key block times and the claim and
 * revoke transactions they show are read once for all of them.
 */
async function nameItems(
  pool: Pool,
  rows: readonly NameStateRow[],
  top: number,
  as: 'name' | 'auction',
): Promise<Item[]> {
  const times = await keyBlockTimes(pool, [
    top,
    ...rows.flatMap((n) => [n.activatedAt, n.createdAt, n.expiresAt ?? top]),
  ]);
  const clock: ChainClock = { top, topTimeMs: times.get(top) ?? Date.now(), times };
  const auctionOf = (n: NameStateRow): boolean => as === 'auction' || isInAuction(n, top);
  const revokeOf = (n: NameStateRow): boolean => as === 'name' && n.kind === 'revoke';
  const txs = await transactionsByHashes(
    pool,
    rows
      .flatMap((n) => [auctionOf(n) ? n.lastClaimTx : null, revokeOf(n) ? n.revokeTx : null])
      .filter((h) => h !== null),
  );
  const transactionValue = (hash: string | null): Record<string, Json> | null => {
    const row = hash === null ? undefined : txs.get(hash);
    return row ? transactionObject(row) : null;
  };
  return rows.map((n) => {
    if (as === 'auction') return auctionObject(n, clock, transactionValue(n.lastClaimTx));
    const auction = auctionOf(n) ? auctionObject(n, clock, transactionValue(n.lastClaimTx)) : null;
    return nameObject(n, clock, auction, revokeOf(n) ? transactionValue(n.revokeTx) : null);
  });
}

/** positionOf is the position of an event or pointer: its list key. */
function positionOf(e: TxPosition): TxPosition {
  return { height: e.height, microIndex: e.microIndex, txIndex: e.txIndex };
}

function keyOf(row: NameStateRow, order: NameOrder): NameKey {
  if (order === 'name') return { name: row.name };
  return { height: order === 'activation' ? row.activatedAt : (row.expiresAt ?? 0), name: row.name };
}

/** nameHashOf reads a name path parameter: an `nm_` id, or a plain name (`.chain` added when missing). */
export function nameHashOf(id: string): string {
  if (id.startsWith('nm_')) {
    if (!isEncoded(id, ['nm'])) throw v3BadRequest(`invalid id: ${id}`);
    return id;
  }
  if (!isNameText(id)) throw v3BadRequest(`invalid name: ${id}`);
  try {
    return nameId(id.includes('.') ? id : `${id}.chain`);
  } catch {
    throw v3BadRequest(`invalid name: ${id}`);
  }
}
