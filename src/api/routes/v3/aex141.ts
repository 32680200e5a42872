/** @module /v3/aex141: NFT collections, their tokens and owners, templates and transfers, and an account's NFTs. */
import type Router from '@koa/router';
import { stringifyJson } from '../../../chain/json.ts';
import type { Config } from '../../../config.ts';
import type { Pool } from '../../../db/pool.ts';
import {
  collectionById,
  collectionsCount,
  collectionsPage,
  templatesPage,
  tokenById,
  tokensPage,
  aex141TransfersPage,
  type CollectionKey,
  type CollectionOrder,
  type CollectionRow,
  type TokenFilter,
  type TokenKey,
} from '../../../db/queries/aex141-collections.ts';
import { Aex141Metadata } from './aex141-metadata.ts';
import { LOG_CURSOR, type CursorCodec } from './cursors.ts';
import { v3BadRequest, v3NotFound } from './errors.ts';
import { paginate } from './page.ts';
import { one, parseId, parsePaging } from './params.ts';
import {
  collectionObject,
  templateObject,
  templateTokenObject,
  tokenObject,
  transferObject,
} from '../../../shapes/v3/render-aex141.ts';
import { sendPage, sendText, sendValue } from './respond.ts';

type Context = Parameters<Parameters<Router['get']>[1]>[0];

const ORDERS: readonly CollectionOrder[] = ['creation', 'name', 'symbol'];

/** COLLECTION_CURSOR: the sort key of a collection (a name may hold any character) as base64url JSON. */
const COLLECTION_CURSOR: CursorCodec<CollectionKey> = {
  encode: (key) => Buffer.from(JSON.stringify(key)).toString('base64url'),
  decode(text) {
    if (text === undefined) return undefined;
    try {
      const key = JSON.parse(Buffer.from(text, 'base64url').toString('utf8')) as unknown;
      if (Array.isArray(key) && key.length > 0 && key.every((k) => typeof k === 'string' || Number.isInteger(k)))
        return key as CollectionKey;
    } catch {
      // not JSON: refused below
    }
    throw v3BadRequest(`invalid cursor: ${text}`);
  },
};

/** TOKEN_CURSOR: `<contract id>-<token id>`. */
const TOKEN_CURSOR: CursorCodec<TokenKey> = {
  encode: (k) => `${k.contractId}-${k.tokenId}`,
  decode(text) {
    if (text === undefined) return undefined;
    const match = /^(ct_\w+)-(\d{1,80})$/.exec(text);
    if (!match) throw v3BadRequest(`invalid cursor: ${text}`);
    return { contractId: match[1]!, tokenId: match[2]! };
  },
};

/** TEMPLATE_CURSOR: a template id. */
const TEMPLATE_CURSOR: CursorCodec<string> = {
  encode: (id) => id,
  decode(text) {
    if (text === undefined) return undefined;
    if (!/^\d{1,80}$/.test(text)) throw v3BadRequest(`invalid cursor: ${text}`);
    return text;
  },
};

function collectionKey(order: CollectionOrder, c: CollectionRow): CollectionKey {
  if (order === 'creation') return [c.height, c.microIndex, c.txIndex, c.contractId];
  return [(order === 'name' ? c.name : c.symbol) ?? '', c.contractId];
}

/** integerParam reads a token or template id of a path (ae_mdw answers `not found` for one that is not an integer). */
function integerParam(value: string | undefined): string {
  if (value === undefined || !/^\d{1,80}$/.test(value)) throw v3NotFound(value ?? '');
  return BigInt(value).toString();
}

/** aex141Routes registers the AEX-141 operations on the /v3 router. */
export function aex141Routes(router: Router, pool: Pool, cfg: Config): void {
  const metadata = new Aex141Metadata(pool, cfg);
  const collection = async (id: string | undefined): Promise<CollectionRow> => {
    const contractId = parseId(id, ['ct']);
    const found = await collectionById(pool, contractId);
    if (!found) throw v3NotFound(contractId);
    return found;
  };

  const tokens = async (ctx: Context, filter: TokenFilter, render: typeof tokenObject): Promise<void> => {
    const paging = parsePaging(ctx.query);
    const page = await paginate(
      async (walk, from, n) =>
        (await tokensPage(pool, filter, walk, from, n)).map((t) => ({ key: t, item: stringifyJson(render(t)) })),
      { ...paging, cursor: TOKEN_CURSOR.decode(paging.cursor) },
    );
    sendPage(ctx, page, TOKEN_CURSOR.encode);
  };

  const transfers = async (ctx: Context, contract: string | undefined): Promise<void> => {
    const account = (name: string): string | undefined => {
      const value = one(ctx.query[name]);
      return value === undefined ? undefined : parseId(value, ['ak']);
    };
    const filter = { contract, from: account('from'), to: account('to') };
    const paging = parsePaging(ctx.query);
    const page = await paginate(
      async (walk, from, n) =>
        (await aex141TransfersPage(pool, filter, walk, from, n)).map((t) => ({
          key: t,
          item: stringifyJson(transferObject(t)),
        })),
      { ...paging, cursor: LOG_CURSOR.decode(paging.cursor) },
    );
    sendPage(ctx, page, LOG_CURSOR.encode);
  };

  router.get('/aex141', async (ctx) => {
    const paging = parsePaging(ctx.query);
    const by = one(ctx.query.by) ?? 'creation';
    if (!ORDERS.includes(by as CollectionOrder)) throw v3BadRequest(`invalid query: by=${by}`);
    const order = by as CollectionOrder;
    const match = { prefix: one(ctx.query.prefix), exact: one(ctx.query.exact) };
    const page = await paginate(
      async (walk, from, n) =>
        (await collectionsPage(pool, order, match, walk, from, n)).map((c) => ({
          key: collectionKey(order, c),
          item: stringifyJson(collectionObject(c)),
        })),
      { ...paging, cursor: COLLECTION_CURSOR.decode(paging.cursor) },
    );
    sendPage(ctx, page, COLLECTION_CURSOR.encode);
  });

  // before /aex141/:id, which would take these names for ids
  router.get('/aex141/count', async (ctx) => sendValue(ctx, { data: await collectionsCount(pool) }));
  router.get('/aex141/transfers', (ctx) => transfers(ctx, undefined));

  router.get('/aex141/:id', async (ctx) => {
    sendText(ctx, stringifyJson(collectionObject(await collection(ctx.params.id))));
  });

  router.get('/aex141/:contractId/tokens', async (ctx) => {
    const { contractId } = await collection(ctx.params.contractId);
    await tokens(ctx, { contract: contractId }, tokenObject);
  });

  router.get('/aex141/:contractId/tokens/:tokenId', async (ctx) => {
    const { contractId, metadataType } = await collection(ctx.params.contractId);
    const token = await tokenById(pool, contractId, integerParam(ctx.params.tokenId));
    if (!token) throw v3NotFound(ctx.params.tokenId ?? '');
    const read = await metadata.read(contractId, token.tokenId, metadataType);
    // ae_mdw's v3 answer names the owner `owner`; its spec (and the SDK) `owner_id`: both are given
    sendText(ctx, stringifyJson({ ...tokenObject(token), owner: token.ownerId, metadata: read }));
  });

  router.get('/aex141/:contractId/templates', async (ctx) => {
    const contractId = parseId(ctx.params.contractId, ['ct']);
    const paging = parsePaging(ctx.query);
    const page = await paginate(
      async (walk, from, n) =>
        (await templatesPage(pool, contractId, walk, from, n)).map((t) => ({
          key: t.templateId,
          item: stringifyJson(templateObject(contractId, t)),
        })),
      { ...paging, cursor: TEMPLATE_CURSOR.decode(paging.cursor) },
    );
    sendPage(ctx, page, TEMPLATE_CURSOR.encode);
  });

  router.get('/aex141/:contractId/templates/:templateId/tokens', async (ctx) => {
    const contract = parseId(ctx.params.contractId, ['ct']);
    await tokens(ctx, { contract, template: integerParam(ctx.params.templateId) }, templateTokenObject);
  });

  router.get('/aex141/:contractId/transfers', (ctx) => transfers(ctx, parseId(ctx.params.contractId, ['ct'])));

  router.get('/accounts/:accountId/aex141/tokens', async (ctx) => {
    const owner = parseId(ctx.params.accountId, ['ak']);
    const contractParam = one(ctx.query.contract);
    const contract = contractParam === undefined ? undefined : parseId(contractParam, ['ct']);
    await tokens(ctx, { owner, contract }, tokenObject);
  });
}
