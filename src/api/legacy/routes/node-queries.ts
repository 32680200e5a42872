/**
 * @module Cached node queries: the node's paths and bodies, in its /v2 and its /v3, answered from the
 * database and forwarded on a miss. One set of queries: the node answers both versions with the same
 * bodies, and /v3 adds the `int-as-string` parameter (checked before the others, as the node's validator does).
 */
import type { ApiContext } from '../../http/state.ts';
import { Router } from '../../http/router.ts';
import type { ApiState } from '../../http/state.ts';
import type { Prefix } from '../../../chain/encoding.ts';
import { decodeErrorCode } from '../../../chain/decode-error.ts';
import { readNodeHeight } from '../../../chain/node-height.ts';
import { generationJson, keyBlockJson, microBlockHeaderJson, topHeight } from '../../../db/queries/blocks.ts';
import {
  microBlockTransactionJson,
  microBlockTransactionsJson,
  transactionJson,
} from '../../../db/queries/transactions.ts';
import { intAsStringParam } from '../../http/node-params.ts';
import { sendJson, sendJsonText, type RouteDeps } from '../../http/route-deps.ts';
import { integersAsStrings, parseJson, stringifyJson } from '../../../chain/json.ts';

const MAX_STORED_HEIGHT = 2n ** 31n - 1n;

/** NodeApiVersion is a version of the node's API the seed's cached queries are served in. */
export type NodeApiVersion = 'v2' | 'v3';

/** cachedNodeRoutes registers the seed's cached node paths under `/<version>`; bodies come out of PostgreSQL as JSON text, exact. */
export function cachedNodeRoutes(deps: RouteDeps, version: NodeApiVersion): Router<ApiState> {
  const { pool, metrics } = deps;
  const router = new Router<ApiState>({ prefix: `/${version}` });
  if (version === 'v3') router.use(intsAsStringsOf);

  /** miss forwards to the node (which answers what it knows, e.g. pending transactions, or its own error). */
  const miss = async (ctx: ApiContext): Promise<void> => {
    metrics.cacheAnswers.inc({ result: 'forward' });
    await deps.forward(ctx);
  };
  /** hit answers from the database; answers about a height (not "current") are offered to the response cache. */
  const hit = (ctx: ApiContext, stored: string, aboutHeight?: number, current = false): void => {
    metrics.cacheAnswers.inc({ result: 'hit' });
    const json = ctx.state.intsAsStrings ? stringifyJson(integersAsStrings(parseJson(stored))) : stored;
    sendJsonText(ctx, json, aboutHeight);
    if (!current && aboutHeight !== undefined) ctx.state.cacheableJson = json;
  };

  const generationAt = async (ctx: ApiContext, height: number | undefined, current: boolean): Promise<void> => {
    const gen = height === undefined ? undefined : await generationJson(pool, height);
    if (!gen) return miss(ctx);
    // A generation may still grow while it is the top: it is final once its successor is.
    hit(ctx, gen.json, gen.height + 1, current);
  };

  router.get('/generations/current', async (ctx) => generationAt(ctx, await topHeight(pool), true));

  router.get('/generations/height/:height', async (ctx) => {
    const height = heightParam(ctx);
    if (height !== null) await generationAt(ctx, height, false);
  });

  router.get('/key-blocks/current/height', async (ctx) => {
    const top = await topHeight(pool);
    if (top === undefined) return miss(ctx);
    hit(ctx, JSON.stringify({ height: top }), undefined, true);
  });

  router.get('/key-blocks/hash/:hash', async (ctx) => {
    if (!hashParam(ctx, ['kh'], false)) return;
    const kb = await keyBlockJson(pool, { hash: ctx.params.hash! });
    if (!kb) return miss(ctx);
    hit(ctx, kb.json, kb.height);
  });

  router.get('/key-blocks/height/:height', async (ctx) => {
    const height = heightParam(ctx);
    if (height === null) return;
    const kb = height === undefined ? undefined : await keyBlockJson(pool, { height });
    if (!kb) return miss(ctx);
    hit(ctx, kb.json, kb.height);
  });

  router.get('/micro-blocks/hash/:hash/header', async (ctx) => {
    if (!hashParam(ctx, ['mh'])) return;
    const mb = await microBlockHeaderJson(pool, ctx.params.hash!);
    if (!mb) return miss(ctx);
    hit(ctx, mb.json, mb.height);
  });

  router.get('/micro-blocks/hash/:hash/transactions', async (ctx) => {
    if (!hashParam(ctx, ['mh'])) return;
    const mb = await microBlockHeaderJson(pool, ctx.params.hash!);
    if (!mb) return miss(ctx);
    hit(ctx, await microBlockTransactionsJson(pool, ctx.params.hash!), mb.height);
  });

  router.get('/micro-blocks/hash/:hash/transactions/count', async (ctx) => {
    if (!hashParam(ctx, ['mh'])) return;
    const mb = await microBlockHeaderJson(pool, ctx.params.hash!);
    if (!mb) return miss(ctx);
    hit(ctx, JSON.stringify({ count: mb.txCount }), mb.height);
  });

  router.get('/micro-blocks/hash/:hash/transactions/index/:index', async (ctx) => {
    const index = indexParam(ctx);
    if (index === null) return;
    // a malformed hash, an unknown block or an index past its end: the node's own answer (its errors differ by case)
    if (index === undefined || decodeErrorCode(ctx.params.hash ?? '', ['mh']) !== undefined) return miss(ctx);
    const mb = await microBlockHeaderJson(pool, ctx.params.hash!);
    const tx = mb && (await microBlockTransactionJson(pool, ctx.params.hash!, index - 1));
    if (!mb || tx === undefined) return miss(ctx);
    hit(ctx, tx, mb.height);
  });

  router.get('/transactions/:hash', async (ctx) => {
    if (!hashParam(ctx, ['th'])) return;
    const tx = await transactionJson(pool, ctx.params.hash!);
    if (!tx) return miss(ctx);
    hit(ctx, tx.json, tx.height);
  });

  return router;
}

/**
 * hashParam answers the node's 400 `Invalid hash` for a malformed hash and returns false: with safe_decode's
 * `error_code`, but for the handlers that never give one (`coded` false: GetKeyBlockByHash).
 */
function hashParam(ctx: ApiContext, prefixes: readonly Prefix[], coded = true): boolean {
  const code = decodeErrorCode(ctx.params.hash ?? '', prefixes);
  if (code === undefined) return true;
  sendJson(ctx, { reason: 'Invalid hash', ...(coded ? { error_code: code } : {}) }, undefined, 400);
  return false;
}

/**
 * heightParam reads a height as the node's validator does (readNodeHeight), answering its 400 for a refused one
 * (null); a height beyond what the database can hold → undefined (the node answers it, its maximum included).
 */
function heightParam(ctx: ApiContext): number | undefined | null {
  const read = readNodeHeight(ctx.params.height ?? '');
  if ('error' in read) {
    validationError(ctx, 'height', read.error, read.data);
    return null;
  }
  return read.height <= MAX_STORED_HEIGHT ? Number(read.height) : undefined;
}

/**
 * indexParam reads a micro block's 1-based transaction index as the node's validator does (readNodeHeight, minimum 1),
 * answering its 400 for a refused one (null); one beyond what the database can hold → undefined (the node answers it).
 */
function indexParam(ctx: ApiContext): number | undefined | null {
  const read = readNodeHeight(ctx.params.index ?? '', 1n);
  if ('error' in read) {
    validationError(ctx, 'index', read.error, read.data);
    return null;
  }
  return read.height <= MAX_STORED_HEIGHT ? Number(read.height) : undefined;
}

/** validationError answers the node's 400 for a parameter its validator refuses. */
function validationError(ctx: ApiContext, parameter: string, error: string, data: string | bigint): void {
  sendJson(ctx, { reason: 'validation_error', parameter, info: { error, data } }, undefined, 400);
}

/** intsAsStringsOf reads a /v3 request's `int-as-string` as the node does: a value it cannot parse is its 400. */
async function intsAsStringsOf(ctx: ApiContext, next: () => Promise<unknown>): Promise<void> {
  const flag = intAsStringParam(ctx.querystring);
  if (typeof flag === 'object') return validationError(ctx, 'int-as-string', 'wrong_type', flag.invalid);
  ctx.state.intsAsStrings = flag;
  await next();
}
