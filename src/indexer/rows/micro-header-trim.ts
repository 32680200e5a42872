/**
 * @module The header a micro_blocks row stores (migration 1000): the node's, without hash, height and time,
 * which are the row's own columns, and without prev_key_hash and prev_hash, the hashes of its generation's key block
 * and of the block before it (the queries put them back: src/db/queries/blocks.ts `microHeaderSql`). Pure.
 */
import { toBigInt } from '../../chain/json.ts';
import type { JsonObject, MicroBlockRow } from './rows.ts';

/**
 * storedMicroHeader is `header` without the members that hold exactly what the queries put back: the row's hash,
 * height and time, its key block's hash and the hash of the block before it. A member that differs (or whose value
 * the row does not know: the first block of a generation's continuation) stays, and wins when the queries put the
 * others back; the node's header always has all five.
 */
export function storedMicroHeader(
  row: Pick<MicroBlockRow, 'hash' | 'height' | 'timeMs' | 'header' | 'keyHash' | 'prevHash'>,
): JsonObject {
  const { hash, height, time, prev_key_hash: prevKeyHash, prev_hash: prevHash, ...rest } = row.header;
  if (hash !== undefined && hash !== row.hash) rest.hash = hash;
  if (height !== undefined && height !== row.height) rest.height = height;
  if (time !== undefined && toBigInt(time) !== row.timeMs) rest.time = time;
  if (prevKeyHash !== undefined && prevKeyHash !== row.keyHash) rest.prev_key_hash = prevKeyHash;
  if (prevHash !== undefined && (row.prevHash === undefined || prevHash !== row.prevHash)) rest.prev_hash = prevHash;
  return rest;
}
