/**
 * @module An export's walk over a /v3 list: long pages (EXPORT_PAGE_ROWS, thousands of rows) read one statement each
 * from a keyset cursor, the next page read while the current one is written (one page ahead, never more: memory stays
 * two pages whatever the export's size, and a reader that stops taking bytes stops the walk one page later), handed
 * out in slices of a few hundred rows rendered as they are taken, each row with its cursor text, up to a row cap; the
 * walk may start after the row of a cursor (a resumed export). Nothing here knows of HTTP.
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
  /** rows read per statement (EXPORT_PAGE_ROWS), each page in one turn */
  readonly pageRows: number;
}

/** InTurn runs one page's read as the caller admits work (a turn of the server's line). */
export type InTurn = <T>(read: () => Promise<T>) => Promise<T>;

/**
 * SLICE_ROWS: rows rendered and handed out at once. A slice is a few milliseconds of the event loop (a row's item
 * and its CSV or NDJSON take 10–40 µs), so the requests beside an export wait behind a slice, never a whole page; and
 * its text (100 kB of NDJSON) stays below the size V8 puts in its large-object space, which only a full collection
 * frees (slices of 200 rows raised the server's peak RSS from 25 to 110 MB above idle).
 */
export const SLICE_ROWS = 100;

/** A page as read: its rows, their items when the list renders a page at once, and the key the next page starts at. */
interface ReadPage<K, R> {
  readonly rows: readonly R[];
  readonly items: readonly Item[] | undefined;
  readonly next: K | undefined;
}

/**
 * exportPages walks `list` as `plan` says and returns whether it reached the list's end (false: it stopped at its
 * cap). Each page reads one row more than it sends: that row starts the next page, so a page never repeats or skips a
 * row that is there when both are read (rows of a fork between two pages are those of the chain each page saw). A
 * list that renders a page at once (lookups of its own) renders it in the page's turn; one that makes an item of
 * each row makes it as its slice is taken, outside any turn.
 */
export async function* exportPages<K, R>(
  list: List<K, R>,
  plan: ExportPlan,
  inTurn: InTurn,
): AsyncGenerator<readonly ExportRow[], boolean> {
  const readPage = (from: K | undefined, want: number, skip: string | undefined): Promise<ReadPage<K, R>> =>
    inTurn(async () => {
      let rows = await list.read({ walk: plan.direction, from, n: want + 1 + (skip === undefined ? 0 : 1) });
      // the row resumed after is left out; gone (a fork), the walk starts at the first row beyond its place
      if (skip !== undefined && rows[0] !== undefined && list.cursor.encode(list.key(rows[0])) === skip)
        rows = rows.slice(1);
      const shown = rows.slice(0, want);
      return {
        rows: shown,
        items: list.render ? await list.render(shown) : undefined,
        next: rows[want] === undefined ? undefined : list.key(rows[want]),
      };
    });
  const from = plan.after === undefined ? undefined : list.cursor.decode(plan.after);
  let reading = handled(readPage(from, Math.min(plan.pageRows, plan.maxRows), plan.after));
  // the read in flight that no one awaits yet
  let ahead: Promise<ReadPage<K, R>> | undefined = reading;
  let read = 0;
  try {
    for (;;) {
      const page = await reading;
      ahead = undefined;
      read += page.rows.length;
      const more = page.next !== undefined && read < plan.maxRows;
      // PostgreSQL reads the next page while the server writes this one
      if (more) ahead = reading = handled(readPage(page.next, Math.min(plan.pageRows, plan.maxRows - read), undefined));
      for (let i = 0; i < page.rows.length; i += SLICE_ROWS) {
        const rows = page.rows.slice(i, i + SLICE_ROWS);
        const items = list.item ? rows.map(list.item) : page.items!.slice(i, i + SLICE_ROWS);
        yield rows.map((row, j): ExportRow => ({ cursor: list.cursor.encode(list.key(row)), item: items[j]! }));
      }
      if (!more) return page.next === undefined;
    }
  } finally {
    // a walk stopped early (its lifetime over, its client gone: the statement then cancelled) ends its read ahead
    await ahead?.catch(() => undefined);
  }
}

/** handled is `p` marked as handled: a read ahead that fails while the page before it is written is no process error. */
function handled<T>(p: Promise<T>): Promise<T> {
  p.catch(() => undefined);
  return p;
}
