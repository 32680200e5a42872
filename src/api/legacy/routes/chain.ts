/** @module Middleware queries about the chain itself: generations, time → height, sizes, rewards, status. */
import { Router } from '../../http/router.ts';
import type { ApiState } from '../../http/state.ts';
import { isJsonObject } from '../../../chain/json.ts';
import {
  firstHeightAtOrAfter,
  keyBlockAt,
  keyBlocksBetween,
  microBlocksBetween,
  storedProtocolReport,
  topHeight,
} from '../../../db/queries/blocks.ts';
import { newGenerationsJson } from '../../../db/queries/generations.ts';
import { decodeErrorsSince, feesAt, heightsContiguous, sizeUpTo } from '../../../db/queries/stats.ts';
import { syncState, type SyncState } from '../../../db/queries/sync-state.ts';
import { transactionsBetween } from '../../../db/queries/transactions.ts';
import { notFound } from '../../../base/errors.ts';
import { parseHeight, parseInteger, parseLimitPage } from '../legacy-params.ts';
import { jsonArrayText, sendJson, sendJsonText, type RouteDeps } from '../../http/route-deps.ts';
import { generationsReport } from '../../../shapes/middleware.ts';
import { BriefValue } from '../../http/brief-value.ts';
import { NODE_HEIGHT_TTL_MS } from '../../http/node-height.ts';
import { readServedTop } from '../../status/served-top.ts';
import { heartbeatTimeoutSeconds, statusReport } from '../../status/sync-report.ts';
import { currentEpochReport } from '../../status/current-epoch.ts';
import { transactionCountBetween } from '../../../db/queries/txis.ts';
import { coinbaseAt } from '../../../chain/coinbase.ts';

/** GENERATIONS_PAGING: generations (not joined rows, the original's bug) per page of /generations. */
export const GENERATIONS_PAGING = { limit: 100, maxLimit: 100 } as const;
const MAX_MILLIS = 8.64e15;
/** above any micro block's or transaction's index: a position after the last of its height */
const MAX_TXI_PART = 2 ** 31 - 1;

/** chainRoutes registers generations (both shapes), height/at, size, count, reward and status. */
export function chainRoutes(deps: RouteDeps): Router {
  const { pool, cfg } = deps;
  const router = new Router<ApiState>({ prefix: '/middleware' });
  // one pass over key_blocks' index per TTL, not per status request
  const contiguity = new BriefValue(() => heightsContiguous(pool), NODE_HEIGHT_TTL_MS);
  const protocol = new BriefValue(() => storedProtocolReport(pool), NODE_HEIGHT_TTL_MS);

  router.get('/generations/:from/:to', async (ctx) => {
    const from = parseHeight(ctx.params.from, 'from');
    const to = parseHeight(ctx.params.to, 'to');
    const { limit, offset } = parseLimitPage(ctx.query, GENERATIONS_PAGING);
    const kbs = from > to ? [] : await keyBlocksBetween(pool, from, to, limit, offset);
    if (kbs.length === 0) return sendJson(ctx, generationsReport([], [], []));
    const lo = kbs[kbs.length - 1]!.height;
    const hi = kbs[0]!.height;
    const [micro, txs] = await Promise.all([microBlocksBetween(pool, lo, hi), transactionsBetween(pool, lo, hi)]);
    sendJson(ctx, generationsReport(kbs, micro, txs), hi + 1);
  });

  router.get('/new/generations/:from/:to', async (ctx) => {
    const from = parseHeight(ctx.params.from, 'from');
    const to = parseHeight(ctx.params.to, 'to');
    const paging = parseLimitPage(ctx.query, GENERATIONS_PAGING);
    const rows = from > to ? [] : await newGenerationsJson(pool, from, to, paging);
    // oldest first: a later page or a fuller last one can still come while the newest is near the top
    sendJsonText(ctx, jsonArrayText(rows), rows.length === 0 ? undefined : rows[rows.length - 1]!.height + 1);
  });

  router.get('/count/current', async (ctx) => {
    const top = await topHeight(pool);
    if (top === undefined) throw notFound('the database holds no blocks yet');
    // the txi after the top's last transaction: two rows of generation_txis, whatever the chain's length (issue 57)
    const last = { height: top, microIndex: MAX_TXI_PART, txIndex: MAX_TXI_PART };
    const count = await transactionCountBetween(pool, { height: 0, microIndex: 0, txIndex: 0 }, last);
    sendJson(ctx, { count });
  });

  router.get('/height/at/:millis', async (ctx) => {
    const millis = parseInteger(ctx.params.millis, 'millis', 0, MAX_MILLIS);
    const height = await firstHeightAtOrAfter(pool, millis);
    if (height === undefined) throw notFound('no key block at or after that time');
    sendJson(ctx, { height });
  });

  router.get('/size/current', async (ctx) => {
    const top = await topHeight(pool);
    if (top === undefined) throw notFound('the database holds no blocks yet');
    sendJson(ctx, { size: await sizeUpTo(pool, top) });
  });

  router.get('/size/height/:height', async (ctx) => {
    const height = parseHeight(ctx.params.height, 'height');
    const top = await topHeight(pool);
    if (top === undefined || height > top) throw notFound(`height ${height} is not in the database`);
    sendJson(ctx, { size: await sizeUpTo(pool, height) }, height);
  });

  router.get('/reward/height/:height', async (ctx) => {
    const height = parseHeight(ctx.params.height, 'height');
    const kb = await keyBlockAt(pool, height);
    if (!kb) throw notFound(`height ${height} is not in the database`);
    const [previous, current] = await Promise.all([height > 0 ? feesAt(pool, height - 1) : '0', feesAt(pool, height)]);
    const beneficiary = isJsonObject(kb.data) ? (kb.data.beneficiary ?? null) : null;
    const fees = feeShare(previous, current);
    const coinbase = coinbaseAt(height);
    sendJson(
      ctx,
      { height, beneficiary, coinbase: coinbase.toString(), fees, total: addToDecimal(coinbase, fees) },
      height,
    );
  });

  router.get('/status', async (ctx) => {
    const [state, node, contiguous, stored, epoch] = await Promise.all([
      servedSyncState(deps),
      deps.nodeHeight.current(),
      contiguity.get(),
      protocol.get(),
      currentEpochReport(pool),
    ]);
    const decodeErrors = state.topHeight === undefined ? 0 : await decodeErrorsSince(pool, state.topHeight - 500);
    const { ok, body } = statusReport({
      state,
      nodeHeight: node,
      contiguous,
      nowMs: Date.now(),
      maxBlockAge: cfg.statusMaxBlockAge,
      heartbeatTimeout: heartbeatTimeoutSeconds(cfg.pollIntervalMs),
      version: deps.version,
      decodeErrors,
      replicas: deps.replicas?.states(),
      protocol: stored,
      epoch,
    });
    ctx.set('Cache-Control', 'no-store');
    sendJson(ctx, body, undefined, ok ? 200 : 503);
  });

  return router;
}

/**
 * servedSyncState is the populator's state as the writer has it (its heartbeat, status and errors, read on the
 * primary) with the top this server serves (read where its reads go: the replicas, when there are any).
 */
async function servedSyncState({ pool, primary, replicas }: RouteDeps): Promise<SyncState> {
  if (!primary) return syncState(pool);
  const [writer, served] = await Promise.all([syncState(primary), readServedTop(pool, replicas, syncState)]);
  return { ...writer, topHeight: served.topHeight, topTimeMs: served.topTimeMs };
}

/** addToDecimal adds an integer to a non-negative decimal string such as "10848.4", exactly. */
function addToDecimal(whole: bigint, decimal: string): string {
  const [int, frac] = decimal.split('.');
  const sum = (whole + BigInt(int!)).toString();
  return frac === undefined ? sum : `${sum}.${frac}`;
}

/** feeShare is the beneficiary's fee income: 60 % of the previous generation's fees plus 40 % of its own, exact. */
export function feeShare(previousFees: string, ownFees: string): string {
  const tenths = 6n * BigInt(previousFees.split('.')[0]!) + 4n * BigInt(ownFees.split('.')[0]!);
  const whole = tenths / 10n;
  const rest = tenths % 10n;
  return rest === 0n ? whole.toString() : `${whole}.${rest}`;
}
