/**
 * @module The page of a list walked by one integer key within an inclusive range of it: key blocks and generations'
 * statistics by height, a hyperchain's epochs by epoch and its leader schedule by height.
 */
import { keyset, type PageReader } from './positions.ts';

/** An inclusive range of a key: epochs or heights (`scope=epoch:A-B` / `gen:A-B`). */
export interface Range {
  readonly first: number;
  readonly last: number;
}

/** RangePage reads up to n rows whose key lies within `range`, walking from a key (inclusive). */
export type RangePage<R> = PageReader<Range, number, R>;

/** A list walked by its key: its statements' name, its `SELECT … FROM …` and the key column it walks (integer). */
export interface RangeList {
  readonly name: string;
  readonly select: string;
  readonly key: string;
}

/**
 * rangePage is the page reader of `list`: one prepared statement per walk and start, the range and limit as
 * parameters, the key's comparison from the start (keyset) its only other condition.
 */
export function rangePage<R extends object>(list: RangeList): RangePage<R> {
  return async (db, range, { walk, from, n }) => {
    const ks = keyset([list.key], walk, from === undefined ? undefined : '$4::int');
    const { rows } = await db.query<R>({
      name: `${list.name}_${walk}${from === undefined ? '' : '_from'}`,
      text: `${list.select} WHERE ${list.key} BETWEEN $1 AND $2 AND ${ks.where} ORDER BY ${ks.order} LIMIT $3`,
      values: from === undefined ? [range.first, range.last, n] : [range.first, range.last, n, from],
    });
    return rows;
  };
}
