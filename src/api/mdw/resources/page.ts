/** @module ae_mdw's page envelope: keyset pages walked from a cursor, and the `next`/`prev` links it forms. Pure. */
import type { KeyWindow, Walk } from '../../../db/queries/positions.ts';

/** A page's direction (`direction=`): the walk of its list's page reader. */
export type Direction = Walk;

/** A page request: the walk's direction, whether it was a `rev=1` link, its size and where it starts. */
export interface PageRequest<K> {
  readonly direction: Direction;
  readonly rev: boolean;
  readonly limit: number;
  readonly cursor: K | undefined;
}

/**
 * Fetch reads the items of a list in a window: up to `n` walking in `walk`, starting at `from` (inclusive: the item
 * at `from` first, when it exists) or at the list's end for that walk. Keys are positions in the list, so a page
 * never skips or repeats an item when items are added or removed elsewhere.
 */
export type Fetch<K, T> = (window: KeyWindow<K>) => Promise<readonly Keyed<K, T>[]>;

export interface Keyed<K, T> {
  readonly key: K;
  readonly item: T;
}

/** A link target: the key the linked page starts at and whether it is a reversed walk. */
export interface LinkCursor<K> {
  readonly key: K;
  readonly rev: boolean;
}

export interface Page<K, T> {
  readonly items: T[];
  readonly next: LinkCursor<K> | undefined;
  readonly prev: LinkCursor<K> | undefined;
}

/** FetchKeys reads only the keys of what Fetch would read: all a page needs of the items behind its cursor. */
export type FetchKeys<K> = (window: KeyWindow<K>) => Promise<readonly K[]>;

/**
 * paginate reads one page as ae_mdw does: `limit + 1` items in the direction (the extra one starts
 * the next page); with a cursor, the item just before it (walking back) starts the previous page,
 * a reversed walk. A `rev=1` request walks the opposite way from its cursor, reverses the items and
 * swaps its links, so it shows the page that precedes the cursor in the list's own order. With
 * `fetchKeys` the step back reads keys only (nothing of those items is shown).
 */
export async function paginate<K, T>(
  fetch: Fetch<K, T>,
  req: PageRequest<K>,
  fetchKeys: FetchKeys<K> = async (window) => (await fetch(window)).map((r) => r.key),
): Promise<Page<K, T>> {
  const direction = req.rev ? opposite(req.direction) : req.direction;
  const [back, rows] = await Promise.all([
    req.cursor === undefined ? Promise.resolve([]) : fetchKeys({ walk: opposite(direction), from: req.cursor, n: 2 }),
    fetch({ walk: direction, from: req.cursor, n: req.limit + 1 }),
  ]);
  const items = rows.slice(0, req.limit).map((r) => r.item);
  const after = rows[req.limit]?.key;
  const before = back[1];
  if (!req.rev) {
    return {
      items,
      next: after === undefined ? undefined : { key: after, rev: false },
      prev: before === undefined ? undefined : { key: before, rev: true },
    };
  }
  return {
    items: items.reverse(),
    next: before === undefined ? undefined : { key: before, rev: false },
    prev: after === undefined ? undefined : { key: after, rev: true },
  };
}

export function opposite(direction: Direction): Direction {
  return direction === 'forward' ? 'backward' : 'forward';
}

/** A query as Koa parses it. */
export type Query = Readonly<Record<string, string | string[] | undefined>>;

/**
 * pageLink is ae_mdw's link: the request's path and all its query parameters (sorted by name, as
 * Elixir's map orders them) with `cursor` set and `rev=1` on reversed links, `rev` dropped
 * otherwise. Parameters starting with `_` (the SDK's `__sdk-retry`) are left out.
 */
export function pageLink(path: string, query: Query, cursor: string | undefined, rev: boolean): string | null {
  if (cursor === undefined) return null;
  const params = new Map<string, string[]>();
  for (const [name, value] of Object.entries(query)) {
    if (value === undefined || name.startsWith('_') || name === 'rev' || name === 'cursor') continue;
    params.set(name, Array.isArray(value) ? value : [value]);
  }
  params.set('cursor', [cursor]);
  if (rev) params.set('rev', ['1']);
  const pairs = [...params.keys()]
    .sort()
    .flatMap((name) => params.get(name)!.map((v) => `${formEncode(name)}=${formEncode(v)}`));
  return `${path}?${pairs.join('&')}`;
}

/** formEncode is www-form encoding as Elixir's URI.encode_query writes it (only `A-Za-z0-9~_-.` kept, space as `+`). */
export function formEncode(text: string): string {
  return encodeURIComponent(text)
    .replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`)
    .replace(/%20/g, '+');
}
