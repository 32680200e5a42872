/**
 * @module ae_mdw's statistics intervals and proof-of-work figures. Pure.
 * Intervals are counted in UTC from 1970-01-01: a day is days since then, a week is that divided
 * by 7 (so weeks start on Thursdays, as in ae_mdw), a month is months since January 1970.
 */

export type IntervalBy = 'day' | 'week' | 'month';

export const INTERVALS: readonly IntervalBy[] = ['day', 'week', 'month'];

/** DAY_MS: a UTC day in milliseconds */
export const DAY_MS = 86_400_000;

/** utcDay is the day (since 1970-01-01, UTC) of a time in milliseconds. */
export function utcDay(ms: number): number {
  return Math.floor(ms / DAY_MS);
}

/** intervalOf is the interval (of the kind) a day falls in. */
export function intervalOf(day: number, by: IntervalBy): number {
  if (by === 'day') return day;
  if (by === 'week') return Math.floor(day / 7);
  const d = new Date(day * DAY_MS);
  return (d.getUTCFullYear() - 1970) * 12 + d.getUTCMonth();
}

/** firstDay is the first day of an interval. */
export function firstDay(start: number, by: IntervalBy): number {
  if (by === 'day') return start;
  if (by === 'week') return start * 7;
  return utcDay(Date.UTC(1970 + Math.floor(start / 12), start % 12, 1));
}

/** isoDate is a day as `YYYY-MM-DD` (a fifth digit of year after 9999, as Elixir's ISO 8601 dates have it). */
export function isoDate(day: number): string {
  const d = new Date(day * DAY_MS);
  const pad = (n: number, digits: number): string => String(n).padStart(digits, '0');
  return `${pad(d.getUTCFullYear(), 4)}-${pad(d.getUTCMonth() + 1, 2)}-${pad(d.getUTCDate(), 2)}`;
}

/** intervalDates are ae_mdw's `start_date` and (exclusive) `end_date` of an interval. */
export function intervalDates(start: number, by: IntervalBy): { start_date: string; end_date: string } {
  return { start_date: isoDate(firstDay(start, by)), end_date: isoDate(firstDay(start + 1, by)) };
}

/** parseIsoDate reads `YYYY-MM-DD` (a real calendar date) as a day, or undefined. */
export function parseIsoDate(text: string): number | undefined {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(text);
  if (!m) return undefined;
  const [year, month, date] = [Number(m[1]), Number(m[2]), Number(m[3])];
  const ms = Date.UTC(year, month - 1, date);
  const d = new Date(ms);
  if (d.getUTCFullYear() !== year || d.getUTCMonth() !== month - 1 || d.getUTCDate() !== date) return undefined;
  return utcDay(ms);
}

/** The largest target (0xFFFF followed by 240 zero bits): difficulty 1, `0x2100ffff` in the header's notation. */
const HIGHEST_TARGET = 0xffffn << 240n;
/** Difficulty is kept integral by scaling with 2^24, as the node does. */
const DIFFICULTY_FACTOR = 1n << 24n;

/**
 * difficultyOf is the node's difficulty of a key block's `target` (the compact notation: an
 * exponent byte and a 3-byte significand, the high bit of which is a sign): the largest target
 * over this one, times 2^24. A target that reads as 0 has difficulty 0.
 */
export function difficultyOf(target: number): bigint {
  const sci = BigInt(target);
  let exponent = sci >> 24n;
  let significand = sci & 0xffffffn;
  if (significand & 0x800000n) {
    exponent = -exponent;
    significand -= 0x800000n;
  }
  const shift = 8n * (exponent - 3n);
  const value = shift >= 0n ? significand << shift : significand >> -shift;
  return value === 0n ? 0n : (DIFFICULTY_FACTOR * HIGHEST_TARGET) / value;
}

/** EXPECTED_BLOCK_MINE_RATE_MS: the node's target key block interval (3 minutes). */
export const EXPECTED_BLOCK_MINE_RATE_MS = 180_000n;

/** hashrateOf is ae_mdw's hashrate of a difficulty: difficulty × 42 / the block interval in ms / 1000, rounded (half up). */
export function hashrateOf(difficulty: bigint): bigint {
  const denominator = EXPECTED_BLOCK_MINE_RATE_MS * 1000n;
  return (difficulty * 42n * 2n + denominator) / (2n * denominator);
}
