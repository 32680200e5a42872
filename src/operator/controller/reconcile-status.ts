/** @module The Middleware's next status from what a pass saw (pure), and the merge patch that writes it. */
import type { V1Deployment } from '@kubernetes/client-node';
import type { BootstrapStatus, Middleware, MiddlewareStatus, SnapshotSource } from '../api/middleware-types.ts';
import { ConditionType, ReloadState, RestoreState, SpaceCheckResult } from '../api/middleware-types.ts';
import { Component, formatSelector, selectorFor } from '../specs/meta.ts';
import { describeSnapshot, type GenerationState, type ReloadProgress } from './bluegreen.ts';
import { isTolerated, type ProbeStreak } from './probe-streak.ts';
import { deploymentCounts, isDeploymentAvailable, jobFailure, rolloutStall } from './reconcile-children.ts';
import type { GenerationReport } from './reconcile-generation.ts';
import {
  availabilityProblem,
  availableCondition,
  degradedCondition,
  derivePhase,
  findCondition,
  pausedCondition,
  setConditions,
  syncedCondition,
  type ConditionUpdate,
  type Problem,
} from './status.ts';
import type { ProbeResult } from './status-probe.ts';

/** FIRST_GENERATION is the generation a new Middleware starts with (schema `<prefix>1`). */
export const FIRST_GENERATION = 1;

/** PassOutcome is what one reconcile pass saw, the input of the next status. */
export interface PassOutcome {
  readonly mw: Middleware;
  readonly state: GenerationState;
  readonly active: GenerationReport;
  /** `/middleware/status` of the active generation through the stable Service, when its servers are available. */
  readonly activeProbe: ProbeResult | undefined;
  /** The active generation's probes that got no answer in a row, this one's included (ProbeStreaks). */
  readonly activeProbeStreak?: ProbeStreak | undefined;
  /** The populator Deployment of the pending generation, when a blue/green reload builds one. */
  readonly pendingPopulator?: V1Deployment | undefined;
  /** The OperandVersion condition of the pass (reconcile-operand.ts): a refused image is a problem. */
  readonly operand?: ConditionUpdate;
  readonly now: Date;
}

const REINDEXING: ReadonlySet<string> = new Set([
  ReloadState.CheckingDatabase,
  ReloadState.Migrating,
  ReloadState.CatchingUp,
  ReloadState.AwaitingPromotion,
  ReloadState.Reloading,
]);

/**
 * generationStateOf reads the blue/green state from a status (a new Middleware starts on the first generation, one
 * restored without status on the generation its children serve, `adopted`).
 */
export function generationStateOf(status: MiddlewareStatus | undefined, adopted?: number): GenerationState {
  const state: GenerationState = { activeGeneration: status?.activeGeneration ?? adopted ?? FIRST_GENERATION };
  if (status?.pendingGeneration !== undefined) state.pendingGeneration = status.pendingGeneration;
  if (status?.previousGeneration !== undefined) state.previousGeneration = status.previousGeneration;
  if (status?.previousExpiresAt !== undefined) state.previousExpiresAt = status.previousExpiresAt;
  if (status?.reload !== undefined) {
    state.reload = {
      ...status.reload,
      fromGeneration: status.reload.fromGeneration ?? state.activeGeneration,
      message: status.reload.message ?? '',
    } as ReloadProgress;
  }
  return state;
}

/** withGenerationState replaces the blue/green fields of status with state's. */
export function withGenerationState(status: MiddlewareStatus | undefined, state: GenerationState): MiddlewareStatus {
  const { pendingGeneration: _p, previousGeneration: _q, previousExpiresAt: _r, reload: _s, ...rest } = status ?? {};
  return { ...rest, ...state };
}

/** reconciledStatus is the status after a full pass: every condition, the phase, generations, heights and scale fields. */
export function reconciledStatus(outcome: PassOutcome): MiddlewareStatus {
  const { mw, state, active, activeProbe, now } = outcome;
  const available = availableCondition(deploymentCounts(active.server));
  // Pods still starting are not a problem; losing what served is (and stays one until it is back).
  const served = wasServing(mw.status);
  const problems = [
    availabilityProblem(available),
    served && available.reason === 'NoPodReady'
      ? { reason: 'NoPodReady', message: `no server of generation ${active.generation} is available` }
      : undefined,
    active.migration === 'Failed' && active.restore?.state !== 'Failed'
      ? {
          reason: 'MigrationFailed',
          message: `migration of generation ${active.generation} failed: ${jobFailure(active.migrationJob)}`,
        }
      : undefined,
    served &&
    active.populator !== undefined &&
    active.populator.spec?.replicas !== 0 &&
    active.migration === 'Succeeded' &&
    !isDeploymentAvailable(active.populator)
      ? { reason: 'PopulatorNotReady', message: `the populator of generation ${active.generation} is not ready` }
      : undefined,
    active.restore?.state === 'Failed'
      ? { reason: 'SnapshotFailed', message: restoreFailure(active.generation, active.restore.error) }
      : undefined,
    state.reload?.state === ReloadState.Failed ? { reason: 'ReloadFailed', message: state.reload.message } : undefined,
    serverRolloutProblem(active),
    outcome.operand?.status === 'False' ? { reason: 'OperandRefused', message: outcome.operand.message } : undefined,
  ].filter((p): p is Problem => p !== undefined);
  const updates: ConditionUpdate[] = [
    reconciledCondition(active),
    migrationsCondition(active),
    available,
    syncedCondition(
      available.status === 'True' ? activeProbe : undefined,
      outcome.activeProbeStreak,
      findCondition(mw.status?.conditions, ConditionType.Synced),
    ),
    reindexingCondition(state.reload),
    pendingPopulatorCondition(state, outcome.pendingPopulator),
    databaseSpaceCondition(state.reload),
    degradedCondition(problems),
    pausedCondition(false),
    ...(outcome.operand === undefined ? [] : [outcome.operand]),
  ];
  const conditions = setConditions(mw.status?.conditions, updates, {
    now,
    observedGeneration: mw.metadata.generation ?? 0,
  });
  // a failure not yet counted keeps the last answer's heights, as it keeps Synced
  const probe = isTolerated(outcome.activeProbeStreak) ? mw.status : activeProbe?.reachable ? activeProbe : undefined;
  const { height: _h, nodeHeight: _n, lag: _l, ...previous } = mw.status ?? {};
  const bootstrap = bootstrapAfter(mw.status?.bootstrap, active, now);
  return {
    ...withGenerationState(previous, state),
    ...(bootstrap === undefined ? {} : { bootstrap }),
    observedGeneration: mw.metadata.generation ?? 0,
    phase: derivePhase(conditions),
    conditions,
    ...(probe?.height === undefined ? {} : { height: probe.height }),
    ...(probe?.nodeHeight === undefined ? {} : { nodeHeight: probe.nodeHeight }),
    ...(probe?.lag === undefined ? {} : { lag: probe.lag }),
    replicas: active.server?.status?.replicas ?? 0,
    readyReplicas: active.server?.status?.readyReplicas ?? 0,
    selector: formatSelector(selectorFor(mw, Component.server, state.activeGeneration)),
  };
}

/**
 * restoringBootstrap is the snapshot the active generation is still to be restored from: the first generation's
 * (status.bootstrap), until its restore Job has succeeded.
 */
export function restoringBootstrap(
  status: MiddlewareStatus | undefined,
  state: GenerationState,
): SnapshotSource | undefined {
  const bootstrap = status?.bootstrap;
  if (bootstrap === undefined || bootstrap.state === RestoreState.Restored) return undefined;
  return bootstrap.generation === state.activeGeneration ? bootstrap.snapshot : undefined;
}

/** bootstrapAfter is status.bootstrap after a pass that saw the active generation's restore Job. */
function bootstrapAfter(
  bootstrap: BootstrapStatus | undefined,
  active: GenerationReport,
  now: Date,
): BootstrapStatus | undefined {
  const restore = active.restore;
  if (bootstrap === undefined || restore === undefined || bootstrap.generation !== active.generation) return bootstrap;
  const { completedAt: _c, ...base } = bootstrap;
  const from = `generation ${active.generation} from the snapshot ${describeSnapshot(bootstrap.snapshot)}`;
  if (restore.state === 'Succeeded')
    return { ...base, state: RestoreState.Restored, message: `restored ${from}`, completedAt: now.toISOString() };
  if (restore.state === 'Failed')
    return { ...base, state: RestoreState.Failed, message: restoreFailure(active.generation, restore.error) };
  return { ...base, state: RestoreState.Restoring, message: `restoring ${from}` };
}

function restoreFailure(generation: number, error: string | undefined): string {
  return `restoring generation ${generation} from its snapshot failed (delete its restore Job to try again): ${error ?? 'the Job failed'}`;
}

/** serverRolloutProblem: the active servers' rollout stopped (the running ones keep serving, the new ones cannot start). */
function serverRolloutProblem(active: GenerationReport): Problem | undefined {
  const stall = rolloutStall(active.server);
  if (stall === undefined) return undefined;
  const message = `the servers of generation ${active.generation} cannot roll out (kubectl describe pods): ${stall}`;
  return { reason: 'ServerRolloutStalled', message };
}

/** invalidStatus reports a spec the operator refuses: Reconciled=False/InvalidSpec; nothing else changes. */
export function invalidStatus(mw: Middleware, message: string, now: Date): MiddlewareStatus {
  const update: ConditionUpdate = { type: ConditionType.Reconciled, status: 'False', reason: 'InvalidSpec', message };
  const conditions = setConditions(mw.status?.conditions, [update], {
    now,
    observedGeneration: mw.metadata.generation ?? 0,
  });
  return { ...mw.status, observedGeneration: mw.metadata.generation ?? 0, conditions, phase: derivePhase(conditions) };
}

/**
 * checkingDatabaseStatus reports a Middleware without status whose database is being asked which generation it
 * serves (Reconciled=False/CheckingDatabase, or DatabaseCheckFailed); nothing else is applied meanwhile.
 */
export function checkingDatabaseStatus(mw: Middleware, message: string, failed: boolean, now: Date): MiddlewareStatus {
  const reason = failed ? 'DatabaseCheckFailed' : 'CheckingDatabase';
  const update: ConditionUpdate = { type: ConditionType.Reconciled, status: 'False', reason, message };
  const conditions = setConditions(mw.status?.conditions, [update], {
    now,
    observedGeneration: mw.metadata.generation ?? 0,
  });
  return { ...mw.status, observedGeneration: mw.metadata.generation ?? 0, conditions, phase: derivePhase(conditions) };
}

/** withConditions sets conditions (and the phase they give); nothing else of the status changes. */
export function withConditions(mw: Middleware, updates: readonly ConditionUpdate[], now: Date): MiddlewareStatus {
  const conditions = setConditions(mw.status?.conditions, updates, {
    now,
    observedGeneration: mw.metadata.generation ?? 0,
  });
  return { ...mw.status, observedGeneration: mw.metadata.generation ?? 0, conditions, phase: derivePhase(conditions) };
}

/** pausedStatus reports spec.paused; observedGeneration stays (the new spec was not acted on), as Strimzi does. */
export function pausedStatus(mw: Middleware, now: Date): MiddlewareStatus {
  const conditions = setConditions(mw.status?.conditions, [pausedCondition(true)], {
    now,
    observedGeneration: mw.metadata.generation ?? 0,
  });
  return { ...mw.status, conditions, phase: derivePhase(conditions) };
}

/** statusPatch is the JSON merge patch turning current into next: removed members become null. */
export function statusPatch(current: unknown, next: unknown): unknown {
  if (!isRecord(current) || !isRecord(next)) return next === undefined ? null : next;
  const patch: Record<string, unknown> = {};
  for (const key of Object.keys(current)) if (next[key] === undefined && current[key] !== undefined) patch[key] = null;
  for (const [key, value] of Object.entries(next)) {
    if (value === undefined) continue;
    patch[key] = isRecord(value) && isRecord(current[key]) ? statusPatch(current[key], value) : value;
  }
  return patch;
}

function wasServing(status: MiddlewareStatus | undefined): boolean {
  const degraded = findCondition(status?.conditions, ConditionType.Degraded);
  return (
    findCondition(status?.conditions, ConditionType.Available)?.status === 'True' ||
    (degraded?.status === 'True' && (degraded.reason === 'NoPodReady' || degraded.reason === 'PopulatorNotReady'))
  );
}

function reconciledCondition(active: GenerationReport): ConditionUpdate {
  if (active.restore !== undefined && active.restore.state !== 'Succeeded')
    return {
      type: ConditionType.Reconciled,
      status: 'False',
      reason: 'WaitingForMigrations',
      message: `workloads of generation ${active.generation} wait for its snapshot restore Job, then its migration Job`,
    };
  if (active.migration === 'Succeeded')
    return {
      type: ConditionType.Reconciled,
      status: 'True',
      reason: 'ReconcileSucceeded',
      message: 'every child is applied',
    };
  return {
    type: ConditionType.Reconciled,
    status: 'False',
    reason: 'WaitingForMigrations',
    message: `workloads of generation ${active.generation} wait for its migration Job`,
  };
}

function migrationsCondition(active: GenerationReport): ConditionUpdate {
  const type = ConditionType.MigrationsApplied;
  if (active.restore?.state === 'Failed')
    return {
      type,
      status: 'False',
      reason: 'SnapshotFailed',
      message: restoreFailure(active.generation, active.restore.error),
    };
  if (active.restore !== undefined && active.restore.state !== 'Succeeded')
    return {
      type,
      status: 'False',
      reason: 'SnapshotRestoring',
      message: `the restore Job of generation ${active.generation} imports its snapshot; its migration Job follows`,
    };
  if (active.migration === 'Succeeded')
    return {
      type,
      status: 'True',
      reason: 'MigrationsSucceeded',
      message: `schema of generation ${active.generation} is migrated`,
    };
  if (active.migration === 'Failed')
    return { type, status: 'False', reason: 'MigrationFailed', message: jobFailure(active.migrationJob) };
  return {
    type,
    status: 'False',
    reason: 'MigrationsRunning',
    message: `the migration Job of generation ${active.generation} is running`,
  };
}

/**
 * pendingPopulatorCondition says whether the populator building a pending generation works: its Deployment is
 * available and the promotion gate did not find it dead. A crash-looping populator shows here long before the
 * reload's deadline ends it.
 */
export function pendingPopulatorCondition(
  state: GenerationState,
  populator: V1Deployment | undefined,
): ConditionUpdate {
  const type = ConditionType.PendingPopulatorReady;
  const generation = state.pendingGeneration;
  const building =
    state.reload?.state === ReloadState.CatchingUp || state.reload?.state === ReloadState.AwaitingPromotion;
  if (generation === undefined || !building)
    return { type, status: 'Unknown', reason: 'NoPendingGeneration', message: 'no generation is being built' };
  if (!isDeploymentAvailable(populator)) {
    const counts = deploymentCounts(populator);
    const seen = counts === undefined ? 'no Deployment yet' : `${counts.available} of ${counts.desired} available`;
    return {
      type,
      status: 'False',
      reason: 'PopulatorNotReady',
      message: `the populator of generation ${generation} is not available (${seen})`,
    };
  }
  if (state.reload?.message.includes('populator not alive') === true)
    return { type, status: 'False', reason: 'PopulatorStuck', message: state.reload.message };
  return {
    type,
    status: 'True',
    reason: 'PopulatorReady',
    message: `the populator of generation ${generation} is running`,
  };
}

/** databaseSpaceCondition reports the free-space check of the last BlueGreen reload (the reload refused when False). */
export function databaseSpaceCondition(reload: ReloadProgress | undefined): ConditionUpdate {
  const type = ConditionType.DatabaseSpace;
  const check = reload?.spaceCheck;
  if (check === undefined)
    return { type, status: 'Unknown', reason: 'NotChecked', message: 'no blue/green reload has checked the space yet' };
  if (check.result === SpaceCheckResult.Sufficient)
    return { type, status: 'True', reason: 'Sufficient', message: check.message };
  if (check.result === SpaceCheckResult.Insufficient)
    return { type, status: 'False', reason: 'Insufficient', message: check.message };
  return { type, status: 'Unknown', reason: 'CapacityUnknown', message: check.message };
}

function reindexingCondition(reload: ReloadProgress | undefined): ConditionUpdate {
  const type = ConditionType.Reindexing;
  if (reload === undefined) return { type, status: 'False', reason: 'NoReload', message: 'no reload was requested' };
  return {
    type,
    status: REINDEXING.has(reload.state) ? 'True' : 'False',
    reason: reload.state,
    message: reload.message,
  };
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
