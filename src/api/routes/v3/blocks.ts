/** @module /v3/key-blocks and /v3/micro-blocks: node headers with ae_mdw's counts, paged by height and index. */
import type Router from '@koa/router';
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
import { v3BadRequest, v3NotFound } from './errors.ts';
import { paginate } from './page.ts';
import { ALL_HEIGHTS, parseHash, parseNonNegative, parsePaging } from './params.ts';
import { keyBlockJson, microBlockJson } from '../../../shapes/v3/render-blocks.ts';
import { transactionJson } from '../../../shapes/v3/render-tx.ts';
import { sendPage, sendText } from './respond.ts';

/** blockRoutes registers the key and micro block operations on the /v3 router. */
export function blockRoutes(router: Router, pool: Pool): void {
  router.get('/key-blocks', async (ctx) => {
    const paging = parsePaging(ctx.query);
    const range = paging.scope ?? ALL_HEIGHTS;
    const page = await paginate(
      async (walk, from, n) =>
        (await keyBlocksPage(pool, walk, from, n, range)).map((k) => ({ key: k.height, item: keyBlockJson(k) })),
      { ...paging, cursor: INDEX_CURSOR.decode(paging.cursor) },
    );
    sendPage(ctx, page, INDEX_CURSOR.encode);
  });

  router.get('/key-blocks/:hash_or_kbi', async (ctx) => {
    sendText(ctx, keyBlockJson(await keyBlock(pool, ctx.params.hash_or_kbi!)));
  });

  router.get('/key-blocks/:hash_or_kbi/micro-blocks', async (ctx) => {
    const paging = parsePaging(ctx.query);
    const { height } = await keyBlock(pool, ctx.params.hash_or_kbi!);
    const page = await paginate(
      async (walk, from, n) =>
        (await microBlocksPage(pool, height, walk, from, n)).map((m) => ({
          key: m.microIndex,
          item: microBlockJson(m),
        })),
      { ...paging, cursor: INDEX_CURSOR.decode(paging.cursor) },
    );
    sendPage(ctx, page, INDEX_CURSOR.encode);
  });

  router.get('/micro-blocks/:hash', async (ctx) => {
    const hash = parseHash(ctx.params.hash, 'mh');
    const block = await microBlockCounted(pool, hash);
    if (!block) throw v3NotFound(hash);
    sendText(ctx, microBlockJson(block));
  });

  router.get('/micro-blocks/:hash/transactions', async (ctx) => {
    const paging = parsePaging(ctx.query);
    const hash = parseHash(ctx.params.hash, 'mh');
    const block = await microBlockCounted(pool, hash);
    if (!block) throw v3NotFound(hash);
    const page = await paginate(
      async (walk, from, n) =>
        (await microBlockTransactionsPage(pool, block, walk, from, n)).map((t) => ({
          key: t.txIndex,
          item: transactionJson(t),
        })),
      { ...paging, cursor: INDEX_CURSOR.decode(paging.cursor) },
    );
    sendPage(ctx, page, INDEX_CURSOR.encode);
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
