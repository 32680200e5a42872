/** @module SQL for key blocks and micro blocks: the reads, and the deletes of whole heights. */
import type { Json } from '../../chain/json.ts';
import type { Queryable } from '../pool.ts';

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
 * microHeaderSql is the SQL of the node's header of the micro_blocks row `m`: the stored header (migrations 0097,
 * 0098) with the row's hash, height and time put back, and prev_key_hash and prev_hash, the hashes of its key block
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

const MICRO_BLOCK_COLUMNS = `hash, height, micro_index, tx_count, ${microHeaderSql('micro_blocks')} AS header`;

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

/** topHeight is the highest stored height (undefined for an empty database). */
export async function topHeight(db: Queryable): Promise<number | undefined> {
  return (await topKeyBlock(db))?.height;
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
  const { rows } = await db.query(
    `SELECT ${MICRO_BLOCK_COLUMNS} FROM micro_blocks WHERE height BETWEEN $1 AND $2 ORDER BY height, micro_index`,
    [from, to],
  );
  return rows.map(toMicroBlock);
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

function toMicroBlock(r: Record<string, unknown>): MicroBlockRow {
  return {
    hash: r.hash as string,
    height: r.height as number,
    microIndex: r.micro_index as number,
    txCount: r.tx_count as number,
    header: r.header as Json,
  };
}

/** deleteFrom removes every height ≥ `height` (key_blocks' delete trigger removes everything that belongs to them). */
export async function deleteFrom(db: Queryable, height: number): Promise<number> {
  const { rowCount } = await db.query('DELETE FROM key_blocks WHERE height >= $1', [height]);
  return rowCount ?? 0;
}

/** deleteHeights removes exactly the listed heights. */
export async function deleteHeights(db: Queryable, heights: readonly number[]): Promise<number> {
  const { rowCount } = await db.query('DELETE FROM key_blocks WHERE height = ANY($1::int[])', [heights]);
  return rowCount ?? 0;
}

/**
 * storedBlockHashes maps each listed height that is stored to its key hash followed by its micro
 * block hashes in order, joined by spaces.
 */
export async function storedBlockHashes(db: Queryable, heights: readonly number[]): Promise<Map<number, string>> {
  const { rows } = await db.query<{ height: number; hashes: string }>(
    `SELECT k.height, concat_ws(' ', k.hash, string_agg(m.hash, ' ' ORDER BY m.micro_index)) AS hashes
       FROM key_blocks k LEFT JOIN micro_blocks m ON m.height = k.height
      WHERE k.height = ANY($1::int[]) GROUP BY k.height, k.hash`,
    [heights],
  );
  return new Map(rows.map((r) => [r.height, r.hashes]));
}

/** A stored generation's link: what a generation at `height + 1` must point back to. */
export interface StoredLink {
  readonly height: number;
  readonly keyHash: string;
  readonly lastMicroHash: string | null;
}

/** storedLink is the stored key hash and last micro block hash at `height` (undefined when not stored). */
export async function storedLink(db: Queryable, height: number): Promise<StoredLink | undefined> {
  const { rows } = await db.query<{ hash: string; last_micro: string | null }>(
    `SELECT k.hash, (SELECT m.hash FROM micro_blocks m WHERE m.height = k.height ORDER BY m.micro_index DESC LIMIT 1) AS last_micro
       FROM key_blocks k WHERE k.height = $1`,
    [height],
  );
  return rows[0] ? { height, keyHash: rows[0].hash, lastMicroHash: rows[0].last_micro } : undefined;
}

/** keyHashAt is the stored key block hash at a height (undefined when not stored). */
export async function keyHashAt(db: Queryable, height: number): Promise<string | undefined> {
  const { rows } = await db.query<{ hash: string }>('SELECT hash FROM key_blocks WHERE height = $1', [height]);
  return rows[0]?.hash;
}

/** A stored key block's height and hash. */
export interface StoredHash {
  readonly height: number;
  readonly hash: string;
}

/** topKeyHashes lists the `count` highest stored key blocks, highest first. */
export async function topKeyHashes(db: Queryable, count: number): Promise<StoredHash[]> {
  const { rows } = await db.query<StoredHash>('SELECT height, hash FROM key_blocks ORDER BY height DESC LIMIT $1', [
    count,
  ]);
  return rows;
}

/** microBlockHashesAt lists the stored micro block hashes of a generation in chain order. */
export async function microBlockHashesAt(db: Queryable, height: number): Promise<string[]> {
  const { rows } = await db.query<{ hash: string }>(
    'SELECT hash FROM micro_blocks WHERE height = $1 ORDER BY micro_index',
    [height],
  );
  return rows.map((r) => r.hash);
}

/** storedHeightsAbove lists the stored heights above `after`, ascending, at most `limit` (all when null). */
export async function storedHeightsAbove(db: Queryable, after: number, limit: number | null = null): Promise<number[]> {
  const { rows } = await db.query<{ height: number }>(
    'SELECT height FROM key_blocks WHERE height > $1 ORDER BY height LIMIT $2',
    [after, limit],
  );
  return rows.map((r) => r.height);
}

/** blockHashesBetween lists the stored key and micro block hashes of heights from..to, by height. */
export async function blockHashesBetween(db: Queryable, from: number, to: number): Promise<Map<number, string[]>> {
  const { rows } = await db.query<{ height: number; hash: string }>(
    `SELECT height, hash FROM key_blocks WHERE height BETWEEN $1 AND $2
     UNION ALL SELECT height, hash FROM micro_blocks WHERE height BETWEEN $1 AND $2`,
    [from, to],
  );
  const byHeight = new Map<number, string[]>();
  for (const r of rows) byHeight.set(r.height, [...(byHeight.get(r.height) ?? []), r.hash]);
  return byHeight;
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
