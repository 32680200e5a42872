/** @module Read-side SQL for key blocks, micro blocks and generations. */
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
const MICRO_BLOCK_COLUMNS = 'hash, height, micro_index, tx_count, header';

/** topHeight is the highest stored key block (undefined for an empty database). */
export async function topHeight(db: Queryable): Promise<number | undefined> {
  const { rows } = await db.query<{ h: number | null }>('SELECT max(height) AS h FROM key_blocks');
  return rows[0]?.h ?? undefined;
}

/** keyBlockAt returns the key block at a height. */
export async function keyBlockAt(db: Queryable, height: number): Promise<KeyBlockRow | undefined> {
  const { rows } = await db.query(`SELECT ${KEY_BLOCK_COLUMNS} FROM key_blocks WHERE height = $1`, [height]);
  return rows[0] && toKeyBlock(rows[0]);
}

/** keyBlockByHash returns the key block with that hash. */
export async function keyBlockByHash(db: Queryable, hash: string): Promise<KeyBlockRow | undefined> {
  const { rows } = await db.query(`SELECT ${KEY_BLOCK_COLUMNS} FROM key_blocks WHERE hash = $1`, [hash]);
  return rows[0] && toKeyBlock(rows[0]);
}

/** keyBlocksBetween returns key blocks of from..to (inclusive), newest first, paged. */
export async function keyBlocksBetween(db: Queryable, from: number, to: number, limit: number, offset: number): Promise<KeyBlockRow[]> {
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

/** microBlockByHash returns one micro block header. */
export async function microBlockByHash(db: Queryable, hash: string): Promise<MicroBlockRow | undefined> {
  const { rows } = await db.query(`SELECT ${MICRO_BLOCK_COLUMNS} FROM micro_blocks WHERE hash = $1`, [hash]);
  return rows[0] && toMicroBlock(rows[0]);
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
