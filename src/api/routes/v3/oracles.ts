/** @module /v3/oracles: oracles (active, inactive) by expiry, one oracle, its queries, responses and extensions. */
import type Router from '@koa/router';
import type Koa from 'koa';
import { isEncoded } from '../../../chain/encoding.ts';
import { parseJson, stringifyJson, type Json } from '../../../chain/json.ts';
import type { Pool } from '../../../db/pool.ts';
import { keyBlockTimes, topHeight } from '../../../db/queries/blocks.ts';
import {
  oracleState,
  oraclesPage,
  oracleTxsPage,
  type OracleKey,
  type OracleStateRow,
  type OracleTxRow,
} from '../../../db/queries/oracles.ts';
import { transactionByHash } from '../../../db/queries/transactions.ts';
import { POSITION_CURSOR, type CursorCodec } from './cursors.ts';
import { v3BadRequest, v3NotFound } from './errors.ts';
import { paginate } from './page.ts';
import { one, parseId, parsePaging } from './params.ts';
import { heightTime } from '../../../shapes/v3/render-names.ts';
import { transactionJson } from '../../../shapes/v3/render-tx.ts';
import { sendPage, sendText } from './respond.ts';

const ORACLE_CURSOR: CursorCodec<OracleKey> = {
  encode: (k) => `${k.expiresAt}-${k.oracleId}`,
  decode(text) {
    if (text === undefined) return undefined;
    const match = /^(\d{1,10})-(ok_\w+)$/.exec(text);
    if (!match || !isEncoded(match[2]!, ['ok'])) throw v3BadRequest(`invalid cursor: ${text}`);
    return { expiresAt: Number(match[1]), oracleId: match[2]! };
  },
};

/** oracleRoutes registers the oracle operations on the /v3 router. */
export function oracleRoutes(router: Router, pool: Pool): void {
  const render = async (o: OracleStateRow, top: number): Promise<string> => {
    const times = await keyBlockTimes(pool, [top, o.expiresAt]);
    const clock = { top, topTimeMs: times.get(top) ?? Date.now(), times };
    const registerRow = await transactionByHash(pool, o.registerTxHash);
    const register = registerRow ? (parseJson(transactionJson(registerRow)) as { [k: string]: Json }) : null;
    if (register && typeof register.tx === 'object' && register.tx !== null && !Array.isArray(register.tx))
      register.tx = { ...register.tx, tx_hash: o.registerTxHash };
    return stringifyJson({
      oracle: o.oracleId,
      active: o.expiresAt > top,
      active_from: o.registeredAt,
      expire_height: o.expiresAt,
      approximate_expire_time: heightTime(clock, o.expiresAt),
      register_time: Number(o.registerTimeMs),
      register_tx_hash: o.registerTxHash,
      format: { query: o.queryFormat, response: o.responseFormat },
      query_fee: o.queryFee === null ? null : BigInt(o.queryFee),
      register,
    });
  };

  router.get('/oracles', async (ctx) => {
    const paging = parsePaging(ctx.query);
    const state = one(ctx.query.state);
    if (state !== undefined && state !== 'active' && state !== 'inactive')
      throw v3BadRequest(`invalid query: state=${state}`);
    const top = (await topHeight(pool)) ?? -1;
    const filter = { state: state as 'active' | 'inactive' | undefined, top, ...paging.scope };
    const page = await paginate(
      async (walk, from, n) =>
        Promise.all(
          (await oraclesPage(pool, filter, walk, from, n)).map(async (o) => ({
            key: { expiresAt: o.expiresAt, oracleId: o.oracleId },
            item: await render(o, top),
          })),
        ),
      { ...paging, cursor: ORACLE_CURSOR.decode(paging.cursor) },
    );
    sendPage(ctx, page, ORACLE_CURSOR.encode);
  });

  router.get('/oracles/:id', async (ctx) => {
    const id = parseId(ctx.params.id, ['ok']);
    const o = await oracleState(pool, id);
    if (!o) throw v3NotFound(id);
    sendText(ctx, await render(o, (await topHeight(pool)) ?? -1));
  });

  const txs = async (ctx: Koa.Context, id: string, kind: 'queries' | 'responses' | 'extends'): Promise<void> => {
    const paging = parsePaging(ctx.query);
    const oracleId = parseId(id, ['ok']);
    const page = await paginate(
      async (walk, from, n) =>
        (await oracleTxsPage(pool, oracleId, kind, walk, from, n)).map((r) => ({
          key: { height: r.height, microIndex: r.microIndex, txIndex: r.txIndex },
          item: stringifyJson(oracleTxObject(kind, oracleId, r)),
        })),
      { ...paging, cursor: POSITION_CURSOR.decode(paging.cursor) },
    );
    sendPage(ctx, page, POSITION_CURSOR.encode);
  };
  router.get('/oracles/:id/queries', (ctx) => txs(ctx, ctx.params.id!, 'queries'));
  router.get('/oracles/:id/responses', (ctx) => txs(ctx, ctx.params.id!, 'responses'));
  router.get('/oracles/:id/extends', (ctx) => txs(ctx, ctx.params.id!, 'extends'));
}

/** base64 is a query's or response's bytes as ae_mdw renders them (the node's JSON has them as text). Pure. */
function base64(text: Json | undefined): string | null {
  return typeof text === 'string' ? Buffer.from(text).toString('base64') : null;
}

/** oracleTxObject is ae_mdw's OracleQuery, OracleResponse or OracleExtend. Pure. */
export function oracleTxObject(
  kind: 'queries' | 'responses' | 'extends',
  oracleId: string,
  r: OracleTxRow,
): Record<string, Json> {
  const place = {
    height: r.height,
    block_hash: r.blockHash,
    source_tx_hash: r.txHash,
    source_tx_type: r.txType,
  };
  const { type: _type, version: _version, ...tx } = r.tx;
  if (kind === 'extends') return { ...place, tx };
  const common = { ...place, block_time: Number(r.blockTime), query_id: r.queryId, oracle_id: oracleId };
  if (kind === 'queries')
    return {
      ...common,
      sender_id: tx.sender_id ?? null,
      nonce: tx.nonce ?? null,
      fee: tx.fee ?? null,
      query_fee: tx.query_fee ?? null,
      query: base64(tx.query),
      query_ttl: tx.query_ttl ?? null,
      response_ttl: tx.response_ttl ?? null,
      ttl: tx.ttl ?? 0,
    };
  return {
    ...common,
    fee: tx.fee ?? null,
    nonce: tx.nonce ?? null,
    response: base64(tx.response),
    response_ttl: tx.response_ttl ?? null,
    ttl: tx.ttl ?? 0,
  };
}
