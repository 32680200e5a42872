/**
 * @module The paged list of a /v3 resource: a reader of keyed rows, a batched renderer of the page's rows, a cursor.
 * A page reads `limit + 1` rows (the extra one only makes the `next` cursor) and renders its `limit` rows in one
 * call, so the renderer looks up what the items need once per page (one query per kind), never once per item.
 */
import type { CursorCodec } from './cursors.ts';
import type { Paging } from './mdw-params.ts';
import type { KeyWindow } from '../../../db/queries/positions.ts';
import { paginate, type LinkCursor, type Page, type Query } from './page.ts';
import { ItemsPage, type Item, type PagePosition } from './resource.ts';

/** A list: how its rows are read from a key, the key of a row, how a page's rows render, and its cursor text. */
interface ListReader<K, R> {
  readonly cursor: CursorCodec<K>;
  /** read reads the window's rows: up to `n` walking in `walk` from `from` (inclusive), or from the list's end */
  read(window: KeyWindow<K>): Promise<readonly R[]>;
  key(row: NoInfer<R>): K;
  /** readKeys reads only the keys of what `read` would (the step back to the previous page), where that is cheaper */
  readKeys?(window: KeyWindow<K>): Promise<readonly K[]>;
}

/**
 * A list's items are either rendered a page's rows in one call (`render`: once per page, with only the rows shown,
 * for items that look up more than their row), or each made an object of its row (`item`).
 */
export type List<K, R> = ListReader<K, R> &
  (
    | { render(rows: readonly NoInfer<R>[]): readonly Item[] | Promise<readonly Item[]>; item?: never }
    | { item(row: NoInfer<R>): Item; render?: never }
  );

/** listPage reads the page `paging` asks for of a list. */
export async function listPage<K, R>(paging: Paging, list: List<K, R>): Promise<ItemsPage> {
  const page = await paginate(
    async (window) => (await list.read(window)).map((row) => ({ key: list.key(row), item: row })),
    { ...paging, cursor: list.cursor.decode(paging.cursor) },
    list.readKeys?.bind(list),
  );
  const items = list.item ? page.items.map(list.item) : await list.render(page.items);
  return itemsPage({ ...page, items: [...items] }, list.cursor.encode);
}

/** itemsPage is a page read by `paginate` with its positions as cursor texts (`linkQuery`: see ItemsPage). */
export function itemsPage<K>(page: Page<K, Item>, encode: (key: K) => string, linkQuery?: Query): ItemsPage {
  const position = (c: LinkCursor<K> | undefined): PagePosition | undefined =>
    c === undefined ? undefined : { cursor: encode(c.key), rev: c.rev };
  return new ItemsPage(page.items, position(page.next), position(page.prev), linkQuery);
}
