/**
 * @module /v3/aex9: AEX-9 tokens (sorted lists, count, one), a token's holders (now or at a block), one account's
 * balance (now, at a block hash or at a height) and its history, an account's tokens, and a token's transfers.
 * Balances come from the stored events (aex9_events), exact under forks; a token whose events may be missing
 * (call infos a pruning node refused) has its balances marked `incomplete: true`.
 */
import { isEncoded } from '../../../chain/encoding.ts';
import type { Pool } from '../../../db/connection/pool.ts';
import {
  aex9Count,
  aex9Token,
  aex9TokensPage,
  type Aex9Row,
  type Aex9TokenKey,
  type TokenOrder,
} from '../../../db/queries/aex9-tokens.ts';
import {
  accountAmount,
  accountTokensPage,
  balancesBefore,
  blockBound,
  holdersPage,
  MAX_MICRO,
  aex9TransfersPage,
  type BlockBound,
  type HolderKey,
  type Aex9TransferFilter,
} from '../../../db/queries/aex9-balances.ts';
import { topHeight } from '../../../db/queries/blocks.ts';
import { INDEX_CURSOR, LOG_CURSOR, cursorCodec, type CursorCodec } from './cursors.ts';
import { v3BadRequest, v3NotFound } from './mdw-errors.ts';
import { listPage } from './list.ts';
import { oneObject, page, resource, type ResourceRequest } from './resource.ts';
import type { Query } from './page.ts';
import { one, parseId, parseNonNegative, parsePaging } from './mdw-params.ts';
import {
  accountTokenObject,
  holderObject,
  incompleteMark,
  tokenObject,
  transferObject,
} from '../../../shapes/v3/render-aex9.ts';
import {
  AEX9_TOKEN,
  AEX9_COUNT,
  AEX9_CONTRACT_BALANCE,
  AEX9_ACCOUNT_BALANCE,
  AEX9_BALANCE_HISTORY_ITEM,
  AEX9_BALANCE,
  AEX9_TRANSFER,
} from '../../../shapes/v3/shapes-aex9.ts';

/** A cursor of JSON values, base64url (opaque to clients, as ae_mdw's are). */
function jsonCursor<K>(valid: (value: unknown) => value is K): CursorCodec<K> {
  return cursorCodec({
    encode: (key) => Buffer.from(JSON.stringify(key)).toString('base64url'),
    decode(text) {
      if (text === undefined) return undefined;
      let value: unknown;
      try {
        value = JSON.parse(Buffer.from(text, 'base64url').toString('utf8'));
      } catch {
        throw v3BadRequest(`invalid cursor: ${text}`);
      }
      if (!valid(value)) throw v3BadRequest(`invalid cursor: ${text}`);
      return value;
    },
  });
}

const isTokenKey = (v: unknown): v is Aex9TokenKey => {
  const k = v as Record<string, unknown> | null;
  if (typeof k !== 'object' || k === null || typeof k.contractId !== 'string') return false;
  return 'value' in k
    ? typeof k.value === 'string'
    : [k.height, k.microIndex, k.txIndex].every((n) => Number.isSafeInteger(n));
};
export const TOKEN_CURSOR = jsonCursor(isTokenKey);

/** ae_mdw's holders cursors: the account, or `<amount>|<account>` by amount. */
export function holderCursor(by: 'pubkey' | 'amount'): CursorCodec<HolderKey> {
  return cursorCodec({
    encode: (k) => (by === 'amount' ? `${k.amount}|${k.account}` : k.account),
    decode(text) {
      if (text === undefined) return undefined;
      const [amount, account] = by === 'amount' ? text.split('|') : [undefined, text];
      if (account === undefined || !isEncoded(account, ['ak']) || (by === 'amount' && !/^\d{1,80}$/.test(amount ?? '')))
        throw v3BadRequest(`invalid cursor: ${text}`);
      return { account, amount };
    },
  });
}

export const CONTRACT_CURSOR: CursorCodec<string> = cursorCodec({
  encode: (id) => id,
  decode(text) {
    if (text !== undefined && !isEncoded(text, ['ct'])) throw v3BadRequest(`invalid cursor: ${text}`);
    return text;
  },
});

/** tokenOrder reads `by`, `prefix` and `exact` as ae_mdw does (name first; prefix and exact exclusive). */
function tokenOrder(query: Query): TokenOrder {
  const by = one(query.by) ?? 'name';
  if (by !== 'name' && by !== 'symbol' && by !== 'creation') throw v3BadRequest(`invalid query: by=${by}`);
  const prefix = one(query.prefix);
  const exact = one(query.exact);
  if (prefix !== undefined && exact !== undefined)
    throw v3BadRequest("invalid query: can't use both `prefix` and `exact` parameters");
  if (by === 'creation') return { by };
  return exact !== undefined ? { by, exact } : { by, prefix: (prefix ?? '').slice(0, 100) };
}

/** validToken is the token of a balances request: an AEX-9 contract whose meta info was read (ae_mdw's validate_aex9). */
async function validToken(pool: Pool, id: string | undefined): Promise<Aex9Row> {
  const contractId = parseId(id, ['ct']);
  const token = await aex9Token(pool, contractId);
  if (!token) throw v3BadRequest(`not AEX9 contract: ${contractId}`);
  if (token.metaInvalid) throw v3BadRequest(`invalid AEXN contract: ${contractId}`);
  return token;
}

/** stateAt is the state `hash` (a stored key or micro block) or `height` (its key block) stands for. */
async function stateAt(pool: Pool, query: Query, hashParam: string): Promise<BlockBound | undefined> {
  const hash = one(query[hashParam]);
  const heightText = one(query.height);
  if (hash !== undefined) {
    if (!isEncoded(hash, ['kh', 'mh'])) throw v3BadRequest(`invalid query: ${hashParam}=${hash}`);
    const bound = await blockBound(pool, hash);
    if (!bound) throw v3NotFound(hash);
    return bound;
  }
  if (heightText === undefined) return undefined;
  const height = parseNonNegative(heightText);
  if (height === undefined) throw v3BadRequest(`invalid non-negative integer: ${heightText}`);
  if (height > ((await topHeight(pool)) ?? -1)) throw v3NotFound(`height ${height}`);
  return { height: height - 1, microIndex: MAX_MICRO };
}

/** getSortedAex9Tokens: AEX-9 tokens by name, symbol or creation. */
export const getSortedAex9Tokens = resource(page(AEX9_TOKEN), async ({ pool }, req) => {
  const order = tokenOrder(req.query);
  const paging = parsePaging(req.query);
  return listPage(paging, {
    cursor: TOKEN_CURSOR,
    read: (window) => aex9TokensPage(pool, order, window),
    key: (t) => t.key,
    render: (rows) => rows.map((t) => tokenObject(t.row)),
  });
});

/** getAex9TokensCount: the number of AEX-9 tokens. */
export const getAex9TokensCount = resource(AEX9_COUNT, async ({ pool }) => {
  return { data: await aex9Count(pool) };
});

/** getAex9ByContract: an AEX-9 token. */
export const getAex9ByContract = oneObject(AEX9_TOKEN, (p) => parseId(p.id, ['ct']), aex9Token, tokenObject);

/** getAex9ContractBalances: a token's holders, by account or amount, now or at a block. */
export const getAex9ContractBalances = resource(page(AEX9_CONTRACT_BALANCE), async ({ pool }, req) => {
  const token = await validToken(pool, req.params.contractId);
  const by = one(req.query.by) ?? 'pubkey';
  if (by !== 'pubkey' && by !== 'amount') throw v3BadRequest(`invalid query: by=${by}`);
  const at = await stateAt(pool, req.query, 'block_hash');
  const paging = parsePaging(req.query);
  return listPage(paging, {
    cursor: holderCursor(by),
    read: (window) => holdersPage(pool, { contractId: token.contractId, by, at }, window),
    key: (h) => ({ account: h.account, amount: h.amount }),
    render: (rows) => rows.map((h) => holderObject(token.contractId, h, token.incomplete)),
  });
});

/** getAex9ContractAccountBalance: an account's balance of a token, now, at a block hash or at a height. */
export const getAex9ContractAccountBalance = resource(AEX9_ACCOUNT_BALANCE, async ({ pool }, req) => {
  const token = await validToken(pool, req.params.contractId);
  const account = parseId(req.params.accountId, ['ak']);
  const amount = await accountAmount(pool, token.contractId, account, await stateAt(pool, req.query, 'hash'));
  return {
    account,
    amount: amount === null ? null : BigInt(amount),
    contract: token.contractId,
    ...incompleteMark(token.incomplete),
  };
});

/** getAex9ContractAccountBalanceHistory: an account's balance of a token at each generation. */
export const getAex9ContractAccountBalanceHistory = resource(page(AEX9_BALANCE_HISTORY_ITEM), async ({ pool }, req) => {
  const token = await validToken(pool, req.params.contractId);
  const account = parseId(req.params.accountId, ['ak']);
  const paging = parsePaging(req.query);
  // ae_mdw reads the balance at each generation's key block: from the one after the token's creation to the top
  const top = (await topHeight(pool)) ?? -1;
  const first = Math.max(token.height + 1, paging.scope?.first ?? 0);
  const last = Math.min(top, paging.scope?.last ?? top);
  return listPage(paging, {
    cursor: INDEX_CURSOR,
    // the page's heights, then their balances: one probe each (aex9_event_balances), never the account's events
    async read({ walk, from, n }): Promise<{ height: number; amount: bigint | null }[]> {
      const heights: number[] = [];
      const step = walk === 'forward' ? 1 : -1;
      for (
        let h = from ?? (walk === 'forward' ? first : last);
        h >= first && h <= last && heights.length < n;
        h += step
      )
        heights.push(h);
      const amounts = await balancesBefore(pool, token.contractId, account, heights);
      return heights.map((height, i) => ({ height, amount: amounts[i] == null ? null : BigInt(amounts[i]) }));
    },
    key: (r) => r.height,
    render: (rows) =>
      rows.map(({ height, amount }) => ({
        account,
        amount,
        contract: token.contractId,
        height,
        ...incompleteMark(token.incomplete),
      })),
  });
});

/** getAex9AccountBalances: an account's AEX-9 balances. */
export const getAex9AccountBalances = resource(page(AEX9_BALANCE), async ({ pool }, req) => {
  const account = parseId(req.params.accountId, ['ak']);
  const paging = parsePaging(req.query);
  return listPage(paging, {
    cursor: CONTRACT_CURSOR,
    read: (window) => accountTokensPage(pool, account, window),
    key: (r) => r.contractId,
    render: (rows) => rows.map((r) => accountTokenObject(r)),
  });
});

/** getAex9ContractTransfers: a token's transfers from, to or of an account. */
export const getAex9ContractTransfers = resource(page(AEX9_TRANSFER), async ({ pool }, req) => {
  const token = await validToken(pool, req.params.contractId);
  const filter = transferFilter(req);
  const paging = parsePaging(req.query);
  return listPage(paging, {
    cursor: LOG_CURSOR,
    read: (window) => aex9TransfersPage(pool, { contractId: token.contractId, ...filter }, window),
    key: (t) => t,
    render: (rows) => rows.map((t) => transferObject(t, token.incomplete)),
  });
});

/** transferFilter reads ae_mdw's `sender`, `recipient` or `account` (one of them is required). */
function transferFilter(req: ResourceRequest): Aex9TransferFilter {
  const sender = one(req.query.sender);
  const recipient = one(req.query.recipient);
  const account = one(req.query.account);
  if (sender !== undefined && recipient !== undefined)
    throw v3BadRequest('invalid query: set either a recipient or a sender');
  if (sender !== undefined) return { sender: parseId(sender, ['ak']) };
  if (recipient !== undefined) return { recipient: parseId(recipient, ['ak']) };
  if (account !== undefined) return { account: parseId(account, ['ak']) };
  throw v3BadRequest('invalid query: sender or recipient param is required');
}
