/**
 * @module What each subject (a key, an address) holds at once on this server: websocket connections, subscriptions,
 * running exports. Counted per server: N servers let a key hold at most N times its tier's limit (docs/operations.md,
 * "API keys and quotas").
 */

import type { SlotKind } from '../http/state.ts';

/** KeySlots counts what subjects hold; a hold beyond the limit is refused and counts nothing. */
export class KeySlots {
  readonly #held = new Map<string, number>();

  /** hold takes `count` of `kind` for `subject` if that stays within `limit`; false (nothing taken) otherwise. */
  hold(subject: string, kind: SlotKind, limit: number, count = 1): boolean {
    const key = `${kind}\n${subject}`;
    const now = this.#held.get(key) ?? 0;
    if (now + count > limit) return false;
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

  /** held is what `subject` holds of `kind` now. */
  held(subject: string, kind: SlotKind): number {
    return this.#held.get(`${kind}\n${subject}`) ?? 0;
  }
}
