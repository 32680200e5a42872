/** @module Request parameter parsing: every path and query value is checked here, bad input becomes a 400. Pure. */
import { decode, DecodeError, type Prefix } from '../../chain/encoding.ts';
import { CHAIN_TX_TYPES } from '../../chain/tx-schema.ts';
import { badRequest } from '../../base/errors.ts';

/** Paging as handlers use it: `limit` rows starting after `offset` rows. */
export interface Paging {
  readonly limit: number;
  readonly page: number;
  readonly offset: number;
}

type QueryValue = string | string[] | undefined;

/** PAGING_DEFAULTS: documented in docs/api.md; `page` starts at 1. */
export const PAGING_DEFAULTS = { limit: 100, maxLimit: 1000, maxOffset: 10_000_000 } as const;

/** Largest height the schema stores (integer column). */
const MAX_HEIGHT = 2 ** 31 - 1;

/**
 * TX_TYPES are the outer transaction types the node prints (and the seed's `OracleResponseTx` spelling); the tx-type
 * filter accepts these (any case).
 */
const TX_TYPES: readonly string[] = [...CHAIN_TX_TYPES, 'OracleResponseTx'];
const TX_TYPES_BY_LOWER = new Map<string, string>(TX_TYPES.map((t) => [t.toLowerCase(), t]));

/** parseId checks an encoded id (prefix, checksum, length) and returns it unchanged. */
export function parseId(value: QueryValue, prefixes: readonly Prefix[], name: string): string {
  const text = single(value, name);
  if (text === undefined) throw badRequest(`${name} is required`);
  try {
    decode(text, prefixes);
    return text;
  } catch (err) {
    if (err instanceof DecodeError) throw badRequest(`invalid ${name}: ${err.message}`);
    throw err;
  }
}

/** parseHeight reads a block height: a non-negative integer within the stored range. */
export function parseHeight(value: QueryValue, name: string): number {
  return parseInteger(value, name, 0, MAX_HEIGHT);
}

/** parseInteger reads a decimal integer between min and max inclusive. */
export function parseInteger(value: QueryValue, name: string, min: number, max: number): number {
  const text = single(value, name);
  if (text === undefined || !/^-?\d{1,16}$/.test(text)) throw badRequest(`${name} must be an integer`);
  const n = Number(text);
  if (n < min || n > max) throw badRequest(`${name} must be between ${min} and ${max}`);
  return n;
}

/**
 * parseLimitPage reads the original API's paging by offset: `limit` (default and maximum in PAGING_DEFAULTS) and `page`
 * (from 1). ae_mdw's keyset paging is mdw-params.ts parsePaging.
 */
export function parseLimitPage(
  query: Record<string, QueryValue>,
  defaults: { limit: number; maxLimit: number } = PAGING_DEFAULTS,
): Paging {
  const limit = query.limit === undefined ? defaults.limit : parseInteger(query.limit, 'limit', 1, defaults.maxLimit);
  const page = query.page === undefined ? 1 : parseInteger(query.page, 'page', 1, MAX_HEIGHT);
  const offset = (page - 1) * limit;
  if (offset > PAGING_DEFAULTS.maxOffset)
    throw badRequest(`page too deep: at most ${PAGING_DEFAULTS.maxOffset} rows can be skipped`);
  return { limit, page, offset };
}

/** A keyset position as clients send it: `<height>-<micro index>-<tx index>` of the last row they have. */
export interface CursorParam {
  readonly height: number;
  readonly microIndex: number;
  readonly txIndex: number;
}

/** parseCursor reads the optional `cursor` (keyset paging); it cannot be combined with `page`. */
export function parseCursor(query: Record<string, QueryValue>): CursorParam | undefined {
  if (query.cursor === undefined) return undefined;
  if (query.page !== undefined) throw badRequest('give either page or cursor, not both');
  const text = single(query.cursor, 'cursor') ?? '';
  const match = /^(\d{1,10})-(\d{1,10})-(\d{1,10})$/.exec(text);
  const parts = match ? [Number(match[1]), Number(match[2]), Number(match[3])] : [];
  if (parts.length !== 3 || parts.some((n) => n > MAX_HEIGHT))
    throw badRequest('cursor must be <height>-<micro index>-<tx index> as given in X-Next-Cursor');
  return { height: parts[0]!, microIndex: parts[1]!, txIndex: parts[2]! };
}

/** formatCursor is the inverse of parseCursor. */
export function formatCursor(c: CursorParam): string {
  return `${c.height}-${c.microIndex}-${c.txIndex}`;
}

/** parseTxType reads the optional tx-type filter (`txtype`, or the guide's `tx_type`). */
export function parseTxType(query: Record<string, QueryValue>): string | undefined {
  const raw = query.txtype ?? query.tx_type;
  if (raw === undefined) return undefined;
  const text = single(raw, 'txtype') ?? '';
  const type = TX_TYPES_BY_LOWER.get(text.toLowerCase()) ?? TX_TYPES_BY_LOWER.get(`${text.toLowerCase()}tx`);
  if (type === undefined)
    throw badRequest(`unknown txtype ${JSON.stringify(text.slice(0, 40))}; expected one of ${TX_TYPES.join(', ')}`);
  return type;
}

/** parseDate reads a `YYYYMMDD` day and returns its UTC midnight in milliseconds. */
export function parseDate(value: QueryValue, name: string): number {
  const text = single(value, name);
  const match = text === undefined ? null : /^(\d{4})(\d{2})(\d{2})$/.exec(text);
  if (!match) throw badRequest(`${name} must be a date as YYYYMMDD`);
  const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])];
  const ms = Date.UTC(year, month - 1, day);
  const back = new Date(ms);
  if (back.getUTCFullYear() !== year || back.getUTCMonth() !== month - 1 || back.getUTCDate() !== day) {
    throw badRequest(`${name} is not a calendar date`);
  }
  return ms;
}

/** parseFlag is true when the flag is present with any value but false/0 (the original treated presence as true). */
export function parseFlag(value: QueryValue): boolean {
  if (value === undefined) return false;
  const text = Array.isArray(value) ? (value[0] ?? '') : value;
  return !['false', '0'].includes(text.toLowerCase());
}

/** parseText reads a required string parameter of bounded length. */
export function parseText(value: QueryValue, name: string, maxLength: number): string {
  const text = single(value, name);
  if (text === undefined || text === '') throw badRequest(`${name} is required`);
  if (text.length > maxLength) throw badRequest(`${name} is longer than ${maxLength} characters`);
  return text;
}

function single(value: QueryValue, name: string): string | undefined {
  if (Array.isArray(value)) throw badRequest(`${name} given more than once`);
  return value;
}
