/**
 * @module SQL for the original's generation lists, whose entries hold a generation's key block, micro blocks and
 * transactions in one JSON: above blocks.ts and transactions.ts, whose fragments it joins.
 */
import type { Queryable } from '../connection/pool.ts';
import { microHeaderSql } from './blocks.ts';
import { renderPlaceholders } from './stored-tx-json.ts';
import { RAW_TX_JSON } from './transactions.ts';

/**
 * newGenerationsJson pages generations from..to, oldest first, as the original's
 * `/middleware/new/generations` entries: `{"key_block": KB, "micro_blocks": [{"micro_block": MB,
 * "transactions": [RawTx]}]}`, micro blocks and transactions in chain order. KB is the node's key
 * block with `nonce` as an exact string (as the original sent it); MB the node's header without
 * `height`. Returns the JSON texts and the newest height among them.
 */
export async function newGenerationsJson(
  db: Queryable,
  from: number,
  to: number,
  w: { limit: number; offset: number },
): Promise<{ height: number; json: string }[]> {
  const { rows } = await db.query<{ height: number; json: string }>(
    `SELECT k.height, jsonb_build_object(
              'key_block', k.data || jsonb_build_object('nonce', k.data->>'nonce'),
              'micro_blocks', ARRAY(
                SELECT jsonb_build_object('micro_block', ${microHeaderSql('m')} - 'height', 'transactions', ARRAY(
                         SELECT ${RAW_TX_JSON} FROM transactions t
                          WHERE t.height = m.height AND t.micro_index = m.micro_index ORDER BY t.tx_index))
                  FROM micro_blocks m WHERE m.height = k.height ORDER BY m.micro_index))::text AS json
       FROM key_blocks k WHERE k.height BETWEEN $1 AND $2 ORDER BY k.height LIMIT $3 OFFSET $4`,
    [from, to, w.limit, w.offset],
  );
  return rows.map((r) => ({ height: r.height, json: renderPlaceholders(r.json) }));
}
