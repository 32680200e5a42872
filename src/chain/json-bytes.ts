/**
 * @module A large JSON answer written to bytes in pieces. V8 puts a string of more than 128 kB in its large-object
 * space: a page of 100 transactions with their blocks (130–140 kB) written as one string and then encoded took two to
 * four times what writing its items one by one took (a micro-benchmark, Node 24), and the socket's UTF-8 encoding of the
 * one string came on top. Pure.
 */
import { stringifyRawBigInts } from './json.ts';

/** PIECE: the text gathered before it is encoded, well below V8's large-object size */
const PIECE = 16 * 1024;
/** DEEPEST: how deep the envelopes are opened (deeper, a value is written whole, as a cycle then throws) */
const DEEPEST = 32;

/**
 * jsonBytes is `stringifyRawBigInts(value)` in UTF-8: the same text, written envelope by envelope (the plain objects
 * and arrays around the lists) and each list's items one by one, never the whole as one string. An item is written
 * whole: the lists' items are what is many, their members are not. A value JSON has no text for (undefined) is
 * written `null`, as in a list.
 */
export function jsonBytes(value: unknown): Buffer {
  const pieces: Buffer[] = [];
  let text = '';
  const put = (more: string): void => {
    text += more;
    if (text.length < PIECE) return;
    pieces.push(Buffer.from(text));
    text = '';
  };
  const write = (v: unknown, depth: number): void => {
    if (Array.isArray(v) && depth < DEEPEST) {
      put('[');
      v.forEach((item, i) => put((i > 0 ? ',' : '') + (stringifyRawBigInts(item) ?? 'null')));
      put(']');
      return;
    }
    if (isEnvelope(v) && depth < DEEPEST) {
      put('{');
      let first = true;
      for (const key in v) {
        const member = v[key];
        if (member === undefined || typeof member === 'function' || typeof member === 'symbol') continue;
        put(`${first ? '' : ','}${JSON.stringify(key)}:`);
        first = false;
        write(member, depth + 1);
      }
      put('}');
      return;
    }
    put(stringifyRawBigInts(v) ?? 'null');
  };
  write(value, 0);
  pieces.push(Buffer.from(text));
  return Buffer.concat(pieces);
}

/** isEnvelope: a plain object the native stringify would write member by member (no toJSON, no raw JSON). */
function isEnvelope(v: unknown): v is Record<string, unknown> {
  if (typeof v !== 'object' || v === null || JSON.isRawJSON(v)) return false;
  const prototype: unknown = Object.getPrototypeOf(v);
  return (
    (prototype === Object.prototype || prototype === null) && typeof (v as { toJSON?: unknown }).toJSON !== 'function'
  );
}
