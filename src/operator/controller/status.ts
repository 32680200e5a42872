/** @module Status math of a Middleware (pure): conditions with stable transition times, Available and Synced from observations, the phase. */
import { isDeepStrictEqual } from 'node:util';
import { ConditionType, Phase, type ConditionStatus, type MiddlewareCondition } from '../api/middleware-types.ts';
import { isTolerated, type ProbeStreak } from './probe-streak.ts';
import type { ProbeResult } from './status-probe.ts';

/** ConditionUpdate is a condition as a reconcile step computes it, before times and generations are stamped. */
export interface ConditionUpdate {
  readonly type: ConditionType;
  readonly status: ConditionStatus;
  readonly reason: string;
  readonly message: string;
}

/** DeploymentCounts is the slice of a Deployment's spec and status that decides availability. */
export interface DeploymentCounts {
  readonly desired: number;
  readonly available: number;
}

/** findCondition returns the condition of the given type, if present. */
export function findCondition(
  conditions: readonly MiddlewareCondition[] | undefined,
  type: string,
): MiddlewareCondition | undefined {
  return conditions?.find((c) => c.type === type);
}

/**
 * setCondition returns the list with `update` stamped and merged in. The old lastTransitionTime is
 * kept while the status value stays the same (so "since when" survives every resync); a new type is
 * appended, existing ones keep their place, so an unchanged list compares equal to the old one.
 */
export function setCondition(
  conditions: readonly MiddlewareCondition[] | undefined,
  update: ConditionUpdate,
  stamp: { readonly now: Date; readonly observedGeneration: number },
): MiddlewareCondition[] {
  const list = [...(conditions ?? [])];
  const index = list.findIndex((c) => c.type === update.type);
  const previous = index >= 0 ? list[index] : undefined;
  const lastTransitionTime =
    previous !== undefined && previous.status === update.status ? previous.lastTransitionTime : stamp.now.toISOString();
  const next: MiddlewareCondition = { ...update, lastTransitionTime, observedGeneration: stamp.observedGeneration };
  if (index >= 0) list[index] = next;
  else list.push(next);
  return list;
}

/** setConditions applies several updates in order with one stamp. */
export function setConditions(
  conditions: readonly MiddlewareCondition[] | undefined,
  updates: readonly ConditionUpdate[],
  stamp: { readonly now: Date; readonly observedGeneration: number },
): MiddlewareCondition[] {
  return updates.reduce<MiddlewareCondition[]>(
    (list, update) => setCondition(list, update, stamp),
    [...(conditions ?? [])],
  );
}

/**
 * availableCondition maps a server Deployment's counts to Available: True while at least one pod
 * serves (reason SomePodsNotReady when not all do: see degradedCondition), False when none does.
 * metav1.Condition allows only True/False/Unknown, so prometheus-operator's "Degraded" value of
 * Available is expressed here as Available=True plus Degraded=True.
 */
export function availableCondition(counts: DeploymentCounts | undefined): ConditionUpdate {
  const type = ConditionType.Available;
  if (counts === undefined)
    return { type, status: 'False', reason: 'DeploymentNotFound', message: 'the server Deployment does not exist yet' };
  if (counts.desired === 0)
    return { type, status: 'False', reason: 'ScaledToZero', message: 'spec.server.replicas is 0' };
  const pods = `${counts.available}/${counts.desired} server pods available`;
  if (counts.available <= 0) return { type, status: 'False', reason: 'NoPodReady', message: pods };
  if (counts.available < counts.desired) return { type, status: 'True', reason: 'SomePodsNotReady', message: pods };
  return { type, status: 'True', reason: 'AllPodsReady', message: pods };
}

/** Problem is one thing wrong with a Middleware, reported through Degraded. */
export interface Problem {
  readonly reason: string;
  readonly message: string;
}

/** degradedCondition is True with the first problem's reason (all messages joined), False when there is none. */
export function degradedCondition(problems: readonly Problem[]): ConditionUpdate {
  const type = ConditionType.Degraded;
  const first = problems[0];
  if (first === undefined) return { type, status: 'False', reason: 'NoProblems', message: 'nothing is degraded' };
  return { type, status: 'True', reason: first.reason, message: problems.map((p) => p.message).join('; ') };
}

/** availabilityProblem turns a partial Available into a Degraded problem, if it is one. */
export function availabilityProblem(available: ConditionUpdate): Problem | undefined {
  return available.status === 'True' && available.reason === 'SomePodsNotReady'
    ? { reason: available.reason, message: available.message }
    : undefined;
}

/**
 * syncedCondition maps the active generation's status probe to Synced. An answer decides at once (a lag is news); a
 * probe that got none is tolerated while `streak` is below PROBE_FAILURE_THRESHOLD: Synced stays as it was
 * (`previous`: what the last answer made it), or Unknown/NoAnswerYet when there was no server to ask before. From
 * the threshold on (or without a streak) it is False/StatusUnreachable, saying since when nothing answered.
 */
export function syncedCondition(
  probe: ProbeResult | undefined,
  streak?: ProbeStreak,
  previous?: MiddlewareCondition,
): ConditionUpdate {
  const type = ConditionType.Synced;
  if (probe === undefined)
    return { type, status: 'Unknown', reason: 'NotProbed', message: 'no server is available to ask' };
  if (!probe.reachable) {
    if (isTolerated(streak))
      return previous === undefined || previous.reason === 'NotProbed'
        ? { type, status: 'Unknown', reason: 'NoAnswerYet', message: 'the status endpoint has not answered yet' }
        : { type, status: previous.status, reason: previous.reason, message: previous.message };
    const error = probe.error ?? 'status endpoint unreachable';
    return {
      type,
      status: 'False',
      reason: 'StatusUnreachable',
      message: streak === undefined ? error : `${error}; no answer since ${streak.since}`,
    };
  }
  const heights = `height ${probe.height ?? '?'}, node height ${probe.nodeHeight ?? '?'}, lag ${probe.lag ?? '?'}`;
  if (probe.synced) return { type, status: 'True', reason: 'CaughtUp', message: heights };
  return {
    type,
    status: 'False',
    reason: 'CatchingUp',
    message: probe.error === undefined ? heights : `${heights} (${probe.error})`,
  };
}

/** pausedCondition reports spec.paused as ReconciliationPaused (Strimzi's convention). */
export function pausedCondition(paused: boolean): ConditionUpdate {
  return paused
    ? {
        type: ConditionType.ReconciliationPaused,
        status: 'True',
        reason: 'PausedBySpec',
        message: 'spec.paused is true: children are left as they are',
      }
    : {
        type: ConditionType.ReconciliationPaused,
        status: 'False',
        reason: 'ReconciliationActive',
        message: 'the operator reconciles this resource',
      };
}

/** REFUSALS: the reasons of Reconciled=False for a spec the operator will not act on (phase Invalid). */
const REFUSALS: ReadonlySet<string> = new Set(['InvalidSpec', 'SchemaConflict', 'OperandRefused']);
/** ASKING: the reasons of Reconciled=False while a Job asks the database before anything runs (phase Pending). */
const ASKING: ReadonlySet<string> = new Set(['CheckingDatabase', 'DatabaseCheckFailed', 'CheckingOperand']);

/** derivePhase condenses the conditions into one word, the most pressing state first. */
export function derivePhase(conditions: readonly MiddlewareCondition[] | undefined): Phase {
  const status = (type: string): ConditionStatus | undefined => findCondition(conditions, type)?.status;
  const reconciled = findCondition(conditions, ConditionType.Reconciled);
  // a spec the operator refuses: invalid, schemas that would be another Middleware's, or an image it cannot drive
  if (reconciled?.status === 'False' && REFUSALS.has(reconciled.reason)) return Phase.Invalid;
  if (status(ConditionType.ReconciliationPaused) === 'True') return Phase.Paused;
  // not reconciled yet, or still asking the database which generation a Middleware without status serves (or the
  // version of its image)
  const askingDatabase = reconciled !== undefined && ASKING.has(reconciled.reason);
  if (reconciled === undefined || (reconciled.status === 'False' && askingDatabase)) return Phase.Pending;
  if (status(ConditionType.Degraded) === 'True') return Phase.Degraded;
  if (status(ConditionType.MigrationsApplied) !== 'True') return Phase.Migrating;
  if (status(ConditionType.Available) !== 'True') return Phase.Pending;
  if (status(ConditionType.Reindexing) === 'True') return Phase.Reindexing;
  if (status(ConditionType.Synced) !== 'True') return Phase.Syncing;
  return Phase.Available;
}

/** statusChanged tells whether writing `next` would change anything (order of keys aside). */
export function statusChanged(current: unknown, next: unknown): boolean {
  return !isDeepStrictEqual(normalise(current), normalise(next));
}

// Drops undefined members so `{a: undefined}` equals `{}`, as it does once serialised.
function normalise(value: unknown): unknown {
  return value === undefined ? undefined : (JSON.parse(JSON.stringify(value)) as unknown);
}
