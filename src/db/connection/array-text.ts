/**
 * @module A statement's array parameter as PostgreSQL's array literal text (`{1,2}`, `{"a","b"}`), made in one pass:
 * `pg`'s own conversion of a JavaScript array prepares and escapes every element with regular expressions, which was
 * a fifth of the populator's cost of counting a batch's statistics in memory (docs/benchmarks.md). Pure.
 */

const NEEDS_ESCAPE = /["\\]/;

/** quoted is an array element's text quoted, `"` and `\` escaped. */
const quoted = (s: string): string => `"${NEEDS_ESCAPE.test(s) ? s.replace(/["\\]/g, '\\$&') : s}"`;

/**
 * arrayText is the literal of integers (numbers or bigints: written in full, never rounded) or of strings (each
 * quoted, `"` and `\` escaped, so that any text, empty or `NULL` included, reads back as itself); cast it to the
 * column's array type in the statement (`$1::int[]`, `$2::text[]`, `$3::numeric[]`).
 */
export function arrayText(values: readonly (number | bigint)[] | readonly string[]): string {
  if (values.length === 0) return '{}';
  if (typeof values[0] !== 'string') {
    for (const v of values as readonly (number | bigint)[])
      if (typeof v === 'number' && !Number.isSafeInteger(v)) throw new RangeError(`not an exact integer: ${v}`);
    return `{${values.join(',')}}`;
  }
  let out = '{';
  for (let i = 0; i < values.length; i++) {
    out += `${i === 0 ? '' : ','}${quoted(values[i] as string)}`;
  }
  return `${out}}`;
}

/**
 * arrayParameter is `pg`'s own text of an array parameter (utils.js arrayString: NULL for null and undefined, a byte
 * view as `\\x` and its hex, anything else its text quoted, `"` and `\` escaped) made in one pass, where `pg` runs two
 * regular expressions and a concatenation per element: the writer's multi-row inserts pass a batch's column-wise
 * arrays so (bulk-load.ts). An element of another kind (a Date, a nested array) leaves the array to `pg`. Pure.
 */
export function arrayParameter(values: readonly unknown[]): string | readonly unknown[] {
  let out = '{';
  for (let i = 0; i < values.length; i++) {
    if (i > 0) out += ',';
    const v = values[i];
    if (v === null || v === undefined) out += 'NULL';
    else if (typeof v === 'string') out += quoted(v);
    else if (typeof v === 'number' || typeof v === 'bigint' || typeof v === 'boolean') out += `"${String(v)}"`;
    else if (ArrayBuffer.isView(v)) out += `\\\\x${Buffer.from(v.buffer, v.byteOffset, v.byteLength).toString('hex')}`;
    else return values;
  }
  return `${out}}`;
}
