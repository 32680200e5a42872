/** @module /v3/oracles: oracles (active, inactive) by expiry, one oracle, its queries, responses and extensions. */
import { isEncoded } from '../../../chain/encoding.ts';
import type { Json } from '../../../chain/json.ts';
import type { Pool } from '../../../db/connection/pool.ts';
import { keyBlockTimes, topHeight } from '../../../db/queries/blocks.ts';
import {
  oracleState,
  oraclesPage,
  oracleTxsByQueryIds,
  oracleTxsPage,
  type OracleKey,
  type OracleStateRow,
  type OracleTxRow,
} from '../../../db/queries/oracles.ts';
import { transactionsByHashes } from '../../../db/queries/transactions.ts';
import { POSITION_CURSOR, cursorCodec, type CursorCodec } from './cursors.ts';
import { v3BadRequest, v3NotFound } from './mdw-errors.ts';
import { listPage } from './list.ts';
import { page, resource, type Item, type ItemsPage, type ResourceRequest, type V3Env } from './resource.ts';
import { one, parseActiveState, parseId, parsePaging } from './mdw-params.ts';
import { heightTime } from '../../../shapes/v3/render-names.ts';
import { base64Text, transactionObject } from '../../../shapes/v3/render-tx.ts';
import { sourceTxFields, txBody } from '../../../shapes/v3/render-source-tx.ts';
import { ORACLE_QUERY, ORACLE_RESPONSE, ORACLE_EXTEND, ORACLE } from '../../../shapes/v3/shapes-oracles.ts';

export const ORACLE_CURSOR: CursorCodec<OracleKey> = cursorCodec({
  encode: (k) => `${k.expiresAt}-${k.oracleId}`,
  decode(text) {
    if (text === undefined) return undefined;
    const match = /^(\d{1,10})-(ok_\w+)$/.exec(text);
    if (!match || !isEncoded(match[2]!, ['ok'])) throw v3BadRequest(`invalid cursor: ${text}`);
    return { expiresAt: Number(match[1]), oracleId: match[2]! };
  },
});

/** getOracles: oracles by expiry, of a state. */
export const getOracles = resource(page(ORACLE), async ({ pool }, req) => {
  const paging = parsePaging(req.query);
  const state = parseActiveState(one(req.query.state));
  const top = (await topHeight(pool)) ?? -1;
  const filter = { state, top, ...paging.scope };
  return listPage(paging, {
    cursor: ORACLE_CURSOR,
    read: (window) => oraclesPage(pool, filter, window),
    key: (o) => ({ expiresAt: o.expiresAt, oracleId: o.oracleId }),
    render: (rows) => oracleItems(pool, rows, top),
  });
});

/** getOracle: one oracle. */
export const getOracle = resource(ORACLE, async ({ pool }, req) => {
  const id = parseId(req.params.id, ['ok']);
  const o = await oracleState(pool, id);
  if (!o) throw v3NotFound(id);
  return (await oracleItems(pool, [o], (await topHeight(pool)) ?? -1))[0]!;
});

/** getOracleQueries: an oracle's queries. */
export const getOracleQueries = resource(page(ORACLE_QUERY), (env, req) => oracleTxPage(env, req, 'queries'));
/** getOracleResponses: an oracle's responses. */
export const getOracleResponses = resource(page(ORACLE_RESPONSE), (env, req) => oracleTxPage(env, req, 'responses'));
/** getOracleExtends: an oracle's extensions. */
export const getOracleExtends = resource(page(ORACLE_EXTEND), (env, req) => oracleTxPage(env, req, 'extends'));

async function oracleTxPage(
  { pool }: V3Env,
  req: ResourceRequest,
  kind: 'queries' | 'responses' | 'extends',
): Promise<ItemsPage> {
  const paging = parsePaging(req.query);
  const oracleId = parseId(req.params.id, ['ok']);
  return listPage(paging, {
    cursor: POSITION_CURSOR,
    read: (window) => oracleTxsPage(pool, { oracleId, kind }, window),
    key: (r) => ({ height: r.height, microIndex: r.microIndex, txIndex: r.txIndex }),
    render: (rows) => oracleTxItems(pool, kind, oracleId, rows),
  });
}

/** oracleTxItems renders a page: a query with its response, a response with its query (read once for the page). */
async function oracleTxItems(
  pool: Pool,
  kind: 'queries' | 'responses' | 'extends',
  oracleId: string,
  rows: readonly OracleTxRow[],
): Promise<Item[]> {
  if (kind === 'extends') return rows.map((r) => oracleTxObject(kind, oracleId, r));
  const otherKind = kind === 'queries' ? 'responses' : 'queries';
  const others = await oracleTxsByQueryIds(
    pool,
    otherKind,
    rows.flatMap((r) => (r.queryId === null ? [] : [r.queryId])),
  );
  return rows.map((r) => {
    const other = r.queryId === null ? undefined : others.get(r.queryId);
    const nested = other ? oracleTxObject(otherKind, oracleId, other) : null;
    const item = oracleTxObject(kind, oracleId, r);
    return kind === 'queries' ? { ...item, response: nested } : { ...item, query: nested };
  });
}

/** oracleItems renders oracles at the top: their expiry times and registrations are read once for all of them. */
async function oracleItems(pool: Pool, rows: readonly OracleStateRow[], top: number): Promise<Item[]> {
  const times = await keyBlockTimes(pool, [top, ...rows.map((o) => o.expiresAt)]);
  const clock = { top, topTimeMs: times.get(top) ?? Date.now(), times };
  const registers = await transactionsByHashes(
    pool,
    rows.map((o) => o.registerTxHash),
  );
  return rows.map((o) => {
    const registerRow = registers.get(o.registerTxHash);
    const register = registerRow ? transactionObject(registerRow) : null;
    if (register && typeof register.tx === 'object' && register.tx !== null && !Array.isArray(register.tx))
      register.tx = { ...register.tx, tx_hash: o.registerTxHash };
    return {
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
    };
  });
}

/**
 * oracleTxObject is ae_mdw's OracleQuery, OracleResponse or OracleExtend, without the other half of a query (see
 * oracleTxItems). Query and response are base64 of their bytes, as ae_mdw sends them. Pure.
 */
export function oracleTxObject(
  kind: 'queries' | 'responses' | 'extends',
  oracleId: string,
  r: OracleTxRow,
): Record<string, Json> {
  const place = { height: r.height, ...sourceTxFields(r) };
  const tx = txBody(r.tx);
  if (kind === 'extends') return { ...place, tx };
  const common = { ...place, block_time: Number(r.blockTime), query_id: r.queryId, oracle_id: oracleId };
  if (kind === 'queries')
    return {
      ...common,
      sender_id: tx.sender_id ?? null,
      nonce: tx.nonce ?? null,
      fee: tx.fee ?? null,
      query_fee: tx.query_fee ?? null,
      query: base64Text(tx.query),
      query_ttl: tx.query_ttl ?? null,
      response_ttl: tx.response_ttl ?? null,
      ttl: tx.ttl ?? 0,
    };
  return {
    ...common,
    fee: tx.fee ?? null,
    nonce: tx.nonce ?? null,
    response: base64Text(tx.response),
    response_ttl: tx.response_ttl ?? null,
    ttl: tx.ttl ?? 0,
  };
}
