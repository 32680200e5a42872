/**
 * @module What each subject (a key, an address) holds at once: websocket connections, subscriptions, running exports,
 * this server's and, as of the last sync (quota-ledger.ts), the other servers'. No I/O.
 */
import type { Held } from '../../db/writes/api-keys.ts';
import type { SlotKind } from '../http/state.ts';

/** KeySlots counts what subjects hold; a hold beyond the limit is refused and counts nothing. */
export class KeySlots {
  readonly #held = new Map<string, number>();
  #others = new Map<string, number>();

  /**
   * hold takes `count` of `kind` for `subject` if that, with what it holds here and on the other servers, stays within
   * `limit`; false (nothing taken) otherwise.
   */
  hold(subject: string, kind: SlotKind, limit: number, count = 1): boolean {
    const key = `${kind}\n${subject}`;
    const now = this.#held.get(key) ?? 0;
    if (now + (this.#others.get(key) ?? 0) + count > limit) return false;
    this.#held.set(key, now + count);
    return true;
  }

  /** release gives back `count` of `kind` that `subject` held. */
  release(subject: string, kind: SlotKind, count = 1): void {
    const key = `${kind}\n${subject}`;
    const left = (this.#held.get(key) ?? 0) - count;
    if (left > 0) this.#held.set(key, left);
    else this.#held.delete(key);
  }

  /** mine is what this server holds, for the other servers to count. */
  mine(): Held[] {
    return [...this.#held].map(([key, held]) => {
      const [kind, subject] = key.split('\n') as [string, string];
      return { subject, kind, held };
    });
  }

  /** learnOthers takes what the other servers hold now, replacing what they held before. */
  learnOthers(others: readonly Held[]): void {
    this.#others = new Map(others.map((h) => [`${h.kind}\n${h.subject}`, h.held]));
  }
}
