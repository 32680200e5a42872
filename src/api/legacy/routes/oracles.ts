/** @module Middleware queries over oracles: the registrations and each oracle's queries with their responses. */
import { Router } from '../../http/router.ts';
import type { ApiState } from '../../http/state.ts';
import { isJsonObject, type Json } from '../../../chain/json.ts';
import { oracleExists, oracleQueries, oracles } from '../../../db/queries/oracles.ts';
import { notFound } from '../../../base/errors.ts';
import { parseId, parseLimitPage } from '../legacy-params.ts';
import { sendJson, type RouteDeps } from '../../http/route-deps.ts';

/** oracleRoutes registers oracles/list and oracles/<id>. */
export function oracleRoutes(deps: RouteDeps): Router {
  const { pool } = deps;
  const router = new Router<ApiState>({ prefix: '/middleware/oracles' });

  router.get('/list', async (ctx) => {
    const rows = await oracles(pool, parseLimitPage(ctx.query));
    sendJson(
      ctx,
      rows.map((o) => ({
        oracle_id: o.oracleId,
        transaction_hash: o.txHash,
        block_height: o.height,
        expires_at: o.expiresAt,
        tx: o.tx,
      })),
    );
  });

  router.get('/:oracleId', async (ctx) => {
    const oracleId = parseId(ctx.params.oracleId, ['ok'], 'oracle_id');
    if (!(await oracleExists(pool, oracleId))) throw notFound(`oracle ${oracleId} is not known`);
    const rows = await oracleQueries(pool, oracleId, parseLimitPage(ctx.query));
    sendJson(
      ctx,
      rows.map((q) => ({
        query_id: q.queryId,
        request: withOrigin(q.request.tx, q.request.hash, q.request.timeMs),
        response: q.response && withOrigin(q.response.tx, q.response.hash, q.response.timeMs),
      })),
    );
  });

  return router;
}

/** withOrigin is the original's request/response object: the transaction plus its hash and micro block time. */
function withOrigin(tx: Json, hash: string, timeMs: number): Json {
  return { ...(isJsonObject(tx) ? tx : { tx }), hash, timestamp: timeMs };
}
