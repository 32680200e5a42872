/** @module /v3/names: names (active, inactive, in auction) from name_state, their claims, transfers and updates, and pointees. */
import type Router from '@koa/router';
import type Koa from 'koa';
import { isNameText, nameId } from '../../../chain/derived-ids.ts';
import { isEncoded } from '../../../chain/encoding.ts';
import { parseJson, stringifyJson, type Json } from '../../../chain/json.ts';
import type { Pool } from '../../../db/pool.ts';
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
import { transactionByHash } from '../../../db/queries/transactions.ts';
import { POSITION_CURSOR, type CursorCodec } from './cursors.ts';
import { v3BadRequest, v3NotFound } from './errors.ts';
import { paginate } from './page.ts';
import { one, parseId, parsePaging } from './params.ts';
import {
  auctionObject,
  isInAuction,
  nameEventObject,
  nameObject,
  pointeeObject,
  type ChainClock,
} from '../../../shapes/v3/render-names.ts';
import { transactionJson } from '../../../shapes/v3/render-tx.ts';
import { sendPage, sendText, sendValue } from './respond.ts';

const ORDERS: ReadonlySet<string> = new Set(['activation', 'deactivation', 'name']);

/** nameCursor: `<height>-<name>` for the height orders, the name alone by name. */
function nameCursor(order: NameOrder): CursorCodec<NameKey> {
  return {
    encode: (k) => (order === 'name' ? k.name : `${k.height ?? 0}-${k.name}`),
    decode(text) {
      if (text === undefined) return undefined;
      if (order === 'name') return { name: text };
      const match = /^(\d{1,10})-(.+)$/.exec(text);
      if (!match) throw v3BadRequest(`invalid cursor: ${text}`);
      return { height: Number(match[1]), name: match[2]! };
    },
  };
}

/** nameRoutes registers the names operations on the /v3 router. */
export function nameRoutes(router: Router, pool: Pool): void {
  const clockFor = async (top: number, heights: number[]): Promise<ChainClock> => {
    const times = await keyBlockTimes(pool, [top, ...heights]);
    return { top, topTimeMs: times.get(top) ?? Date.now(), times };
  };
  const transactionValue = async (hash: string | null): Promise<Json> => {
    const row = hash === null ? undefined : await transactionByHash(pool, hash);
    return row ? parseJson(transactionJson(row)) : null;
  };
  const renderName = async (n: NameStateRow, top: number): Promise<string> => {
    const clock = await clockFor(top, [n.activatedAt, n.createdAt, n.expiresAt ?? top]);
    const auction = isInAuction(n, top) ? auctionObject(n, clock, await transactionValue(n.lastClaimTx)) : null;
    const revoke = n.kind === 'revoke' ? await transactionValue(n.revokeTx) : null;
    return stringifyJson(nameObject(n, clock, auction, revoke));
  };
  const renderAuction = async (n: NameStateRow, top: number): Promise<string> => {
    const clock = await clockFor(top, [n.activatedAt, n.createdAt]);
    return stringifyJson(auctionObject(n, clock, await transactionValue(n.lastClaimTx)));
  };

  const eventsOf = async (ctx: Koa.Context, id: string, kinds: string[]): Promise<void> => {
    const paging = parsePaging(ctx.query);
    const hash = nameHashOf(id);
    const page = await paginate(
      async (walk, from, n) =>
        (await nameEventsPage(pool, hash, kinds, walk, from, n)).map((e) => ({
          key: { height: e.height, microIndex: e.microIndex, txIndex: e.txIndex },
          item: stringifyJson(nameEventObject(e)),
        })),
      { ...paging, cursor: POSITION_CURSOR.decode(paging.cursor) },
    );
    sendPage(ctx, page, POSITION_CURSOR.encode);
  };
  router.get('/names', async (ctx) => {
    const paging = parsePaging(ctx.query);
    const by = one(ctx.query.by) ?? 'activation';
    if (!ORDERS.has(by)) throw v3BadRequest(`invalid query: by=${by}`);
    const state = one(ctx.query.state);
    if (state !== undefined && state !== 'active' && state !== 'inactive')
      throw v3BadRequest(`invalid query: state=${state}`);
    const ownedBy = ctx.query.owned_by === undefined ? undefined : parseId(one(ctx.query.owned_by), ['ak']);
    const prefix = one(ctx.query.prefix)?.toLowerCase();
    const top = (await topHeight(pool)) ?? -1;
    const order = by as NameOrder;
    const codec = nameCursor(order);
    const filter = { state: state as 'active' | 'inactive' | undefined, ownedBy, prefix, top };
    const page = await paginate(
      async (walk, from, n) =>
        Promise.all(
          (await namesPage(pool, filter, order, walk, from, n)).map(async (row) => ({
            key: keyOf(row, order),
            item: await renderName(row, top),
          })),
        ),
      { ...paging, cursor: codec.decode(paging.cursor) },
    );
    sendPage(ctx, page, codec.encode);
  });

  router.get('/names/count', async (ctx) => {
    const ownedBy = ctx.query.owned_by === undefined ? undefined : parseId(one(ctx.query.owned_by), ['ak']);
    sendValue(ctx, await countActiveNames(pool, (await topHeight(pool)) ?? -1, ownedBy));
  });

  router.get('/names/auctions', async (ctx) => {
    const paging = parsePaging(ctx.query);
    const top = (await topHeight(pool)) ?? -1;
    const codec = nameCursor('activation');
    const page = await paginate(
      async (walk, from, n) =>
        Promise.all(
          (await namesPage(pool, { inAuction: true, top }, 'activation', walk, from, n)).map(async (row) => ({
            key: keyOf(row, 'activation'),
            item: await renderAuction(row, top),
          })),
        ),
      { ...paging, cursor: codec.decode(paging.cursor) },
    );
    sendPage(ctx, page, codec.encode);
  });

  router.get('/names/auctions/:id', async (ctx) => {
    const top = (await topHeight(pool)) ?? -1;
    const row = await nameByHash(pool, nameHashOf(ctx.params.id!));
    if (!row || !isInAuction(row, top)) throw v3NotFound(ctx.params.id!);
    sendText(ctx, await renderAuction(row, top));
  });

  router.get('/names/auctions/:id/claims', async (ctx) => eventsOf(ctx, ctx.params.id!, ['claim', 'bid']));

  router.get('/names/:id', async (ctx) => {
    const row = await nameByHash(pool, nameHashOf(ctx.params.id!));
    if (!row) throw v3NotFound(ctx.params.id!);
    sendText(ctx, await renderName(row, (await topHeight(pool)) ?? -1));
  });

  router.get('/names/:id/claims', async (ctx) => eventsOf(ctx, ctx.params.id!, ['claim', 'bid']));
  router.get('/names/:id/transfers', async (ctx) => eventsOf(ctx, ctx.params.id!, ['transfer']));
  router.get('/names/:id/updates', async (ctx) => eventsOf(ctx, ctx.params.id!, ['update']));

  router.get('/accounts/:id/names/claims', async (ctx) => {
    const paging = parsePaging(ctx.query);
    const account = parseId(ctx.params.id, ['ak']);
    const page = await paginate(
      async (walk, from, n) =>
        (await accountClaimsPage(pool, account, walk, from, n)).map((e) => ({
          key: { height: e.height, microIndex: e.microIndex, txIndex: e.txIndex },
          item: stringifyJson(nameEventObject(e)),
        })),
      { ...paging, cursor: POSITION_CURSOR.decode(paging.cursor) },
    );
    sendPage(ctx, page, POSITION_CURSOR.encode);
  });

  router.get('/accounts/:id/names/pointees', async (ctx) => {
    const paging = parsePaging(ctx.query);
    const id = parseId(ctx.params.id, ['ak', 'ct', 'ok', 'ch']);
    const top = (await topHeight(pool)) ?? -1;
    const page = await paginate(
      async (walk, from, n) =>
        (await pointeesPage(pool, id, top, walk, from, n)).map((p) => ({
          key: { height: p.height, microIndex: p.microIndex, txIndex: p.txIndex },
          item: stringifyJson(pointeeObject(p)),
        })),
      { ...paging, cursor: POSITION_CURSOR.decode(paging.cursor) },
    );
    sendPage(ctx, page, POSITION_CURSOR.encode);
  });
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
