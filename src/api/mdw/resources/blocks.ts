/** @module /v3/key-blocks and /v3/micro-blocks: node headers with ae_mdw's counts, paged by height and index. */
import type { RouterContext } from '@koa/router';
import type { Pool } from '../../../db/pool.ts';
import {
  keyBlockCounted,
  keyBlocksPage,
  microBlockCounted,
  microBlocksPage,
  type KeyBlockCounted,
} from '../../../db/queries/blocks.ts';
import { microBlockTransactionsPage } from '../../../db/queries/transactions.ts';
import { INDEX_CURSOR } from './cursors.ts';
import { v3BadRequest, v3NotFound } from './mdw-errors.ts';
import { sendList } from './list.ts';
import type { V3Env } from '../rest/operation.ts';
import { ALL_HEIGHTS, parseHash, parseNonNegative, parsePaging } from './mdw-params.ts';
import { keyBlockJson, keyBlockObject, microBlockJson, microBlockObject } from '../../../shapes/v3/render-blocks.ts';
import { transactionObject } from '../../../shapes/v3/render-tx.ts';
import { sendText } from '../rest/mdw-respond.ts';

/** getKeyBlocks: key blocks by height. */
export async function getKeyBlocks(ctx: RouterContext, { pool }: V3Env): Promise<void> {
  const paging = parsePaging(ctx.query);
  const range = paging.scope ?? ALL_HEIGHTS;
  await sendList(ctx, paging, {
    cursor: INDEX_CURSOR,
    read: (walk, from, n) => keyBlocksPage(pool, walk, from, n, range),
    key: (k) => k.height,
    item: keyBlockObject,
  });
}

/** getKeyBlock: a key block by hash or height. */
export async function getKeyBlock(ctx: RouterContext, { pool }: V3Env): Promise<void> {
  sendText(ctx, keyBlockJson(await keyBlock(pool, ctx.params.hash_or_kbi!)));
}

/** getKeyBlockMicroBlocks: the micro blocks of a generation by index. */
export async function getKeyBlockMicroBlocks(ctx: RouterContext, { pool }: V3Env): Promise<void> {
  const paging = parsePaging(ctx.query);
  const { height } = await keyBlock(pool, ctx.params.hash_or_kbi!);
  await sendList(ctx, paging, {
    cursor: INDEX_CURSOR,
    read: (walk, from, n) => microBlocksPage(pool, height, walk, from, n),
    key: (m) => m.microIndex,
    item: microBlockObject,
  });
}

/** getMicroBlock: a micro block. */
export async function getMicroBlock(ctx: RouterContext, { pool }: V3Env): Promise<void> {
  const hash = parseHash(ctx.params.hash, 'mh');
  const block = await microBlockCounted(pool, hash);
  if (!block) throw v3NotFound(hash);
  sendText(ctx, microBlockJson(block));
}

/** getMicroBlockTransactions: the transactions of a micro block by index. */
export async function getMicroBlockTransactions(ctx: RouterContext, { pool }: V3Env): Promise<void> {
  const paging = parsePaging(ctx.query);
  const hash = parseHash(ctx.params.hash, 'mh');
  const block = await microBlockCounted(pool, hash);
  if (!block) throw v3NotFound(hash);
  await sendList(ctx, paging, {
    cursor: INDEX_CURSOR,
    read: (walk, from, n) => microBlockTransactionsPage(pool, block, walk, from, n),
    key: (t) => t.txIndex,
    item: transactionObject,
  });
}

/** keyBlock finds a key block by `kh_` hash or decimal height (ae_mdw's `hash_or_kbi`). */
async function keyBlock(pool: Pool, hashOrKbi: string): Promise<KeyBlockCounted> {
  const height = parseNonNegative(hashOrKbi);
  if (height === undefined && !hashOrKbi.startsWith('kh_')) throw v3BadRequest(`invalid block index: ${hashOrKbi}`);
  const by = height === undefined ? { hash: parseHash(hashOrKbi, 'kh') } : { height };
  const block = await keyBlockCounted(pool, by);
  if (!block) throw v3NotFound(hashOrKbi);
  return block;
}
