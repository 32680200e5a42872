/** @module ae_mdw's request parameters: limit, direction, scope, rev, ids and hashes, with its error texts. Pure. */
import { isEncoded, type Prefix } from '../../../chain/encoding.ts';
import { v3BadRequest } from './mdw-errors.ts';
import type { Direction, Query } from './page.ts';

/** LIMITS: ae_mdw's default and largest page size. */
export const LIMITS = { default: 10, max: 100 } as const;

/**
 * A scope as given: `gen:A-B`, `time:A-B` (unix seconds), `txi:A-B` or a hyperchain's `epoch:A-B`, normalised to
 * first ≤ last.
 */
export interface Scope {
  readonly type: 'gen' | 'time' | 'txi' | 'epoch';
  readonly first: number;
  readonly last: number;
}

/** The paging parameters every list takes. */
export interface Paging {
  readonly direction: Direction;
  readonly rev: boolean;
  readonly limit: number;
  readonly scope: Scope | undefined;
  readonly cursor: string | undefined;
}

const SCOPE_TYPES: ReadonlySet<string> = new Set(['gen', 'time', 'txi', 'epoch']);
const MAX_INT = 2 ** 31 - 1;

/** ALL_HEIGHTS: the height range of a list without a scope. */
export const ALL_HEIGHTS = { first: 0, last: MAX_INT } as const;

/** NO_RANGE: a range with nothing in it (a list over epochs none of which is stored: empty). */
export const NO_RANGE = { first: 1, last: 0 } as const;

const PAGING_PARAMS: ReadonlySet<string> = new Set(['limit', 'cursor', 'direction', 'scope', 'rev', 'int-as-string']);

/** rejectUnknown answers 400 `invalid query` to a parameter a list does not take (paging ones and `_…` are always taken). */
export function rejectUnknown(query: Query, taken: ReadonlySet<string>): void {
  for (const name of Object.keys(query))
    if (!name.startsWith('_') && !PAGING_PARAMS.has(name) && !taken.has(name))
      throw v3BadRequest(`invalid query: ${name}=${one(query[name]) ?? ''}`);
}

/** one reads a parameter given once (a repeated one counts as its last value, as Phoenix reads it). */
export function one(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value.at(-1) : value;
}

/** all reads a parameter that may be repeated. */
export function all(value: string | string[] | undefined): string[] {
  if (value === undefined) return [];
  return Array.isArray(value) ? value : [value];
}

/**
 * parsePaging reads limit, direction, scope, rev and cursor as ae_mdw's paginated plug does: a
 * scope from A to B walks forward when A < B and backward when A > B (either way normalised to
 * first ≤ last); for A = B, or without a scope, `direction` decides (backward by default).
 */
export function parsePaging(query: Query, opts: { maxLimit?: number; scopes?: readonly Scope['type'][] } = {}): Paging {
  const maxLimit = opts.maxLimit ?? LIMITS.max;
  const limitText = one(query.limit) ?? String(LIMITS.default);
  const limit = /^\d{1,12}$/.test(limitText) ? Number(limitText) : NaN;
  if (limit > maxLimit) throw v3BadRequest(`limit too large: ${limit}`);
  if (!(limit > 0)) throw v3BadRequest(`invalid limit: ${limitText}`);
  const directionText = one(query.direction);
  if (directionText !== undefined && directionText !== 'forward' && directionText !== 'backward')
    throw v3BadRequest(`invalid direction: ${directionText}`);
  const scopeText = one(query.scope);
  let direction: Direction = (directionText as Direction | undefined) ?? 'backward';
  let scope: Scope | undefined;
  if (scopeText !== undefined) {
    const parsed = parseScope(scopeText, opts.scopes ?? ['gen']);
    scope = parsed.scope;
    direction = parsed.direction ?? direction;
  }
  const cursor = one(query.cursor);
  return { direction, rev: one(query.rev) === '1', limit, scope, cursor };
}

function parseScope(text: string, allowed: readonly Scope['type'][]): { scope: Scope; direction?: Direction } {
  const parts = text.split(':');
  if (parts.length !== 2) throw v3BadRequest(`invalid scope: ${text}`);
  const [type, range] = parts as [string, string];
  if (!SCOPE_TYPES.has(type) || !allowed.includes(type as Scope['type'])) throw v3BadRequest(`invalid scope: ${type}`);
  const bounds = range.split('-');
  if (bounds.length > 2 || bounds.some((b) => !/^\d{1,10}$/.test(b) || Number(b) > MAX_INT))
    throw v3BadRequest(`invalid range: ${range}`);
  const a = Number(bounds[0]);
  const b = Number(bounds[1] ?? bounds[0]);
  const scope = { type: type as Scope['type'], first: Math.min(a, b), last: Math.max(a, b) };
  return { scope, direction: a < b ? 'forward' : a > b ? 'backward' : undefined };
}

/** parseId checks an encoded id of one of the prefixes: ae_mdw's `invalid id: <value>` otherwise. */
export function parseId(value: string | undefined, prefixes: readonly Prefix[]): string {
  if (value === undefined || !isEncoded(value, prefixes)) throw v3BadRequest(`invalid id: ${value ?? ''}`);
  return value;
}

/** parseHash checks a block or transaction hash: ae_mdw's `invalid hash: <value>` otherwise. */
export function parseHash(value: string | undefined, prefix: Prefix): string {
  if (value === undefined || !isEncoded(value, [prefix])) throw v3BadRequest(`invalid hash: ${value ?? ''}`);
  return value;
}

/** parseNonNegative reads a decimal integer ≥ 0 of the stored range, or undefined when it is not one. */
export function parseNonNegative(value: string | undefined): number | undefined {
  if (value === undefined || !/^\d{1,10}$/.test(value)) return undefined;
  const n = Number(value);
  return n <= MAX_INT ? n : undefined;
}

/** parseActiveState reads a list's `state` filter: active or inactive, both when absent (names, oracles, channels). */
export function parseActiveState(value: string | undefined): 'active' | 'inactive' | undefined {
  if (value !== undefined && value !== 'active' && value !== 'inactive')
    throw v3BadRequest(`invalid query: state=${value}`);
  return value;
}

/** parseBoolean reads `true`/`false` (ae_mdw's booleans). */
export function parseBoolean(value: string | undefined, name: string): boolean | undefined {
  if (value === undefined) return undefined;
  if (value === 'true') return true;
  if (value === 'false') return false;
  throw v3BadRequest(`invalid query: ${name}=${value}`);
}
