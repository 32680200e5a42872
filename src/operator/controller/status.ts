/** @module Status math of a Middleware (pure): conditions with stable transition times, Available and Synced from observations, the phase. */
import { isDeepStrictEqual } from 'node:util';
import type { ProbeResult } from './status-probe.ts';

/** ConditionStatus follows metav1.Condition, plus Degraded for Available (as prometheus-operator does). */
export type ConditionStatus = 'True' | 'False' | 'Unknown' | 'Degraded';

/** Condition is the metav1.Condition shape, each carrying the spec generation it was computed from. */
export interface Condition {
  type: string;
  status: ConditionStatus;
  reason: string;
  message: string;
  lastTransitionTime: string;
  observedGeneration: number;
}

/** ConditionUpdate is a condition as a reconcile step computes it, before times and generations are stamped. */
export interface ConditionUpdate {
  readonly type: ConditionType;
  readonly status: ConditionStatus;
  readonly reason: string;
  readonly message: string;
}

/** ConditionType lists every condition the operator reports on a Middleware. */
export const ConditionType = {
  Reconciled: 'Reconciled',
  Available: 'Available',
  MigrationsApplied: 'MigrationsApplied',
  Synced: 'Synced',
  Reindexing: 'Reindexing',
  Degraded: 'Degraded',
  ReconciliationPaused: 'ReconciliationPaused',
} as const;
export type ConditionType = (typeof ConditionType)[keyof typeof ConditionType];

/** Phase is the one-word summary for humans (`kubectl get`); machines read the conditions. */
export const Phase = {
  Pending: 'Pending',
  Invalid: 'Invalid',
  Paused: 'Paused',
  Migrating: 'Migrating',
  Deploying: 'Deploying',
  Running: 'Running',
  Degraded: 'Degraded',
  Reindexing: 'Reindexing',
  Deleting: 'Deleting',
} as const;
export type Phase = (typeof Phase)[keyof typeof Phase];

/** DeploymentCounts is the slice of a Deployment's spec and status that decides availability. */
export interface DeploymentCounts {
  readonly desired: number;
  readonly available: number;
}

/** findCondition returns the condition of the given type, if present. */
export function findCondition(conditions: readonly Condition[] | undefined, type: string): Condition | undefined {
  return conditions?.find((c) => c.type === type);
}

/**
 * setCondition returns the list with `update` stamped and merged in. The old lastTransitionTime is
 * kept while the status value stays the same (so "since when" survives every resync); a new type is
 * appended, existing ones keep their place, so an unchanged list compares equal to the old one.
 */
export function setCondition(
  conditions: readonly Condition[] | undefined,
  update: ConditionUpdate,
  stamp: { readonly now: Date; readonly observedGeneration: number },
): Condition[] {
  const list = [...(conditions ?? [])];
  const index = list.findIndex((c) => c.type === update.type);
  const previous = index >= 0 ? list[index] : undefined;
  const lastTransitionTime = previous !== undefined && previous.status === update.status ? previous.lastTransitionTime : stamp.now.toISOString();
  const next: Condition = { ...update, lastTransitionTime, observedGeneration: stamp.observedGeneration };
  if (index >= 0) list[index] = next;
  else list.push(next);
  return list;
}

/** setConditions applies several updates in order with one stamp. */
export function setConditions(
  conditions: readonly Condition[] | undefined,
  updates: readonly ConditionUpdate[],
  stamp: { readonly now: Date; readonly observedGeneration: number },
): Condition[] {
  return updates.reduce<Condition[]>((list, update) => setCondition(list, update, stamp), [...(conditions ?? [])]);
}

/** isConditionTrue is true when the condition exists with status True. */
export function isConditionTrue(conditions: readonly Condition[] | undefined, type: string): boolean {
  return findCondition(conditions, type)?.status === 'True';
}

/**
 * availableCondition maps a server Deployment's counts to Available: True when every desired pod is
 * available, Degraded when some are, False when none are or the Deployment does not exist yet.
 */
export function availableCondition(counts: DeploymentCounts | undefined): ConditionUpdate {
  const type = ConditionType.Available;
  if (counts === undefined) return { type, status: 'False', reason: 'DeploymentNotFound', message: 'the server Deployment does not exist yet' };
  if (counts.desired === 0) return { type, status: 'False', reason: 'ScaledToZero', message: 'spec.server.replicas is 0' };
  const pods = `${counts.available}/${counts.desired} server pods available`;
  if (counts.available <= 0) return { type, status: 'False', reason: 'NoPodReady', message: pods };
  if (counts.available < counts.desired) return { type, status: 'Degraded', reason: 'SomePodsNotReady', message: pods };
  return { type, status: 'True', reason: 'AllPodsReady', message: pods };
}

/** syncedCondition maps the active generation's status probe to Synced; unreachable is never synced. */
export function syncedCondition(probe: ProbeResult | undefined): ConditionUpdate {
  const type = ConditionType.Synced;
  if (probe === undefined) return { type, status: 'Unknown', reason: 'NotProbed', message: 'no server is available to ask' };
  if (!probe.reachable) return { type, status: 'False', reason: 'StatusUnreachable', message: probe.error ?? 'status endpoint unreachable' };
  const heights = `height ${probe.height ?? '?'}, node height ${probe.nodeHeight ?? '?'}, lag ${probe.lag ?? '?'}`;
  if (probe.synced) return { type, status: 'True', reason: 'CaughtUp', message: heights };
  return { type, status: 'False', reason: 'CatchingUp', message: probe.error === undefined ? heights : `${heights} (${probe.error})` };
}

/** pausedCondition reports spec.paused as ReconciliationPaused (Strimzi's convention). */
export function pausedCondition(paused: boolean): ConditionUpdate {
  return paused
    ? { type: ConditionType.ReconciliationPaused, status: 'True', reason: 'PausedBySpec', message: 'spec.paused is true: children are left as they are' }
    : { type: ConditionType.ReconciliationPaused, status: 'False', reason: 'ReconciliationActive', message: 'the operator reconciles this resource' };
}

/** derivePhase condenses the conditions into one word, the most pressing state first. */
export function derivePhase(conditions: readonly Condition[] | undefined, deleting: boolean): Phase {
  if (deleting) return Phase.Deleting;
  const status = (type: string): ConditionStatus | undefined => findCondition(conditions, type)?.status;
  const reconciled = findCondition(conditions, ConditionType.Reconciled);
  if (reconciled?.status === 'False' && reconciled.reason === 'InvalidSpec') return Phase.Invalid;
  if (status(ConditionType.ReconciliationPaused) === 'True') return Phase.Paused;
  if (reconciled === undefined) return Phase.Pending;
  if (status(ConditionType.MigrationsApplied) !== 'True') return Phase.Migrating;
  const available = status(ConditionType.Available);
  if (available === 'Degraded' || status(ConditionType.Degraded) === 'True') return Phase.Degraded;
  if (available !== 'True') return Phase.Deploying;
  if (status(ConditionType.Reindexing) === 'True') return Phase.Reindexing;
  return Phase.Running;
}

/** statusChanged tells whether writing `next` would change anything (order of keys aside). */
export function statusChanged(current: unknown, next: unknown): boolean {
  return !isDeepStrictEqual(normalise(current), normalise(next));
}

// Drops undefined members so `{a: undefined}` equals `{}`, as it does once serialised.
function normalise(value: unknown): unknown {
  return value === undefined ? undefined : JSON.parse(JSON.stringify(value)) as unknown;
}
