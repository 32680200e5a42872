/** @module Lossless JSON: integers beyond 2^53 survive a parse and a stringify digit for digit. */

/** A JSON value as this project holds it: unsafe integers are bigints, everything else as JSON.parse gives it. */
export type Json = null | boolean | number | bigint | string | Json[] | { [key: string]: Json };

interface ReviverContext {
  readonly source?: string;
}

/**
 * LONG_INTEGER is an integer token of 16 digits or more outside a fraction or exponent: the only tokens JSON.parse
 * may round (15 digits stay below 10^15 < 2^53). Inside a string it can match too; see parseJson.
 */
const LONG_INTEGER = /(?<![\d.eE+-])-?\d{16,}(?![\d.eE])/g;
/**
 * VALUE_LONG_INTEGER finds whether a text that opens an object or array may hold a long integer token: there every
 * number follows a colon, comma or bracket (and whitespace). A test of it costs about half the replace of
 * LONG_INTEGER that finds nothing, and most of the node's answers (headers, call infos, small transactions) hold none.
 */
const VALUE_LONG_INTEGER = /[:,[]\s*-?\d{16}/;
/** MARKED is such a token after parseJson quoted it: `"#<digits>"`. */
const MARKED = /^#-?\d{16,}$/;

/**
 * parseJson parses node JSON without losing digits. Every long integer token is quoted with a `#` mark before a
 * plain JSON.parse (fast, no reviver), then the marked strings are turned back into numbers, or bigints where
 * a double would round them. A token matched inside a string breaks the text (the inserted quote ends the string
 * and the `#` after it is no JSON), and a string of the node's that looks like a mark makes the marks outnumber
 * the tokens: either way the slow exact parse decides.
 */
export function parseJson(text: string): Json {
  const open = text.charCodeAt(0);
  if ((open === 123 || open === 91) && !VALUE_LONG_INTEGER.test(text)) return JSON.parse(text) as Json;
  const marked = text.replace(LONG_INTEGER, '"#$&"');
  if (marked.length === text.length) return JSON.parse(text) as Json;
  let value: Json;
  try {
    value = JSON.parse(marked) as Json;
  } catch {
    return parseJsonWithReviver(text);
  }
  const counter = { marks: 0 };
  const restored = unmark(value, counter);
  return counter.marks * 3 === marked.length - text.length ? restored : parseJsonWithReviver(text);
}

/**
 * setOwn sets an own member's value. An own "__proto__" key (JSON.parse makes one) is redefined, never assigned:
 * assigning sets the prototype. Any other is assigned: defined, it made a slower object of the copy withRawBigInts
 * makes of a transaction for its amount (an export's item and its text took 99.5k instructions a row, 93.9k so).
 */
function setOwn(object: Record<string, unknown>, key: string, value: unknown): void {
  if (key === '__proto__')
    Object.defineProperty(object, key, { value, writable: true, enumerable: true, configurable: true });
  else object[key] = value;
}

/** unmark replaces the marked strings of a parsed value in place, counting them. */
function unmark(value: Json, counter: { marks: number }): Json {
  if (typeof value === 'string') {
    if (value.charCodeAt(0) !== 35 || !MARKED.test(value)) return value;
    counter.marks++;
    const big = BigInt(value.slice(1));
    return Number.isSafeInteger(Number(big)) ? Number(big) : big;
  }
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) value[i] = unmark(value[i]!, counter);
  } else if (value !== null && typeof value === 'object') {
    for (const key of Object.keys(value)) {
      const before = value[key]!;
      const after = unmark(before, counter);
      if (after !== before) setOwn(value, key, after);
    }
  }
  return value;
}

/**
 * parseJsonWithReviver is the exact parse parseJson falls back on. Node's JSON.parse hands the reviver the
 * source text of each primitive, so an integer outside the safe range becomes a bigint built from its own digits
 * rather than from the rounded double.
 */
function parseJsonWithReviver(text: string): Json {
  return JSON.parse(text, function revive(this: unknown, _key: string, value: unknown, context?: ReviverContext) {
    if (typeof value === 'number' && !Number.isSafeInteger(value) && context?.source !== undefined) {
      const source = context.source;
      if (/^-?\d+$/.test(source)) return BigInt(source);
    }
    return value;
  } as Parameters<typeof JSON.parse>[1]) as Json;
}

/** MEMBER_HEADS: `{"<key>":` at the start of a text, per key asked for. */
const MEMBER_HEADS = new Map<string, RegExp>();

/**
 * parseJsonMember parses the node's one-member wrapper `{"<key>": <value>}` and keeps <value>'s own text, so that
 * a caller storing it stores the node's text instead of writing the parsed value out again. The text between the
 * wrapper's head and its last `}` is parsed as the value, so the kept text is valid JSON of exactly that value (a
 * second member, a duplicate key or any other shape fails that parse); anything else is parsed whole and no text is
 * kept. `whole` is the whole answer either way.
 */
export function parseJsonMember(
  text: string,
  key: string,
): { whole: Json; member: Json | undefined; memberText?: string } {
  let head = MEMBER_HEADS.get(key);
  if (head === undefined) {
    head = new RegExp(`^\\s*\\{\\s*${JSON.stringify(key).replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\\s*:`);
    MEMBER_HEADS.set(key, head);
  }
  const start = head.exec(text)?.[0].length;
  const end = text.lastIndexOf('}');
  if (start !== undefined && end > start && text.slice(end + 1).trim() === '') {
    const memberText = text.slice(start, end).trim();
    try {
      const member = parseJson(memberText);
      // a computed key is always an own property, `__proto__` included
      return { whole: { [key]: member }, member, memberText };
    } catch {
      // not one value: the whole text decides
    }
  }
  const whole = parseJson(text);
  return { whole, member: isJsonObject(whole) ? whole[key] : undefined };
}

/** DEEPEST: how deep withRawBigInts looks for bigints (deeper, or in a cycle, the replacer's stringify decides). */
const DEEPEST = 64;

/**
 * withRawBigInts is the value with every bigint it holds as JSON.rawJSON of its digits, which the native stringify
 * writes as a bare integer: the objects and arrays on the way to a bigint are copied (a shallow copy each), everything
 * else is the value's own, so a value without bigints comes back as it is. What it does not look into (a toJSON
 * result, depth beyond DEEPEST) keeps its bigints: the plain stringify throws on them, and the replacer writes them.
 */
export function withRawBigInts(value: unknown, depth = 0): unknown {
  if (typeof value === 'bigint') return JSON.rawJSON(value.toString());
  if (typeof value !== 'object' || value === null || depth > DEEPEST) return value;
  if (Array.isArray(value)) {
    let copy: unknown[] | undefined;
    for (let i = 0; i < value.length; i++) {
      const item: unknown = value[i];
      const written = withRawBigInts(item, depth + 1);
      if (written !== item) (copy ??= value.slice())[i] = written;
    }
    return copy ?? value;
  }
  if (typeof (value as { toJSON?: unknown }).toJSON === 'function') return value;
  let copy: Record<string, unknown> | undefined;
  for (const key in value) {
    const member = (value as Record<string, unknown>)[key];
    const written = withRawBigInts(member, depth + 1);
    if (written === member) continue;
    copy ??= { ...value };
    setOwn(copy, key, written);
  }
  return copy ?? value;
}

function replaceBigInt(_key: string, v: unknown): unknown {
  return typeof v === 'bigint' ? JSON.rawJSON(v.toString()) : v;
}

/**
 * stringifyJson writes bigints as bare JSON integers (never as strings, never rounded): the native stringify of the
 * value with its bigints as raw JSON (no replacer called for every value: a page of transactions, whose amounts are
 * bigints, is written in half the time).
 */
export function stringifyJson(value: unknown, space?: number): string {
  return stringifyRawBigInts(withRawBigInts(value), space);
}

/**
 * stringifyRawBigInts writes a value whose bigints are raw JSON already (withRawBigInts applied where they can be, as
 * the GraphQL scalars do for their values): the native stringify without a walk over the whole value, and the
 * replacer's where a bigint was left.
 */
export function stringifyRawBigInts(value: unknown, space?: number): string {
  try {
    return JSON.stringify(value, undefined, space);
  } catch (err) {
    // a bigint withRawBigInts did not reach (behind a toJSON, too deep); a cycle throws again, as it should
    if (!(err instanceof TypeError)) throw err;
  }
  return JSON.stringify(value, replaceBigInt, space);
}

/** toBigInt reads an integer field that may be a number, a bigint or a decimal string. */
export function toBigInt(value: unknown): bigint {
  if (typeof value === 'bigint') return value;
  if (typeof value === 'number' && Number.isSafeInteger(value)) return BigInt(value);
  if (typeof value === 'string' && /^-?\d+$/.test(value)) return BigInt(value);
  throw new TypeError(`not an integer: ${String(value)}`);
}

/** toSafeNumber narrows an integer to a number, throwing when it would lose digits. */
export function toSafeNumber(value: unknown): number {
  const big = toBigInt(value);
  const n = Number(big);
  if (!Number.isSafeInteger(n)) throw new RangeError(`integer beyond 2^53: ${big}`);
  return n;
}

/** isJsonObject is true for a plain JSON object (not an array, not null). */
export function isJsonObject(value: unknown): value is { [key: string]: Json } {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * jsonEqual is `isDeepStrictEqual` (node:util) for JSON values: numbers by `Object.is`, objects by their own keys in any
 * order and their prototype, arrays by their items. Every mined transaction's rendering is compared with the node's JSON
 * (stored-tx.ts), where the general comparison's checks of what no JSON value has (symbols, holes, cycles, array
 * properties) were a fifth of the comparison's cost.
 */
export function jsonEqual(a: Json, b: Json): boolean {
  if (typeof a !== 'object' || a === null || typeof b !== 'object' || b === null)
    return typeof a === 'number' ? Object.is(a, b) : a === b;
  if (Array.isArray(a)) {
    if (!Array.isArray(b) || a.length !== b.length) return false;
    for (let i = 0; i < a.length; i++) if (!jsonEqual(a[i]!, b[i]!)) return false;
    return true;
  }
  if (Array.isArray(b) || Object.getPrototypeOf(a) !== Object.getPrototypeOf(b)) return false;
  const keys = Object.keys(a);
  if (keys.length !== Object.keys(b).length) return false;
  for (const key of keys) if (!Object.hasOwn(b, key) || !jsonEqual(a[key]!, b[key]!)) return false;
  return true;
}

/**
 * integersAsStrings is the value with every integer (number or bigint) replaced by its decimal text, as the node's
 * and ae_mdw's `int-as-string` write it; members named in `numbers` (fields the node holds as floats) stay numbers.
 */
export function integersAsStrings(value: Json, numbers: ReadonlySet<string> = NONE, key?: string): Json {
  if (typeof value === 'bigint') return value.toString();
  if (typeof value === 'number') return Number.isInteger(value) && !numbers.has(key ?? '') ? String(value) : value;
  if (Array.isArray(value)) return value.map((item) => integersAsStrings(item, numbers));
  if (isJsonObject(value))
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, integersAsStrings(v, numbers, k)]));
  return value;
}

const NONE: ReadonlySet<string> = new Set();

/**
 * withSortedKeys is a copy of a JSON value whose objects' keys are in the order a real æternity node writes them
 * (sorted: its JSON encoder walks Erlang maps in key order), integers kept exact. Pure.
 */
export function withSortedKeys(value: Json): Json {
  if (Array.isArray(value)) return value.map(withSortedKeys);
  if (!isJsonObject(value)) return value;
  const sorted: { [key: string]: Json } = {};
  for (const key of Object.keys(value).sort()) setOwn(sorted, key, withSortedKeys(value[key]!));
  return sorted;
}
