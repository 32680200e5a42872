/**
 * @module How long a standby is behind in time: the primary's WAL position as seen at moments, and for a standby's
 * replay position, since when the primary has been ahead of it. Pure.
 */

/**
 * PrimaryPositions remembers the moments the primary's position was seen to move on. A standby that has replayed
 * position P lags since the first moment the primary was seen beyond P: with `recovery_min_apply_delay` of 3 s that is
 * 3 s, and with an idle primary (nothing beyond P) zero, whatever time the last commit was.
 */
export class PrimaryPositions {
  /** positions seen, rising, each with the first moment it was seen */
  readonly #seen: { lsn: bigint; atMs: number }[] = [];

  /** observe records the primary at `lsn` at `atMs` (a position not beyond the last is no news). */
  observe(lsn: bigint, atMs: number): void {
    const last = this.#seen.at(-1);
    if (last === undefined || lsn > last.lsn) this.#seen.push({ lsn, atMs });
  }

  /** newest is the primary's latest known position. */
  get newest(): bigint | undefined {
    return this.#seen.at(-1)?.lsn;
  }

  /** lagMs is how long the primary has been known beyond `replayed`; 0 when it is not. */
  lagMs(replayed: bigint, nowMs: number): number {
    const first = this.#seen.find((s) => s.lsn > replayed);
    return first === undefined ? 0 : Math.max(0, nowMs - first.atMs);
  }

  /** forgetUpTo drops what every standby has replayed (`replayed`: the least of them); the newest is kept. */
  forgetUpTo(replayed: bigint): void {
    while (this.#seen.length > 1 && this.#seen[0]!.lsn <= replayed) this.#seen.shift();
  }
}
