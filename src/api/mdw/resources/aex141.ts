/** @module /v3/aex141: NFT collections, their tokens and owners, templates and transfers, and an account's NFTs. */
import type { RouterContext } from '@koa/router';
import { stringifyJson } from '../../../chain/json.ts';
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
  type SortedCollectionRow,
  type TokenFilter,
  type TokenKey,
} from '../../../db/queries/aex141-collections.ts';
import { LOG_CURSOR, type CursorCodec } from './cursors.ts';
import { v3BadRequest, v3NotFound } from './mdw-errors.ts';
import { sendList } from './list.ts';
import type { V3Env, V3Handler } from '../rest/operation.ts';
import { one, parseId, parsePaging } from './mdw-params.ts';
import {
  collectionObject,
  templateObject,
  templateTokenObject,
  tokenObject,
  transferObject,
} from '../../../shapes/v3/render-aex141.ts';
import { sendText, sendValue } from '../rest/mdw-respond.ts';

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

function collectionKey(order: CollectionOrder, c: SortedCollectionRow): CollectionKey {
  if (order === 'creation') return [c.height, c.microIndex, c.txIndex, c.contractId];
  return [c.sortValue ?? '', c.contractId];
}

/** integerParam reads a token or template id of a path (ae_mdw answers `not found` for one that is not an integer). */
function integerParam(value: string | undefined): string {
  if (value === undefined || !/^\d{1,80}$/.test(value)) throw v3NotFound(value ?? '');
  return BigInt(value).toString();
}

/** collection is the collection a path names: ae_mdw's `not found` when it is none. */
async function collection(pool: Pool, id: string | undefined): Promise<CollectionRow> {
  const contractId = parseId(id, ['ct']);
  const found = await collectionById(pool, contractId);
  if (!found) throw v3NotFound(contractId);
  return found;
}

/** getSortedAex141Contracts: NFT collections by creation, name or symbol. */
export async function getSortedAex141Contracts(ctx: RouterContext, { pool }: V3Env): Promise<void> {
  const paging = parsePaging(ctx.query);
  const by = one(ctx.query.by) ?? 'creation';
  if (!ORDERS.includes(by as CollectionOrder)) throw v3BadRequest(`invalid query: by=${by}`);
  const order = by as CollectionOrder;
  const match = { prefix: one(ctx.query.prefix), exact: one(ctx.query.exact) };
  await sendList(ctx, paging, {
    cursor: COLLECTION_CURSOR,
    read: (walk, from, n) => collectionsPage(pool, order, match, walk, from, n),
    key: (c) => collectionKey(order, c),
    render: (rows) => rows.map((c) => stringifyJson(collectionObject(c))),
  });
}

/** getAex141Count: the number of NFT collections. */
export async function getAex141Count(ctx: RouterContext, { pool }: V3Env): Promise<void> {
  sendValue(ctx, { data: await collectionsCount(pool) });
}

/** getAex141Transfers: NFT transfers of every collection, from and/or to an account. */
export const getAex141Transfers: V3Handler = (ctx, env) => sendTransfers(ctx, env, undefined);

/** getAex141ByContract: an NFT collection. */
export async function getAex141ByContract(ctx: RouterContext, { pool }: V3Env): Promise<void> {
  sendText(ctx, stringifyJson(collectionObject(await collection(pool, ctx.params.id))));
}

/** getAex141ContractTokens: a collection's tokens and their owners. */
export async function getAex141ContractTokens(ctx: RouterContext, env: V3Env): Promise<void> {
  const { contractId } = await collection(env.pool, ctx.params.contractId);
  await sendTokens(ctx, env, { contract: contractId }, tokenObject);
}

/** getAex141TokenOwner: a token's owner and metadata. */
export async function getAex141TokenOwner(ctx: RouterContext, { pool, metadata }: V3Env): Promise<void> {
  const { contractId, metadataType } = await collection(pool, ctx.params.contractId);
  const token = await tokenById(pool, contractId, integerParam(ctx.params.tokenId));
  if (!token) throw v3NotFound(ctx.params.tokenId ?? '');
  const read = await metadata.read(contractId, token.tokenId, metadataType);
  // ae_mdw's v3 answer names the owner `owner`; its spec (and the SDK) `owner_id`: both are given
  sendText(ctx, stringifyJson({ ...tokenObject(token), owner: token.ownerId, metadata: read }));
}

/** getAex141ContractTemplates: a collection's templates. */
export async function getAex141ContractTemplates(ctx: RouterContext, { pool }: V3Env): Promise<void> {
  const contractId = parseId(ctx.params.contractId, ['ct']);
  const paging = parsePaging(ctx.query);
  await sendList(ctx, paging, {
    cursor: TEMPLATE_CURSOR,
    read: (walk, from, n) => templatesPage(pool, contractId, walk, from, n),
    key: (t) => t.templateId,
    render: (rows) => rows.map((t) => stringifyJson(templateObject(contractId, t))),
  });
}

/** getAex141TemplateTokens: the tokens minted from a template. */
export async function getAex141TemplateTokens(ctx: RouterContext, env: V3Env): Promise<void> {
  const contract = parseId(ctx.params.contractId, ['ct']);
  await sendTokens(ctx, env, { contract, template: integerParam(ctx.params.templateId) }, templateTokenObject);
}

/** getAex141ContractTransfers: a collection's transfers, from and/or to an account. */
export const getAex141ContractTransfers: V3Handler = (ctx, env) =>
  sendTransfers(ctx, env, parseId(ctx.params.contractId, ['ct']));

/** getAex141OwnedTokens: an account's NFTs, of one collection where given. */
export async function getAex141OwnedTokens(ctx: RouterContext, env: V3Env): Promise<void> {
  const owner = parseId(ctx.params.accountId, ['ak']);
  const contractParam = one(ctx.query.contract);
  const contract = contractParam === undefined ? undefined : parseId(contractParam, ['ct']);
  await sendTokens(ctx, env, { owner, contract }, tokenObject);
}

async function sendTokens(
  ctx: RouterContext,
  { pool }: V3Env,
  filter: TokenFilter,
  render: typeof tokenObject,
): Promise<void> {
  const paging = parsePaging(ctx.query);
  await sendList(ctx, paging, {
    cursor: TOKEN_CURSOR,
    read: (walk, from, n) => tokensPage(pool, filter, walk, from, n),
    key: (t) => t,
    render: (rows) => rows.map((t) => stringifyJson(render(t))),
  });
}

async function sendTransfers(ctx: RouterContext, { pool }: V3Env, contract: string | undefined): Promise<void> {
  const account = (name: string): string | undefined => {
    const value = one(ctx.query[name]);
    return value === undefined ? undefined : parseId(value, ['ak']);
  };
  const filter = { contract, from: account('from'), to: account('to') };
  const paging = parsePaging(ctx.query);
  await sendList(ctx, paging, {
    cursor: LOG_CURSOR,
    read: (walk, from, n) => aex141TransfersPage(pool, filter, walk, from, n),
    key: (t) => t,
    render: (rows) => rows.map((t) => stringifyJson(transferObject(t))),
  });
}
