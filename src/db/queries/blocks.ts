/**
 * @module Read-side SQL for key blocks, micro blocks and generations: the node's objects, ae_mdw's counted lists, the
 * top, block times; the stored hashes the populator compares are in block-hashes.ts.
 */
import { txTypeCode } from '../../chain/id-key.ts';
import type { Json } from '../../chain/json.ts';
import { protocolReport, type ProtocolReport } from '../../chain/protocols.ts';
import type { Queryable } from '../connection/pool.ts';
import { keyset, type PageReader } from './positions.ts';
import { rangePage } from './range-page.ts';

/** A stored key block: its height and the node's KeyBlock object. */
export interface KeyBlockRow {
  readonly height: number;
  readonly hash: string;
  readonly timeMs: number;
  readonly data: Json;
}

/** A stored micro block header with its position in the chain. */
export interface MicroBlockRow {
  readonly hash: string;
  readonly height: number;
  readonly microIndex: number;
  readonly txCount: number;
  readonly header: Json;
}

const KEY_BLOCK_COLUMNS = 'height, hash, time_ms, data';
/**
 * microHeaderSql is the SQL of the node's header of the micro_blocks row `m`: the stored header (migration 1000)
 * with the row's hash, height and time put back, and prev_key_hash and prev_hash, the hashes of its key block
 * and of the block before it (the key block for the first micro block). jsonb keeps an object's keys in one order
 * whatever the order they were added in, and a member the stored header still holds wins, so the object is the node's.
 */
export function microHeaderSql(m: string): string {
  const keyHash = `(SELECT k.hash FROM key_blocks k WHERE k.height = ${m}.height)`;
  const prevHash = `CASE WHEN ${m}.micro_index = 0 THEN ${keyHash} ELSE (SELECT p.hash FROM micro_blocks p
    WHERE p.height = ${m}.height AND p.micro_index = ${m}.micro_index - 1) END`;
  return `(jsonb_build_object('hash', ${m}.hash, 'height', ${m}.height, 'time', ${m}.time_ms,
    'prev_key_hash', ${keyHash}, 'prev_hash', ${prevHash}) || ${m}.header)`;
}

const MICRO_BLOCK_COLUMNS = `hash, height, micro_index AS "microIndex", tx_count AS "txCount", ${microHeaderSql('micro_blocks')} AS header`;

/** The highest stored key block: its height, hash and time. */
export interface TopKeyBlock {
  readonly height: number;
  readonly hash: string;
  readonly timeMs: number;
}

/** topKeyBlock is the highest stored key block (undefined for an empty database): the one "top" every role reads. */
export async function topKeyBlock(db: Queryable): Promise<TopKeyBlock | undefined> {
  const { rows } = await db.query<{ height: number; hash: string; time_ms: string }>({
    name: 'mdw_top_key_block',
    text: 'SELECT height, hash, time_ms FROM key_blocks ORDER BY height DESC LIMIT 1',
  });
  const r = rows[0];
  return r && { height: r.height, hash: r.hash, timeMs: Number(r.time_ms) };
}

/**
 * topHeight is the highest stored height (undefined for an empty database): the one reading of the top height for
 * every API, the websocket and the populator (those that count from the top of an empty chain take -1).
 */
export async function topHeight(db: Queryable): Promise<number | undefined> {
  return (await topKeyBlock(db))?.height;
}

/** topBlockHash is the newest stored block's hash (its last micro block, else its key block). */
export async function topBlockHash(db: Queryable): Promise<string | undefined> {
  const { rows } = await db.query<{ hash: string }>({
    name: 'mdw_top_block_hash',
    text: `SELECT coalesce((SELECT m.hash FROM micro_blocks m WHERE m.height = k.height ORDER BY m.micro_index DESC LIMIT 1),
                           k.hash) AS hash
             FROM key_blocks k ORDER BY k.height DESC LIMIT 1`,
  });
  return rows[0]?.hash;
}

/**
 * protocolEntry finds the stored key block where the chain enters `version` (the lowest stored height whose
 * key block has it or a later one), with its stored predecessor's protocol; undefined when none is stored.
 * Protocols never fall along the chain, so it is a binary search of point reads, not a scan of key_blocks.
 */
export async function protocolEntry(
  db: Queryable,
  version: number,
): Promise<{ height: number; previous: number | undefined } | undefined> {
  const at = async (height: number): Promise<{ height: number; version: number } | undefined> => {
    const { rows } = await db.query<{ height: number; version: number }>(
      `SELECT height, coalesce((data->>'version')::int, 1) AS version FROM key_blocks
        WHERE height >= $1 ORDER BY height LIMIT 1`,
      [height],
    );
    return rows[0];
  };
  let [lo, hi] = [0, (await topHeight(db)) ?? -1];
  let found: { height: number; version: number } | undefined;
  while (lo <= hi) {
    const mid = Math.floor((lo + hi) / 2);
    const block = await at(mid);
    if (block && block.version >= version) {
      found = block;
      hi = mid - 1;
    } else lo = (block?.height ?? mid) + 1;
  }
  if (!found) return undefined;
  const before = found.height === 0 ? undefined : await at(found.height - 1);
  return { height: found.height, previous: before?.height === found.height - 1 ? before.version : undefined };
}

/** topProtocol is the height and protocol of the newest stored key block (undefined for an empty database). */
export async function topProtocol(db: Queryable): Promise<{ height: number; version: number } | undefined> {
  const { rows } = await db.query<{ height: number; version: number }>({
    name: 'mdw_top_protocol',
    text: `SELECT height, coalesce((data->>'version')::int, 1) AS version FROM key_blocks ORDER BY height DESC LIMIT 1`,
  });
  return rows[0];
}

/**
 * storedProtocolReport is the protocol of the newest stored key block as the statuses show it, with the lowest stored
 * height of that protocol (where the stored chain entered it: protocolEntry); undefined for an empty database.
 */
export async function storedProtocolReport(db: Queryable): Promise<ProtocolReport | undefined> {
  const top = await topProtocol(db);
  if (!top) return undefined;
  const entry = await protocolEntry(db, top.version);
  return protocolReport(top.version, entry?.height ?? top.height);
}

/** keyBlockTimes reads the times of stored key blocks at the heights (absent heights are left out). */
export async function keyBlockTimes(db: Queryable, heights: readonly number[]): Promise<Map<number, number>> {
  const { rows } = await db.query<{ height: number; time: string }>({
    name: 'mdw_key_block_times',
    text: 'SELECT height, time_ms::text AS time FROM key_blocks WHERE height = ANY($1::int[])',
    values: [heights],
  });
  return new Map(rows.map((r) => [r.height, Number(r.time)]));
}

/** keyBlockDays are the days of the first and last key block within heights first..last, or undefined when none is stored. */
export async function keyBlockDays(
  db: Queryable,
  first: number,
  last: number,
): Promise<{ firstDay: number; lastDay: number } | undefined> {
  const { rows } = await db.query<{ first: number | null; last: number | null }>({
    name: 'mdw_key_block_days',
    text: `SELECT floor(min(time_ms) / 86400000)::int AS first, floor(max(time_ms) / 86400000)::int AS last
             FROM key_blocks WHERE height BETWEEN $1 AND $2`,
    values: [first, last],
  });
  const r = rows[0];
  return r && r.first !== null && r.last !== null ? { firstDay: r.first, lastDay: r.last } : undefined;
}

/** keyBlockAt returns the key block at a height. */
export async function keyBlockAt(db: Queryable, height: number): Promise<KeyBlockRow | undefined> {
  const { rows } = await db.query(`SELECT ${KEY_BLOCK_COLUMNS} FROM key_blocks WHERE height = $1`, [height]);
  return rows[0] && toKeyBlock(rows[0]);
}

// The hot read paths use named statements: each connection parses and plans them once.

/** A node object as stored, already serialised by PostgreSQL (exact integers, no parse on the hot path). */
export interface StoredJson {
  readonly height: number;
  readonly json: string;
}

/** keyBlockJson returns the node's KeyBlock at a height, or with a hash, as JSON text. */
export async function keyBlockJson(
  db: Queryable,
  by: { height: number } | { hash: string },
): Promise<StoredJson | undefined> {
  const { rows } =
    'height' in by
      ? await db.query<StoredJson>({
          name: 'mdw_key_block_by_height',
          text: 'SELECT height, data::text AS json FROM key_blocks WHERE height = $1',
          values: [by.height],
        })
      : await db.query<StoredJson>({
          name: 'mdw_key_block_by_hash',
          text: 'SELECT height, data::text AS json FROM key_blocks WHERE hash = $1',
          values: [by.hash],
        });
  return rows[0];
}

/** generationJson returns the node's Generation (key block and micro block hashes in chain order) as JSON text. */
export async function generationJson(db: Queryable, height: number): Promise<StoredJson | undefined> {
  const { rows } = await db.query<StoredJson>({
    name: 'mdw_generation',
    text: `SELECT k.height, json_build_object('key_block', k.data,
              'micro_blocks', ARRAY(SELECT m.hash FROM micro_blocks m WHERE m.height = k.height ORDER BY m.micro_index))::text AS json
       FROM key_blocks k WHERE k.height = $1`,
    values: [height],
  });
  return rows[0];
}

/** microBlockHeaderJson returns the node's MicroBlockHeader as JSON text, with its height and transaction count. */
export async function microBlockHeaderJson(
  db: Queryable,
  hash: string,
): Promise<(StoredJson & { txCount: number }) | undefined> {
  const { rows } = await db.query<StoredJson & { txCount: number }>({
    name: 'mdw_micro_block_header',
    text: `SELECT m.height, m.tx_count AS "txCount", ${microHeaderSql('m')}::text AS json FROM micro_blocks m WHERE m.hash = $1`,
    values: [hash],
  });
  return rows[0];
}

/** keyBlocksBetween returns key blocks of from..to (inclusive), newest first, paged. */
export async function keyBlocksBetween(
  db: Queryable,
  from: number,
  to: number,
  limit: number,
  offset: number,
): Promise<KeyBlockRow[]> {
  const { rows } = await db.query(
    `SELECT ${KEY_BLOCK_COLUMNS} FROM key_blocks WHERE height BETWEEN $1 AND $2 ORDER BY height DESC LIMIT $3 OFFSET $4`,
    [from, to, limit, offset],
  );
  return rows.map(toKeyBlock);
}

/** microBlocksBetween returns the micro blocks of heights from..to in chain order. */
export async function microBlocksBetween(db: Queryable, from: number, to: number): Promise<MicroBlockRow[]> {
  const { rows } = await db.query<MicroBlockRow>(
    `SELECT ${MICRO_BLOCK_COLUMNS} FROM micro_blocks WHERE height BETWEEN $1 AND $2 ORDER BY height, micro_index`,
    [from, to],
  );
  return rows;
}

/** firstHeightAtOrAfter is the first key block whose time is at or after `millis`. */
export async function firstHeightAtOrAfter(db: Queryable, millis: number): Promise<number | undefined> {
  const { rows } = await db.query<{ height: number }>(
    'SELECT height FROM key_blocks WHERE time_ms >= $1 ORDER BY time_ms, height LIMIT 1',
    [millis],
  );
  return rows[0]?.height;
}

function toKeyBlock(r: Record<string, unknown>): KeyBlockRow {
  return { height: r.height as number, hash: r.hash as string, timeMs: Number(r.time_ms), data: r.data as Json };
}

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

/** keyBlocksPage reads up to n key blocks within a range of heights, walking from a height (inclusive). */
export const keyBlocksPage = rangePage<KeyBlockCounted>({
  name: 'mdw_v3_key_blocks',
  select: `SELECT ${KEY_BLOCK_COUNTED} FROM key_blocks k`,
  key: 'k.height',
});

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

/** keyBlocksCountedAt reads the key blocks at these heights in one query (in no particular order). */
export async function keyBlocksCountedAt(db: Queryable, heights: readonly number[]): Promise<KeyBlockCounted[]> {
  const { rows } = await db.query<KeyBlockCounted>({
    name: 'mdw_v3_key_blocks_at',
    text: `SELECT ${KEY_BLOCK_COUNTED} FROM key_blocks k WHERE k.height = ANY($1::int[])`,
    values: [heights],
  });
  return rows;
}

/** microBlocksPage reads up to n micro blocks of a generation walking from a micro index (inclusive). */
export const microBlocksPage: PageReader<number, number, MicroBlockCounted> = async (db, height, { walk, from, n }) => {
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
};

/** microBlockCounted reads one micro block by hash. */
export async function microBlockCounted(db: Queryable, hash: string): Promise<MicroBlockCounted | undefined> {
  const { rows } = await db.query<MicroBlockCounted>({
    name: 'mdw_v3_micro_block',
    text: `SELECT ${MICRO_BLOCK_COUNTED} FROM micro_blocks m WHERE m.hash = $1`,
    values: [hash],
  });
  return rows[0];
}

/** microBlocksCounted reads the micro blocks of these hashes in one query (in no particular order). */
export async function microBlocksCounted(db: Queryable, hashes: readonly string[]): Promise<MicroBlockCounted[]> {
  const { rows } = await db.query<MicroBlockCounted>({
    name: 'mdw_v3_micro_blocks_by_hash',
    text: `SELECT ${MICRO_BLOCK_COUNTED} FROM micro_blocks m WHERE m.hash = ANY($1::text[])`,
    values: [hashes],
  });
  return rows;
}

/** microBlocksCountedBetween reads the micro blocks of heights from..to in chain order (a websocket chunk's). */
export async function microBlocksCountedBetween(db: Queryable, from: number, to: number): Promise<MicroBlockCounted[]> {
  const { rows } = await db.query<MicroBlockCounted>({
    name: 'mdw_v3_micro_blocks_between',
    text: `SELECT ${MICRO_BLOCK_COUNTED} FROM micro_blocks m WHERE m.height BETWEEN $1 AND $2
            ORDER BY m.height, m.micro_index`,
    values: [from, to],
  });
  return rows;
}

/** A beneficiary and how many key blocks it was paid for. */
export interface MinerBlocks {
  readonly miner: string;
  readonly blocks: number;
}

/** minersSince counts the key blocks at or after a time per beneficiary, most first (the time index bounds the read). */
export async function minersSince(db: Queryable, sinceMs: number): Promise<MinerBlocks[]> {
  const { rows } = await db.query<MinerBlocks>(
    `SELECT beneficiary AS miner, count(*)::int AS blocks FROM key_blocks WHERE time_ms >= $1
      GROUP BY beneficiary ORDER BY blocks DESC, miner`,
    [sinceMs],
  );
  return rows;
}
