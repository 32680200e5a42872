/**
 * @module The batch loaders of one GraphQL request: the blocks the items of a page point at, read in one query per
 * page (not one per item, mdw/graphql/batch.ts) and shaped as /v3/micro-blocks/{hash} and /v3/key-blocks/{height} shape them.
 */
import type { Deadline } from '../../http/admission.ts';
import type { Pool } from '../../../db/connection/pool.ts';
import { keyBlocksCountedAt, microBlocksCounted } from '../../../db/queries/blocks.ts';
import { keyBlockObject, microBlockObject } from '../../../shapes/v3/render-blocks.ts';
import { BatchLoader } from './batch-loader.ts';
import type { Loaders, RestObject } from './context.ts';

/** requestLoaders are a request's loaders: their caches live as long as the request, their reads until its deadline. */
export function requestLoaders(pool: Pool, deadline: Deadline): Loaders {
  return {
    microBlock: new BatchLoader(async (hashes: readonly string[]) => {
      deadline.check();
      const blocks = (await microBlocksCounted(pool, hashes)).map(microBlockObject);
      return inOrder(hashes, blocks, (b) => b.hash as string);
    }),
    keyBlock: new BatchLoader(async (heights: readonly number[]) => {
      deadline.check();
      const blocks = (await keyBlocksCountedAt(pool, heights)).map(keyBlockObject);
      return inOrder(heights, blocks, (b) => b.height as number);
    }),
  };
}

/** inOrder lines the rows up with the keys asked for (null where none was found), as a DataLoader answers. */
function inOrder<K>(
  keys: readonly K[],
  rows: readonly RestObject[],
  key: (row: RestObject) => K,
): (RestObject | null)[] {
  const byKey = new Map(rows.map((row) => [key(row), row]));
  return keys.map((k) => byKey.get(k) ?? null);
}
