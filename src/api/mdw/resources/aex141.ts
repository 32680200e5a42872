/** @module /v3/aex141: NFT collections, their tokens and owners, templates and transfers, and an account's NFTs. */
import type { Pool } from '../../../db/connection/pool.ts';
import {
  collectionById,
  collectionsCount,
  collectionsPage,
  templatesPage,
  tokenById,
  templateToken,
  tokensPage,
  aex141TransfersPage,
  type CollectionKey,
  type CollectionOrder,
  type CollectionRow,
  type SortedCollectionRow,
  type TokenFilter,
  type TokenKey,
  type TokenRow,
} from '../../../db/queries/aex141-collections.ts';
import { LOG_CURSOR, cursorCodec, type CursorCodec } from './cursors.ts';
import { isEncoded } from '../../../chain/encoding.ts';
import { v3BadRequest, v3NotFound } from './mdw-errors.ts';
import { listPage } from './list.ts';
import { page, resource, type Item, type ItemsPage, type ResourceRequest, type V3Env } from './resource.ts';
import { one, parseId, parsePaging } from './mdw-params.ts';
import {
  collectionObject,
  templateObject,
  templateTokenObject,
  tokenObject,
  transferObject,
} from '../../../shapes/v3/render-aex141.ts';
import {
  AEX141_TRANSFER,
  AEX141_COLLECTION,
  AEX141_COUNT,
  AEX141_TOKEN,
  AEX141_TOKEN_DETAIL,
  AEX141_TEMPLATE,
  AEX141_TEMPLATE_TOKEN,
} from '../../../shapes/v3/shapes-aex141.ts';

const ORDERS: readonly CollectionOrder[] = ['creation', 'name', 'symbol'];

/** COLLECTION_CURSOR: the sort key of a collection (a name may hold any character) as base64url JSON. */
export const COLLECTION_CURSOR: CursorCodec<CollectionKey> = cursorCodec({
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
});

/** NFT_CURSOR: an NFT's `<contract id>-<token id>`. */
export const NFT_CURSOR: CursorCodec<TokenKey> = cursorCodec({
  encode: (k) => `${k.contractId}-${k.tokenId}`,
  decode(text) {
    if (text === undefined) return undefined;
    const match = /^(ct_\w+)-(\d{1,80})$/.exec(text);
    if (!match || !isEncoded(match[1], ['ct'])) throw v3BadRequest(`invalid cursor: ${text}`);
    return { contractId: match[1]!, tokenId: match[2]! };
  },
});

/** TEMPLATE_CURSOR: a template id. */
export const TEMPLATE_CURSOR: CursorCodec<string> = cursorCodec({
  encode: (id) => id,
  decode(text) {
    if (text === undefined) return undefined;
    if (!/^\d{1,80}$/.test(text)) throw v3BadRequest(`invalid cursor: ${text}`);
    return text;
  },
});

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
export const getSortedAex141Contracts = resource(page(AEX141_COLLECTION), async ({ pool }, req) => {
  const paging = parsePaging(req.query);
  const by = one(req.query.by) ?? 'creation';
  if (!ORDERS.includes(by as CollectionOrder)) throw v3BadRequest(`invalid query: by=${by}`);
  const order = by as CollectionOrder;
  const match = { prefix: one(req.query.prefix), exact: one(req.query.exact) };
  return listPage(paging, {
    cursor: COLLECTION_CURSOR,
    read: (window) => collectionsPage(pool, { order, ...match }, window),
    key: (c) => collectionKey(order, c),
    render: (rows) => rows.map((c) => collectionObject(c)),
  });
});

/** getAex141Count: the number of NFT collections. */
export const getAex141Count = resource(AEX141_COUNT, async ({ pool }) => {
  return { data: await collectionsCount(pool) };
});

/** getAex141Transfers: NFT transfers of every collection, from and/or to an account. */
export const getAex141Transfers = resource(page(AEX141_TRANSFER), (env, req) => transferPage(env, req, undefined));

/** getAex141ByContract: an NFT collection. */
export const getAex141ByContract = resource(AEX141_COLLECTION, async ({ pool }, req) => {
  return collectionObject(await collection(pool, req.params.id));
});

/** getAex141ContractTokens: a collection's tokens and their owners. */
export const getAex141ContractTokens = resource(page(AEX141_TOKEN), async (env, req) => {
  const { contractId } = await collection(env.pool, req.params.contractId);
  return tokenPage(env, req, { contract: contractId }, tokenObject);
});

/** getAex141TokenOwner: a token's owner and metadata. */
export const getAex141TokenOwner = resource(AEX141_TOKEN_DETAIL, async ({ pool, metadata }, req) => {
  const { contractId, metadataType } = await collection(pool, req.params.contractId);
  const token = await tokenById(pool, contractId, integerParam(req.params.tokenId));
  if (!token) throw v3NotFound(req.params.tokenId ?? '');
  const read = await metadata.read(contractId, token.tokenId, metadataType);
  // ae_mdw's v3 answer names the owner `owner`; its spec (and the SDK) `owner_id`: both are given
  return { ...tokenObject(token), owner: token.ownerId, metadata: read };
});

/** getAex141ContractTemplates: a collection's templates. */
export const getAex141ContractTemplates = resource(page(AEX141_TEMPLATE), async ({ pool }, req) => {
  const contractId = parseId(req.params.contractId, ['ct']);
  const paging = parsePaging(req.query);
  return listPage(paging, {
    cursor: TEMPLATE_CURSOR,
    read: (window) => templatesPage(pool, contractId, window),
    key: (t) => t.templateId,
    render: (rows) => rows.map((t) => templateObject(contractId, t)),
  });
});

/** getAex141TemplateTokens: the tokens minted from a template. */
export const getAex141TemplateTokens = resource(page(AEX141_TEMPLATE_TOKEN), async (env, req) => {
  const contract = parseId(req.params.contractId, ['ct']);
  const template = integerParam(req.params.templateId);
  return tokenPage(env, req, { contract, template }, (t) => templateTokenObject(templateToken(t)));
});

/** getAex141ContractTransfers: a collection's transfers, from and/or to an account. */
export const getAex141ContractTransfers = resource(page(AEX141_TRANSFER), (env, req) =>
  transferPage(env, req, parseId(req.params.contractId, ['ct'])),
);

/** getAex141OwnedTokens: an account's NFTs, of one collection where given. */
export const getAex141OwnedTokens = resource(page(AEX141_TOKEN), async (env, req) => {
  const owner = parseId(req.params.accountId, ['ak']);
  const contractParam = one(req.query.contract);
  const contract = contractParam === undefined ? undefined : parseId(contractParam, ['ct']);
  return tokenPage(env, req, { owner, contract }, tokenObject);
});

async function tokenPage(
  { pool }: V3Env,
  req: ResourceRequest,
  filter: TokenFilter,
  render: (t: TokenRow) => Item,
): Promise<ItemsPage> {
  const paging = parsePaging(req.query);
  return listPage(paging, {
    cursor: NFT_CURSOR,
    read: (window) => tokensPage(pool, filter, window),
    key: (t) => t,
    render: (rows) => rows.map((t) => render(t)),
  });
}

async function transferPage({ pool }: V3Env, req: ResourceRequest, contract: string | undefined): Promise<ItemsPage> {
  const account = (name: string): string | undefined => {
    const value = one(req.query[name]);
    return value === undefined ? undefined : parseId(value, ['ak']);
  };
  const filter = { contract, from: account('from'), to: account('to') };
  const paging = parsePaging(req.query);
  return listPage(paging, {
    cursor: LOG_CURSOR,
    read: (window) => aex141TransfersPage(pool, filter, window),
    key: (t) => t,
    render: (rows) => rows.map((t) => transferObject(t)),
  });
}
