/** @module /v3/key-blocks and /v3/micro-blocks: node headers with ae_mdw's counts, paged by height and index. */
import type { Pool } from '../../../db/connection/pool.ts';
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
import { listPage } from './list.ts';
import { oneObject, page, resource } from './resource.ts';
import { ALL_HEIGHTS, parseHash, parseNonNegative, parsePaging } from './mdw-params.ts';
import { keyBlockObject, microBlockObject } from '../../../shapes/v3/render-blocks.ts';
import { transactionObject } from '../../../shapes/v3/render-tx.ts';
import { KEY_BLOCK, MICRO_BLOCK } from '../../../shapes/v3/shapes-blocks.ts';
import { TRANSACTION } from '../../../shapes/v3/shapes-tx.ts';

/** getKeyBlocks: key blocks by height. */
export const getKeyBlocks = resource(page(KEY_BLOCK), async ({ pool }, req) => {
  const paging = parsePaging(req.query);
  const range = paging.scope ?? ALL_HEIGHTS;
  return listPage(paging, {
    cursor: INDEX_CURSOR,
    read: (window) => keyBlocksPage(pool, range, window),
    key: (k) => k.height,
    item: keyBlockObject,
  });
});

/** getKeyBlock: a key block by hash or height. */
export const getKeyBlock = resource(KEY_BLOCK, async ({ pool }, req) => {
  return keyBlockObject(await keyBlock(pool, req.params.hash_or_kbi!));
});

/** getKeyBlockMicroBlocks: the micro blocks of a generation by index. */
export const getKeyBlockMicroBlocks = resource(page(MICRO_BLOCK), async ({ pool }, req) => {
  const paging = parsePaging(req.query);
  const { height } = await keyBlock(pool, req.params.hash_or_kbi!);
  return listPage(paging, {
    cursor: INDEX_CURSOR,
    read: (window) => microBlocksPage(pool, height, window),
    key: (m) => m.microIndex,
    item: microBlockObject,
  });
});

/** getMicroBlock: a micro block. */
export const getMicroBlock = oneObject(
  MICRO_BLOCK,
  (p) => parseHash(p.hash, 'mh'),
  microBlockCounted,
  microBlockObject,
);

/** getMicroBlockTransactions: the transactions of a micro block by index. */
export const getMicroBlockTransactions = resource(page(TRANSACTION), async ({ pool }, req) => {
  const paging = parsePaging(req.query);
  const hash = parseHash(req.params.hash, 'mh');
  const block = await microBlockCounted(pool, hash);
  if (!block) throw v3NotFound(hash);
  return listPage(paging, {
    cursor: INDEX_CURSOR,
    read: (window) => microBlockTransactionsPage(pool, block, window),
    key: (t) => t.txIndex,
    item: transactionObject,
  });
});

/** keyBlock finds a key block by `kh_` hash or decimal height (ae_mdw's `hash_or_kbi`). */
async function keyBlock(pool: Pool, hashOrKbi: string): Promise<KeyBlockCounted> {
  const height = parseNonNegative(hashOrKbi);
  if (height === undefined && !hashOrKbi.startsWith('kh_')) throw v3BadRequest(`invalid block index: ${hashOrKbi}`);
  const by = height === undefined ? { hash: parseHash(hashOrKbi, 'kh') } : { height };
  const block = await keyBlockCounted(pool, by);
  if (!block) throw v3NotFound(hashOrKbi);
  return block;
}
