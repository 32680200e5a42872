/** @module Events for condition transitions (pure): one Event each time a condition that people watch changes status. */
import { RestoreState, type BootstrapStatus, type MiddlewareCondition } from '../api/middleware-types.ts';
import type { ReloadEvent } from './bluegreen.ts';

// Reconciled, Reindexing and ReconciliationPaused have Events of their own (step and reload Events).
const ANNOUNCED = new Set(['Available', 'MigrationsApplied', 'Synced', 'Degraded']);

/** conditionEvents lists an Event per announced condition whose status differs from before; bad news is a Warning. */
export function conditionEvents(
  before: readonly MiddlewareCondition[] | undefined,
  after: readonly MiddlewareCondition[] | undefined,
): ReloadEvent[] {
  const events: ReloadEvent[] = [];
  for (const condition of after ?? []) {
    if (!ANNOUNCED.has(condition.type)) continue;
    const old = before?.find((c) => c.type === condition.type);
    if (old?.status === condition.status) continue;
    // The first False of a fresh object is not news (nothing was ever available or synced).
    if (old === undefined && condition.status !== 'True' && condition.type !== 'Degraded') continue;
    if (old === undefined && condition.type === 'Degraded' && condition.status === 'False') continue;
    const bad = condition.type === 'Degraded' ? condition.status === 'True' : condition.status === 'False';
    events.push({
      type: bad ? 'Warning' : 'Normal',
      reason: condition.reason,
      message: `${condition.type} is ${condition.status}: ${condition.message}`,
    });
  }
  return events;
}

/**
 * bootstrapEvents tells the end of the first generation's restore from a snapshot (SnapshotRestored); its failure is
 * told by Degraded's Event, whose reason is then SnapshotFailed.
 */
export function bootstrapEvents(
  before: BootstrapStatus | undefined,
  after: BootstrapStatus | undefined,
): ReloadEvent[] {
  if (after?.state !== RestoreState.Restored || before?.state === RestoreState.Restored) return [];
  return [{ type: 'Normal', reason: 'SnapshotRestored', message: after.message }];
}
