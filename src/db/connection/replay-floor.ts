/**
 * @module The floor of a server's replica reads: the latest primary position this server has acted on (a notification
 * it heard of), which every read must have replayed, and the notifications waiting for a replica to replay theirs.
 * Pure: the replicas' positions come from replica-watch.ts.
 */

/**
 * ReplayFloor raises the floor as the best replica replays the positions waited for: a notification is released (and
 * the floor raised to it) only once a replica reads can go to has replayed it, those of one look in the order they came.
 */
export class ReplayFloor {
  #floor = 0n;
  readonly #waiters: { lsn: bigint; resolve: () => void; reject: (err: Error) => void }[] = [];

  /** floor is the position every read is at or past. */
  get floor(): bigint {
    return this.#floor;
  }

  /** waiting says whether a notification waits for a replica (the replicas are then read at the waiting pace). */
  get waiting(): boolean {
    return this.#waiters.length > 0;
  }

  /**
   * release resolves the waiters `best` (the highest position a usable replica has replayed) covers, in the order they
   * came, raising the floor to each; with `lsn`, true when it is replayed already (the floor raised to it too). A
   * position the standby has replayed is not held behind a notification's it has not: a reading of the top on a standby
   * that lagged behind a commit the server heard of waited for that commit until it gave up, a 503 counted as the
   * database away (issue 59).
   */
  release(best: bigint | undefined, lsn?: bigint): boolean {
    if (best === undefined) return false;
    for (const waiter of this.#waiters.filter((w) => w.lsn <= best)) {
      this.#waiters.splice(this.#waiters.indexOf(waiter), 1);
      if (waiter.lsn > this.#floor) this.#floor = waiter.lsn;
      waiter.resolve();
    }
    if (lsn === undefined || lsn > best) return false;
    if (lsn > this.#floor) this.#floor = lsn;
    return true;
  }

  /**
   * require raises the floor to `lsn` at once, before any replica has replayed it: no read goes to a replica until one
   * has (a server's start, after migrations a replica may not have replayed yet). `wait(lsn)` tells when one has.
   */
  require(lsn: bigint): void {
    if (lsn > this.#floor) this.#floor = lsn;
  }

  /** wait resolves once a later release covers `lsn`; aborted by `signal` first, it waits no more (rejects). */
  wait(lsn: bigint, signal?: AbortSignal): Promise<void> {
    return new Promise<void>((resolve, reject) => {
      signal?.throwIfAborted();
      const waiter = {
        lsn,
        resolve: () => {
          signal?.removeEventListener('abort', abandon);
          resolve();
        },
        reject: (err: Error) => {
          signal?.removeEventListener('abort', abandon);
          reject(err);
        },
      };
      const abandon = (): void => {
        this.#waiters.splice(this.#waiters.indexOf(waiter), 1);
        reject(signal!.reason as Error);
      };
      signal?.addEventListener('abort', abandon, { once: true });
      this.#waiters.push(waiter);
    });
  }

  /** drop rejects every waiter with `err` (the replicas stopped). */
  drop(err: Error): void {
    for (const waiter of this.#waiters.splice(0)) waiter.reject(err);
  }
}
