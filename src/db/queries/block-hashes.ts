/**
 * @module Read-side SQL for the stored blocks' hashes and heights: what the populator compares with the node's (a fork,
 * a generation's link, the heights to reload or verify) and the websocket walks.
 */
import type { Queryable } from '../connection/pool.ts';

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
  const { rows } = await db.query<{ hash: string; last_micro: string | null }>({
    name: 'mdw_stored_link',
    text: `SELECT k.hash, (SELECT m.hash FROM micro_blocks m WHERE m.height = k.height ORDER BY m.micro_index DESC LIMIT 1) AS last_micro
       FROM key_blocks k WHERE k.height = $1`,
    values: [height],
  });
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

/** storedHeightCount is how many heights are stored (a progress line's total). */
export async function storedHeightCount(db: Queryable): Promise<number> {
  const { rows } = await db.query<{ n: number }>('SELECT count(*)::int AS n FROM key_blocks');
  return rows[0]!.n;
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

/**
 * blockHashesInOrder lists the stored key and micro block hashes of the heights listed, or of every height ≥ `from`, in
 * chain order: what a rollback or a reload is about to delete.
 */
export async function blockHashesInOrder(
  db: Queryable,
  heights: { from: number } | readonly number[],
): Promise<StoredHash[]> {
  const [where, value] = 'from' in heights ? ['height >= $1', heights.from] : ['height = ANY($1::int[])', heights];
  const { rows } = await db.query<StoredHash>(
    `SELECT height, hash FROM (
       SELECT height, -1 AS micro_index, hash FROM key_blocks WHERE ${where}
       UNION ALL SELECT height, micro_index, hash FROM micro_blocks WHERE ${where}) b
      ORDER BY height, micro_index`,
    [value],
  );
  return rows;
}
