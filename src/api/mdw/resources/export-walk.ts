/**
 * @module An export's walk over a /v3 list: pages of a few hundred rows read one statement each from a keyset cursor,
 * handed out one page at a time (the next is read only when the consumer asks for it), each row with its cursor text,
 * up to a row cap; the walk may start after the row of a cursor (a resumed export). Nothing here knows of HTTP.
 */
import type { List } from './list.ts';
import type { Direction } from './page.ts';
import type { Item } from './resource.ts';

/** One exported row: the list's item and its cursor text (a resumed export starts after it). */
export interface ExportRow {
  readonly cursor: string;
  readonly item: Item;
}

/** Where and how far a walk goes. */
export interface ExportPlan {
  readonly direction: Direction;
  /** the cursor text of the row the walk starts after (that row itself not sent, wherever it still is) */
  readonly after: string | undefined;
  /** rows sent at most */
  readonly maxRows: number;
  /** rows read per statement (EXPORT_PAGE_ROWS): a page is read and rendered in one turn */
  readonly pageRows: number;
}

/** InTurn runs one page's read and render as the caller admits work (a turn of the server's line). */
export type InTurn = <T>(read: () => Promise<T>) => Promise<T>;

/**
 * exportPages walks `list` as `plan` says, one page per step, each read and rendered in `inTurn`, and returns whether
 * it reached the list's end (false: it stopped at its cap). Each page reads one row more than it sends: that row starts the next page, so a page never repeats or skips a
 * row that is there when both are read (rows of a fork between two pages are those of the chain each page saw).
 */
export async function* exportPages<K, R>(
  list: List<K, R>,
  plan: ExportPlan,
  inTurn: InTurn,
): AsyncGenerator<readonly ExportRow[], boolean> {
  let from = plan.after === undefined ? undefined : list.cursor.decode(plan.after);
  let skip = plan.after;
  let sent = 0;
  for (;;) {
    const want = Math.min(plan.pageRows, plan.maxRows - sent);
    const page = await inTurn(async () => {
      let rows = await list.read(plan.direction, from, want + 1 + (skip === undefined ? 0 : 1));
      // the row resumed after is left out; gone (a fork), the walk starts at the first row beyond its place
      if (skip !== undefined && rows[0] !== undefined && list.cursor.encode(list.key(rows[0])) === skip)
        rows = rows.slice(1);
      const shown = rows.slice(0, want);
      const items = list.item ? shown.map(list.item) : await list.render(shown);
      return {
        rows: shown.map((row, i): ExportRow => ({ cursor: list.cursor.encode(list.key(row)), item: items[i]! })),
        next: rows[want] === undefined ? undefined : list.key(rows[want]),
      };
    });
    skip = undefined;
    sent += page.rows.length;
    if (page.rows.length > 0) yield page.rows;
    if (page.next === undefined) return true;
    if (sent >= plan.maxRows) return false;
    from = page.next;
  }
}
