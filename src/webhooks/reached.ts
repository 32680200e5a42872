/**
 * @module Where a hook's deliveries got to (migration 1133, docs/webhooks.md "Blue/green reloads"): the position of
 * the last one sent, kept with the hook in the configuration shared by the data generations, so that a new
 * generation's sender skips what the old one sent and goes on from there. Pure.
 */
import type { ClaimedHook, QueuedDelivery } from '../db/writes/webhook-queue.ts';

/** reachedPosition is a delivery's place in its hook's order across generations (their `seq` differ). */
export function reachedPosition(d: QueuedDelivery): number[] {
  return [d.height, d.rank, d.microIndex, d.txIndex, d.logIdx ?? -1];
}

/**
 * sentElsewhere is true for an event at or before where its hook got to in another schema than `schema`: that
 * generation's sender sent it. A reorg is always sent (its generation's fork is its own news).
 */
export function sentElsewhere(
  d: QueuedDelivery,
  hook: Pick<ClaimedHook, 'reached' | 'reachedSchema'>,
  schema: string,
): boolean {
  if (d.type === 'reorg' || hook.reached === null || hook.reachedSchema === schema) return false;
  const at = reachedPosition(d);
  for (let i = 0; i < at.length; i++) {
    const theirs = hook.reached[i] ?? -1;
    if (at[i]! !== theirs) return at[i]! < theirs;
  }
  return true;
}
