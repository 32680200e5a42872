/**
 * @module The paged route of a /v3 list: a reader of keyed rows, a batched renderer of the page's rows, a cursor.
 * A page reads `limit + 1` rows (the extra one only makes the `next` cursor) and renders its `limit` rows in one
 * call, so the renderer looks up what the items need once per page (one query per kind), never once per item.
 */
import type Koa from 'koa';
import type { Json } from '../../../chain/json.ts';
import type { CursorCodec } from './cursors.ts';
import { paginate, type Direction, type Query } from './page.ts';
import type { Paging } from './mdw-params.ts';
import { givenQuery, sendObjectPage, sendPage } from '../rest/mdw-respond.ts';

/** A list: how its rows are read from a key, the key of a row, how a page's rows render, and its cursor text. */
interface ListReader<K, R> {
  readonly cursor: CursorCodec<K>;
  /** read reads up to `n` rows walking in `walk` from `from` (inclusive), or from the list's end for the walk */
  read(walk: Direction, from: K | undefined, n: number): Promise<readonly R[]>;
  key(row: NoInfer<R>): K;
  /** readKeys reads only the keys of what `read` would (the step back to the previous page), where that is cheaper */
  readKeys?(walk: Direction, from: K | undefined, n: number): Promise<readonly K[]>;
}

/**
 * A list's items are either rendered as JSON texts, a page's rows in one call (`render`: once per page, with only the
 * rows shown), or each made an object of its row (`item`: its text is the object's, and an in-process caller takes
 * the objects themselves, respond.ts answerAsValue).
 */
export type List<K, R> = ListReader<K, R> &
  (
    | { render(rows: readonly NoInfer<R>[]): readonly string[] | Promise<readonly string[]>; item?: never }
    | { item(row: NoInfer<R>): Json; render?: never }
  );

/** sendList answers a list request with the page `paging` asks for; links carry the request's query, or `query`. */
export async function sendList<K, R>(
  ctx: Koa.Context,
  paging: Paging,
  list: List<K, R>,
  query: Query = givenQuery(ctx),
): Promise<void> {
  const page = await paginate(
    async (walk, from, n) => (await list.read(walk, from, n)).map((row) => ({ key: list.key(row), item: row })),
    { ...paging, cursor: list.cursor.decode(paging.cursor) },
    list.readKeys?.bind(list),
  );
  if (list.item) sendObjectPage(ctx, { ...page, items: page.items.map(list.item) }, list.cursor.encode, query);
  else sendPage(ctx, { ...page, items: [...(await list.render(page.items))] }, list.cursor.encode, query);
}
