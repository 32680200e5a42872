/** @module Height lists for -H and -v: "1,3-4,6,100-200" → sorted unique heights. Pure. */
import { AppError, ErrorCode } from '../../base/errors.ts';

/** MAX_HEIGHTS caps an expanded list so a typo such as "0-999999999" fails fast instead of eating memory. */
export const MAX_HEIGHTS = 10_000_000;

function bad(message: string): AppError {
  return new AppError(ErrorCode.CLI_BAD_HEIGHTS, 400, message);
}

function parseHeight(text: string, item: string): number {
  if (!/^\d+$/.test(text))
    throw bad(`invalid height ${JSON.stringify(item)}: expected N or N-M with non-negative integers`);
  const n = Number(text);
  if (!Number.isSafeInteger(n) || n > 2 ** 31 - 1) throw bad(`height ${text} is out of range`);
  return n;
}

/** parseHeights expands a comma-separated list of heights and inclusive ranges, sorted and de-duplicated. */
export function parseHeights(list: string): number[] {
  const items = list.split(',').map((s) => s.trim());
  if (items.length === 0 || items.every((s) => s === '')) throw bad('empty height list: expected e.g. 1,3-4,6,100-200');
  const ranges: [number, number][] = [];
  let total = 0;
  for (const item of items) {
    if (item === '') throw bad(`empty item in height list ${JSON.stringify(list)}`);
    const dash = /^(\d+)\s*-\s*(\d+)$/.exec(item);
    const [from, to] = dash
      ? [parseHeight(dash[1]!, item), parseHeight(dash[2]!, item)]
      : [parseHeight(item, item), parseHeight(item, item)];
    if (from > to) throw bad(`invalid range ${JSON.stringify(item)}: start is above end`);
    total += to - from + 1;
    if (total > MAX_HEIGHTS) throw bad(`height list expands to more than ${MAX_HEIGHTS} heights`);
    ranges.push([from, to]);
  }
  const seen = new Set<number>();
  for (const [from, to] of ranges) for (let h = from; h <= to; h++) seen.add(h);
  return [...seen].sort((a, b) => a - b);
}

/** heightRange is `count` consecutive heights from `from`. */
export function heightRange(from: number, count: number): number[] {
  return Array.from({ length: Math.max(0, count) }, (_, i) => from + i);
}

/** contiguousRuns groups sorted heights into inclusive [from, to] runs (for batching and NOTIFY). */
export function contiguousRuns(heights: readonly number[]): [number, number][] {
  const runs: [number, number][] = [];
  for (const h of heights) {
    const last = runs.at(-1);
    if (last && h === last[1] + 1) last[1] = h;
    else runs.push([h, h]);
  }
  return runs;
}

/** runsText writes ascending heights as their runs, `0-5000,5010`: what parseHeights reads back. Pure. */
export function runsText(heights: readonly number[]): string {
  return contiguousRuns(heights)
    .map(([from, to]) => (from === to ? `${from}` : `${from}-${to}`))
    .join(',');
}
