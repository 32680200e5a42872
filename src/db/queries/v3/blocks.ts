/** @module Read-side SQL for ae_mdw's key and micro block lists: node headers with their counts. */
import type { Json } from '../../../chain/json.ts';
import type { Queryable } from '../../pool.ts';
import { microHeaderSql } from '../blocks.ts';
import { keyset, type Walk } from '../positions.ts';
import { txTypeCode } from '../../../chain/id-key.ts';

/** A key block with what ae_mdw counts about it. */
export interface KeyBlockCounted {
  readonly height: number;
  readonly data: { [key: string]: Json };
  readonly microBlocksCount: number;
  readonly transactionsCount: number;
  /** what this key block paid its miners (its reward_block transfers) */
  readonly beneficiaryReward: string;
}

/** A micro block with its place and its transactions' count and gas. */
export interface MicroBlockCounted {
  readonly height: number;
  readonly microIndex: number;
  readonly header: { [key: string]: Json };
  readonly transactionsCount: number;
  readonly gas: string;
}

const KEY_BLOCK_COUNTED = `k.height, k.data,
  (SELECT count(*) FROM micro_blocks m WHERE m.height = k.height)::int AS "microBlocksCount",
  (SELECT coalesce(sum(m.tx_count), 0) FROM micro_blocks m WHERE m.height = k.height)::int AS "transactionsCount",
  (SELECT coalesce(sum(x.amount), 0)::text FROM internal_transfers x
    WHERE x.height = k.height AND x.micro_index = -1 AND x.tx_index = -1 AND x.kind = 'reward_block') AS "beneficiaryReward"`;

// The gas a micro block uses as the node counts it: each transaction's base gas (five times the
// base for contract and GA creation), 20 per byte, and the gas limit of calls and creations.
const MICRO_BLOCK_COUNTED = `m.height, m.micro_index AS "microIndex", ${microHeaderSql('m')} AS header, m.tx_count AS "transactionsCount",
  (SELECT coalesce(sum(CASE WHEN t.tx_type IN (${txTypeCode('ContractCreateTx')}, ${txTypeCode('GAAttachTx')}) THEN 75000 ELSE 15000 END
                       + 20 * t.size + coalesce(t.gas, 0)), 0)::text
     FROM transactions t WHERE t.height = m.height AND t.micro_index = m.micro_index) AS gas`;

/** keyBlocksPage reads up to n key blocks walking from a height (inclusive) within first..last. */
export async function keyBlocksPage(
  db: Queryable,
  walk: Walk,
  from: number | undefined,
  n: number,
  range: { first: number; last: number },
): Promise<KeyBlockCounted[]> {
  const ks = keyset(['k.height'], walk, from === undefined ? undefined : '$4');
  const values: unknown[] = [range.first, range.last, n];
  if (from !== undefined) values.push(from);
  const { rows } = await db.query<KeyBlockCounted>({
    name: `mdw_v3_key_blocks_${walk}${from === undefined ? '' : '_from'}`,
    text: `SELECT ${KEY_BLOCK_COUNTED} FROM key_blocks k
            WHERE k.height BETWEEN $1 AND $2 AND ${ks.where} ORDER BY ${ks.order} LIMIT $3`,
    values,
  });
  return rows;
}

/** keyBlockCounted reads one key block by height or hash. */
export async function keyBlockCounted(
  db: Queryable,
  by: { height: number } | { hash: string },
): Promise<KeyBlockCounted | undefined> {
  const { rows } = await db.query<KeyBlockCounted>({
    name: 'height' in by ? 'mdw_v3_key_block_by_height' : 'mdw_v3_key_block_by_hash',
    text: `SELECT ${KEY_BLOCK_COUNTED} FROM key_blocks k WHERE ${'height' in by ? 'k.height' : 'k.hash'} = $1`,
    values: ['height' in by ? by.height : by.hash],
  });
  return rows[0];
}

/** microBlocksPage reads up to n micro blocks of a generation walking from a micro index (inclusive). */
export async function microBlocksPage(
  db: Queryable,
  height: number,
  walk: Walk,
  from: number | undefined,
  n: number,
): Promise<MicroBlockCounted[]> {
  const ks = keyset(['m.micro_index'], walk, from === undefined ? undefined : '$3');
  const values: unknown[] = [height, n];
  if (from !== undefined) values.push(from);
  const { rows } = await db.query<MicroBlockCounted>({
    name: `mdw_v3_micro_blocks_${walk}${from === undefined ? '' : '_from'}`,
    text: `SELECT ${MICRO_BLOCK_COUNTED} FROM micro_blocks m
            WHERE m.height = $1 AND ${ks.where} ORDER BY ${ks.order} LIMIT $2`,
    values,
  });
  return rows;
}

/** microBlockCounted reads one micro block by hash. */
export async function microBlockCounted(db: Queryable, hash: string): Promise<MicroBlockCounted | undefined> {
  const { rows } = await db.query<MicroBlockCounted>({
    name: 'mdw_v3_micro_block',
    text: `SELECT ${MICRO_BLOCK_COUNTED} FROM micro_blocks m WHERE m.hash = $1`,
    values: [hash],
  });
  return rows[0];
}

/** topStoredHeight is the highest stored key block, or -1. */
export async function topStoredHeight(db: Queryable): Promise<number> {
  const { rows } = await db.query<{ h: number | null }>({
    name: 'mdw_v3_top_height',
    text: 'SELECT max(height) AS h FROM key_blocks',
  });
  return rows[0]?.h ?? -1;
}
