/**
 * @module The stored key blocks of a range of heights as the node gave them: what a derived area that reads key blocks
 * (the hyperchain's flags and epoch boundaries) reads instead of fetching them again.
 */
import { isJsonObject, parseJson, type Json } from '../../chain/json.ts';
import type { Queryable } from '../connection/pool.ts';

/** A stored key block: its height and the node's KeyBlock object. */
export interface StoredKeyBlock {
  readonly height: number;
  readonly keyBlock: { [key: string]: Json };
}

/** storedKeyBlocks gives the stored key blocks of heights from..to, ascending, with exact integers. */
export async function storedKeyBlocks(db: Queryable, from: number, to: number): Promise<StoredKeyBlock[]> {
  const { rows } = await db.query<{ height: number; json: string }>(
    'SELECT height, data::text AS json FROM key_blocks WHERE height BETWEEN $1 AND $2 ORDER BY height',
    [from, to],
  );
  return rows.map((r) => {
    const keyBlock = parseJson(r.json);
    if (!isJsonObject(keyBlock)) throw new Error(`stored key block ${r.height} is not an object`);
    return { height: r.height, keyBlock };
  });
}
