/** @module /v3/transfers and /v3/accounts/{id}/activities: internal transfers, and an id's transactions and transfers in chain order. */
import type Router from '@koa/router';
import { parseJson, stringifyJson, type Json } from '../../../chain/json.ts';
import type { Pool } from '../../../db/pool.ts';
import { activitiesPage, transfersPage, type EventKey } from '../../../db/queries/v3/activities.ts';
import { transactionByHash } from '../../../db/queries/v3/transactions.ts';
import type { CursorCodec } from './cursors.ts';
import { v3BadRequest } from './errors.ts';
import { paginate } from './page.ts';
import { isId, one, parseBoolean, parsePaging } from './params.ts';
import { transactionJson } from './render-tx.ts';
import { sendPage } from './respond.ts';

/** EVENT_CURSOR: `<height>-<micro index>-<tx index>-<local index>-<th_ of the causing tx>` (indexes -1 at key-block level). */
export const EVENT_CURSOR: CursorCodec<EventKey> = {
  encode: (k) => `${k.height}-${k.microIndex}-${k.txIndex}-${k.localIdx}-${k.ref}`,
  decode(text) {
    if (text === undefined) return undefined;
    const match = /^(\d{1,10})-(-1|\d{1,10})-(-1|\d{1,10})-(\d{1,5})-(th_\w+)$/.exec(text);
    if (!match || !isId(match[5]!, ['th'])) throw v3BadRequest(`invalid cursor: ${text}`);
    return {
      height: Number(match[1]),
      microIndex: Number(match[2]),
      txIndex: Number(match[3]),
      localIdx: Number(match[4]),
      ref: match[5]!,
    };
  },
};

const ALL_HEIGHTS = { first: 0, last: 2 ** 31 - 1 };
const ACTIVITY_TYPES: ReadonlySet<string> = new Set([
  'transactions',
  'transfers',
  'aexn',
  'aex9',
  'aex141',
  'contract',
  'claims',
  'swaps',
]);

/** activityRoutes registers transfers and account activities on the /v3 router. */
export function activityRoutes(router: Router, pool: Pool): void {
  router.get('/transfers', async (ctx) => {
    const paging = parsePaging(ctx.query);
    const kind = one(ctx.query.kind);
    const range = paging.scope ?? ALL_HEIGHTS;
    const page = await paginate(
      async (walk, from, n) =>
        (await transfersPage(pool, kind, range, walk, from, n)).map((t) => ({
          key: t,
          item: stringifyJson({
            account_id: t.accountId,
            amount: BigInt(t.amount),
            height: t.height,
            kind: t.kind,
            ref_block_hash: t.refBlockHash,
            ref_tx_hash: t.ref,
            ref_tx_type: t.refTxType,
          }),
        })),
      { ...paging, cursor: EVENT_CURSOR.decode(paging.cursor) },
    );
    sendPage(ctx, page, EVENT_CURSOR.encode);
  });

  router.get('/accounts/:id/activities', async (ctx) => {
    const paging = parsePaging(ctx.query);
    const id = ctx.params.id!;
    if (!isId(id, ['ak', 'ct', 'ok', 'ch', 'nm', 'oq'])) throw v3BadRequest(`invalid id: ${id}`);
    parseBoolean(one(ctx.query.owned_only), 'owned_only');
    const type = one(ctx.query.type);
    if (type !== undefined && !ACTIVITY_TYPES.has(type)) throw v3BadRequest(`invalid query: type=${type}`);
    // token, contract-internal, contract-claim and swap activities need indexes we do not keep yet: none listed
    const include = {
      transactions: type === undefined || type === 'transactions',
      transfers: type === undefined || type === 'transfers',
    };
    const range = paging.scope ?? ALL_HEIGHTS;
    const page = await paginate(
      async (walk, from, n) =>
        Promise.all(
          (await activitiesPage(pool, id, include, range, walk, from, n)).map(async (a) => {
            let type: string;
            let payload: Json;
            if (a.source === 'tx') {
              const row = await transactionByHash(pool, a.ref);
              type = `${row?.txType ?? 'Unknown'}Event`;
              payload = row ? parseJson(transactionJson(row)) : null;
            } else {
              type = 'InternalTransferEvent';
              payload = { amount: BigInt(a.amount ?? '0'), kind: a.kind, ref_tx_hash: a.ref };
            }
            const item = stringifyJson({
              block_hash: a.blockHash,
              block_time: Number(a.blockTime),
              height: a.height,
              type,
              payload,
            });
            return { key: a as EventKey, item };
          }),
        ),
      { ...paging, cursor: EVENT_CURSOR.decode(paging.cursor) },
    );
    sendPage(ctx, page, EVENT_CURSOR.encode);
  });
}
