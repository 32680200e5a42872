/** @module /v3/transfers and /v3/accounts/{id}/activities: internal transfers, and an id's feed of transactions, transfers and what plugs in. */
import { isEncoded } from '../../../chain/encoding.ts';
import type { Pool } from '../../../db/connection/pool.ts';
import { activitiesPage, type ActivityKey, type ActivityRow } from '../../../db/queries/activities.ts';
import { transfersPage, type TransferKey, type TransferRow } from '../../../db/queries/internal-transfers.ts';
import { ACTIVITY_FEED, ACTIVITY_TYPES, activityItems } from './activity-sources.ts';
import { positionMatched, cursorCodec, type CursorCodec } from './cursors.ts';
import { v3BadRequest } from './mdw-errors.ts';
import { listPage, type List } from './list.ts';
import { page, resource, type Item, type ResourceRequest, type V3Env } from './resource.ts';
import { ALL_HEIGHTS, one, parseBoolean, parsePaging, rejectUnknown, type Scope } from './mdw-params.ts';
import { positionBounds } from './scope-bounds.ts';
import { TRANSFER, ACTIVITY } from '../../../shapes/v3/shapes-tx.ts';

const POSITION = '(\\d{1,10})-(-1|\\d{1,10})-(-1|\\d{1,10})';

/** TRANSFER_CURSOR: `<height>-<micro index>-<tx index>-<kind>-<account>-<causing th_ or nothing>` (indexes -1 at key-block level). */
export const TRANSFER_CURSOR: CursorCodec<TransferKey> = cursorCodec({
  encode: (k) => `${k.height}-${k.microIndex}-${k.txIndex}-${k.kind}-${k.accountId}-${k.ref}`,
  decode(text) {
    if (text === undefined) return undefined;
    const match = new RegExp(`^${POSITION}-([a-z_]{1,40})-([a-z]{2}_\\w{1,120})-(th_\\w+)?$`).exec(text);
    if (!match || !isEncoded(match[5], ['ak', 'ct']) || (match[6] !== undefined && !isEncoded(match[6], ['th'])))
      throw v3BadRequest(`invalid cursor: ${text}`);
    return { ...positionMatched(match), kind: match[4]!, accountId: match[5]!, ref: match[6] ?? '' };
  },
});

/**
 * ACTIVITY_CURSOR: `<height>-<micro index>-<tx index>-<tag>-<ref>`, tag and ref empty for a transaction itself. A ref
 * is what its source orders the items of one position by: nothing, the causing transaction's hash, a log or call index
 * (10 digits) or an AEX-9 transfer's side.
 */
export const ACTIVITY_CURSOR: CursorCodec<ActivityKey> = cursorCodec({
  encode: (k) => `${k.height}-${k.microIndex}-${k.txIndex}-${k.tag}-${k.ref}`,
  decode(text) {
    if (text === undefined) return undefined;
    const match = new RegExp(`^${POSITION}-([a-z0-9_:]{0,40})-(|th_\\w+|\\d{10}|sent|received)$`).exec(text);
    if (!match || (match[5]!.startsWith('th_') && !isEncoded(match[5], ['th'])))
      throw v3BadRequest(`invalid cursor: ${text}`);
    return { ...positionMatched(match), tag: match[4]!, ref: match[5]! };
  },
});

const TRANSFER_PARAMS: ReadonlySet<string> = new Set(['kind', 'account']);

/**
 * scopeHeights is the generations a scope covers, as ae_mdw narrows transfers and key-block activities:
 * `gen:a-b` itself, `txi:`/`time:` the generations of the first and last transaction in range.
 */
async function scopeHeights(pool: Pool, scope: Scope | undefined): Promise<{ first: number; last: number }> {
  if (!scope) return ALL_HEIGHTS;
  if (scope.type === 'gen') return { first: scope.first, last: scope.last };
  const { from, to } = await positionBounds(pool, scope);
  return { first: from?.height ?? 0, last: to?.height ?? ALL_HEIGHTS.last };
}

/** getTransfers: internal transfers, of a kind (prefix) and an account. */
export const getTransfers = resource(page(TRANSFER), async ({ pool }, req) => {
  const paging = parsePaging(req.query, { scopes: ['gen', 'txi', 'time'] });
  rejectUnknown(req.query, TRANSFER_PARAMS);
  const account = one(req.query.account);
  if (account !== undefined && !isEncoded(account, ['ak'])) throw v3BadRequest(`invalid id: ${account}`);
  const filter = { kindPrefix: one(req.query.kind), accountId: account, ...(await scopeHeights(pool, paging.scope)) };
  return listPage(paging, {
    cursor: TRANSFER_CURSOR,
    read: (window) => transfersPage(pool, filter, window),
    key: (t) => t,
    render: (rows) => rows.map(transferObject),
  });
});

/** getAccountActivities: an id's feed (swaps: of the configured DEX's pairs), its transactions read once per page. */
export const getAccountActivities = resource(page(ACTIVITY), async (env, req) => {
  const paging = parsePaging(req.query, { scopes: activityScopes(req) });
  return listPage(paging, await activityList(env, req, paging.scope));
});

/** activityScopes: not txi (ae_mdw refuses it here), but a transaction scope read as txis. */
export function activityScopes(req: ResourceRequest): readonly Scope['type'][] {
  return req.scopeOfTransactions ? ['txi'] : ['gen', 'time'];
}

/** activityList is an id's feed within `scope`, of the request's `type` and `owned_only` (the export walks it too). */
export async function activityList(
  { pool, cfg }: V3Env,
  req: ResourceRequest,
  scope: Scope | undefined,
): Promise<List<ActivityKey, ActivityRow>> {
  const id = req.params.id!;
  if (!isEncoded(id, ['ak', 'ct', 'ok', 'ch', 'nm', 'oq'])) throw v3BadRequest(`invalid id: ${id}`);
  const ownedOnly = parseBoolean(one(req.query.owned_only), 'owned_only') ?? false;
  const type = one(req.query.type);
  if (type !== undefined && !ACTIVITY_TYPES.has(type)) throw v3BadRequest(`invalid query: type=${type}`);
  const sources = ACTIVITY_FEED.filter((s) => type === undefined || s.types.includes(type)).map((s) => s.sql);
  const heights = await scopeHeights(pool, scope);
  const positions = scope && scope.type !== 'gen' ? await positionBounds(pool, scope) : undefined;
  const feed = {
    id,
    sources,
    ...heights,
    ownedOnly,
    dexFactory: cfg.dex.factory,
    ...(positions?.from && positions.to ? { positions: { from: positions.from, to: positions.to } } : {}),
  };
  return {
    cursor: ACTIVITY_CURSOR,
    read: (window) => activitiesPage(pool, feed, window),
    key: (a): ActivityKey => a,
    render: (rows) => activityItems(pool, rows),
  };
}

function transferObject(t: TransferRow): Item {
  return {
    account_id: t.accountId,
    amount: BigInt(t.amount),
    height: t.height,
    kind: t.kind,
    ref_block_hash: t.refBlockHash,
    ref_tx_hash: t.ref === '' ? null : t.ref,
    ref_tx_type: t.refTxType,
  };
}
