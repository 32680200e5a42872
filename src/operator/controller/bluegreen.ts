/**
 * @module The reload state machine (pure): blue/green data generations and in-place reloads. All
 * progress lives in the returned state, which the reconciler stores in `.status`, so an operator
 * that crashed (or lost its Lease) resumes from the status alone.
 */
import {
  GROUP,
  ReloadState,
  SpaceCheckResult,
  type MiddlewareStatus,
  type ReloadStatus,
  type SnapshotSource,
} from '../api/middleware-types.ts';
import type { ReloadStrategy } from '../api/spec-values.ts';
import { freeGeneration, spaceCheck, type DatabaseReport } from './database-report.ts';
import { promotionBlockers } from './promotion-gate.ts';
import type { ProbeResult } from './status-probe.ts';

// BlueGreen: CheckingDatabase → Migrating → CatchingUp → (AwaitingPromotion) → Promoted (the rollback window) →
// CleaningUp → Completed | RolledBack | Failed | Aborted. InPlace: Reloading → Completed | Failed.

/** ReloadOutcome is the terminal state a clean-up ends in. */
export type ReloadOutcome = 'Completed' | 'RolledBack' | 'Failed' | 'Aborted';

/** ROLLBACK_ANNOTATION on a Middleware, set to a reload id, switches back to the generation that reload replaced. */
export const ROLLBACK_ANNOTATION = `${GROUP}/rollback`;

/**
 * REPLACE_ANNOTATION on a Middleware, set to the id of a running reload (`mdw reload --force`), lets a new request
 * abort that reload before its promotion; without it a new request waits (a kubectl or GitOps edit of the id).
 */
export const REPLACE_ANNOTATION = `${GROUP}/replace-reload`;

/** ReloadRequest is the slice of the resolved `spec.reload` the state machine reads. */
export interface ReloadRequest {
  readonly id: string;
  readonly strategy: ReloadStrategy;
  readonly heights: string | undefined;
  /** false: wait in AwaitingPromotion until a user sets it to true. */
  readonly autoPromote: boolean;
  /** BlueGreen: the snapshot the new generation is restored from before its migration (spec.reload.snapshot). */
  readonly snapshot?: SnapshotSource | undefined;
}

/** ReloadProgress is `status.reload` as the state machine writes it: always with its origin and a message. */
export type ReloadProgress = ReloadStatus & {
  fromGeneration: number;
  message: string;
  outcome?: ReloadOutcome;
};

/** GenerationState is the blue/green part of `.status`: which generation serves, builds, is retained. */
export type GenerationState = Pick<
  MiddlewareStatus,
  'pendingGeneration' | 'previousGeneration' | 'previousExpiresAt'
> & {
  activeGeneration: number;
  reload?: ReloadProgress;
};

/** JobState condenses a Job's status. */
export type JobState = 'Absent' | 'Running' | 'Succeeded' | 'Failed';

/** DatabaseCheck is a `mdw db usage` Job's state and, once it succeeded, its report; `error` says why there is none. */
export interface DatabaseCheck {
  readonly job: JobState;
  readonly report?: DatabaseReport;
  readonly error?: string;
}

/** ReloadObservation is what the reconciler saw in the cluster for the generations in play. */
export interface ReloadObservation {
  /** The database check of a BlueGreen reload in CheckingDatabase. */
  readonly databaseCheck?: DatabaseCheck;
  /** Migration Job of the reload's generation (Running while its restore Job runs, Failed when that failed). */
  readonly pendingMigration: JobState;
  /** The import's error, when the restore Job of the reload's generation failed. */
  readonly pendingRestoreError?: string;
  /** Whether the pending generation's servers answer (all of them, or enough while they scale up for the switch). */
  readonly pendingServersAvailable: boolean;
  /** Whether the pending generation runs all of spec.server.replicas, available: the switch waits for it. */
  readonly pendingServersScaled?: boolean;
  /** `/middleware/status` of the pending generation, through its preview Service. */
  readonly pendingProbe?: ProbeResult;
  /** Whether the retained previous generation's servers are available (the rollback window). */
  readonly previousServersAvailable?: boolean;
  /** `/middleware/status` of the retained previous generation, through the preview Service, when a rollback waits. */
  readonly previousProbe?: ProbeResult;
  /** InPlace `-H` Job of the reload. */
  readonly reloadJob: JobState;
  /** Drop Job of `reload.cleanupGeneration`. */
  readonly cleanupJob: JobState;
  /** Reload id named by the rollback annotation. */
  readonly rollbackId?: string;
  /** Reload id named by the replace annotation: that reload may be aborted for a new request. */
  readonly replaceId?: string;
  /** The Middleware was never reconciled: its first generation is about to load the whole chain anyway. */
  readonly firstReconcile?: boolean;
}

/** ReloadSettings are the gate, drain and window parameters (spec.promotion and spec.reload.retainPrevious). */
export interface ReloadSettings {
  /** K: the new generation may trail the node by at most this many blocks. */
  readonly maxLagBlocks: number;
  /** How long it must stay within K blocks before it may be promoted. */
  readonly stableWindowMs: number;
  /** How long the previous generation is kept after a promotion. */
  readonly retainPreviousMs: number;
  /**
   * The drain (spec.promotion.switchDrainSeconds): the servers the stable Service stops selecting keep running at
   * least this long after the switch. The switch is one write of the selector, but clients follow it later: the
   * EndpointSlice controller rewrites the Service's endpoints, then kube-proxy on every node its rules (seconds, more
   * on a loaded cluster). Servers deleted at the switch would meanwhile still be sent requests, refused. It bounds
   * the rollback window from below and delays the drop of a generation rolled back from.
   */
  readonly switchDrainMs: number;
  /** How long a BlueGreen reload may stay in Migrating or CatchingUp after its start; then it fails. */
  readonly deadlineMs: number;
  /** spec.database.storageCapacity in bytes; undefined: the free-space check is skipped. */
  readonly storageCapacityBytes?: number | undefined;
}

/** ReloadEvent is an Event the reconciler records on the Middleware for a transition. */
export interface ReloadEvent {
  readonly type: 'Normal' | 'Warning';
  readonly reason: string;
  readonly message: string;
}

/** ReloadStep is the outcome of one advance: the next state, its events, and when to look again. */
export interface ReloadStep {
  readonly state: GenerationState;
  readonly events: readonly ReloadEvent[];
  /** Set when progress depends on time, or on a Job or probe nobody watches for us. */
  readonly requeueAfterMs?: number;
}

/** GenerationPlan says which children of one generation must exist. */
export interface GenerationPlan {
  readonly generation: number;
  /** Populator and server Deployments (besides the migration Job, which every listed generation has). */
  readonly workloads: boolean;
  /** Preview Service: the pending generation before promotion. */
  readonly preview: boolean;
  /** Heights its populator reloads (`-p -H`) while it is being built (a BlueGreen reload with heights). */
  readonly heights?: string;
  /** Its populator is scaled to zero: an InPlace `-H` Job writes the schema (one writer at a time). */
  readonly populatorStopped?: boolean;
  /** Its servers are spec.server.previewReplicas, not the full count: it is catching up, far from the head. */
  readonly previewScale?: boolean;
  /** Its new schema is restored from this snapshot first: a restore Job, then (once it succeeded) the migration Job. */
  readonly restore?: SnapshotSource;
}

/** DesiredLayout is every generation-scoped child the state asks for; any other generation of the Middleware goes. */
export interface DesiredLayout {
  readonly generations: readonly GenerationPlan[];
  /** The generation the stable HTTP and websocket Services select. */
  readonly stableGeneration: number;
  /** Generation whose schema a drop Job removes, once its workloads are gone. */
  readonly cleanupGeneration?: number;
  /** InPlace `-H` Job. */
  readonly reloadJob?: { readonly id: string; readonly generation: number; readonly heights: string };
  /** The `mdw db usage` Job of a BlueGreen reload checking the database (named by the reload's id). */
  readonly databaseCheck?: { readonly id: string };
}

const POLL_MS = 10_000;

const TERMINAL: ReadonlySet<ReloadState> = new Set([
  ReloadState.Completed,
  ReloadState.RolledBack,
  ReloadState.Failed,
  ReloadState.Aborted,
]);
const BEFORE_PROMOTION: ReadonlySet<ReloadState> = new Set([
  ReloadState.CheckingDatabase,
  ReloadState.Migrating,
  ReloadState.CatchingUp,
  ReloadState.AwaitingPromotion,
]);

/** RACING_THE_DEADLINE: the states a stuck generation would stay in forever (AwaitingPromotion waits on a person). */
const RACING_THE_DEADLINE: ReadonlySet<ReloadState> = new Set([
  ReloadState.CheckingDatabase,
  ReloadState.Migrating,
  ReloadState.CatchingUp,
]);

/** isPastDeadline is true once a reload has run longer than its deadline (a deadline of 0 never passes). */
export function isPastDeadline(reload: ReloadProgress, now: Date, settings: ReloadSettings): boolean {
  if (settings.deadlineMs <= 0 || reload.startedAt === undefined) return false;
  return now.getTime() - Date.parse(reload.startedAt) > settings.deadlineMs;
}

/** isReloadBusy is true while a reload has not reached a terminal state. */
export function isReloadBusy(state: GenerationState): boolean {
  return state.reload !== undefined && !TERMINAL.has(state.reload.state);
}

/**
 * advanceReload makes at most one transition. It is idempotent: with the same inputs it returns
 * the same state, so a reconciler that crashed after any write simply calls it again. A new
 * request waits until the current reload is terminal (the running one then finishes without waiting for an
 * approval that its withdrawn request can no longer give); withdrawing the request, or replacing it with
 * the replace annotation naming the running reload (`mdw reload --force`), aborts a reload before promotion
 * (its generation is dropped).
 */
export function advanceReload(
  state: GenerationState,
  request: ReloadRequest | undefined,
  seen: ReloadObservation,
  now: Date,
  settings: ReloadSettings,
): ReloadStep {
  const reload = state.reload;
  if (reload === undefined || TERMINAL.has(reload.state)) {
    if (request === undefined || request.id === reload?.id) return { state, events: [] };
    return seen.firstReconcile === true ? skip(state, request, now) : start(state, request, now);
  }
  const replaced = request !== undefined && request.id !== reload.id;
  if (BEFORE_PROMOTION.has(reload.state) && (request === undefined || (replaced && seen.replaceId === reload.id))) {
    const why = request === undefined ? 'was withdrawn' : `was replaced by ${request.id} (--force)`;
    if (reload.state === ReloadState.CheckingDatabase)
      return terminal(state, reload, 'Aborted', now, {
        type: 'Warning',
        reason: 'ReloadAborted',
        message: `reload ${reload.id} ${why} before it built anything`,
      });
    return cleanUp(state, reload, reload.generation, 'Aborted', {
      type: 'Warning',
      reason: 'ReloadAborted',
      message: `reload ${reload.id} ${why} before promotion; dropping generation ${reload.generation}`,
    });
  }
  if (RACING_THE_DEADLINE.has(reload.state) && isPastDeadline(reload, now, settings)) {
    if (reload.state === ReloadState.CheckingDatabase)
      return terminal(state, reload, 'Failed', now, {
        type: 'Warning',
        reason: 'ReloadDeadlineExceeded',
        message: `reload ${reload.id} could not check the database within its deadline: ${reload.message}`,
      });
    return cleanUp(state, reload, reload.generation, 'Failed', {
      type: 'Warning',
      reason: 'ReloadDeadlineExceeded',
      message: `reload ${reload.id} did not pass the promotion gate within its deadline (${settings.deadlineMs / 1000} s since ${reload.startedAt ?? '?'}): ${reload.message}; dropping generation ${reload.generation}`,
    });
  }
  switch (reload.state) {
    case ReloadState.Reloading:
      return finishInPlace(state, reload, seen.reloadJob, now);
    case ReloadState.CheckingDatabase:
      return checkDatabase(state, reload, seen.databaseCheck, now, settings);
    case ReloadState.Migrating:
      return migrate(state, reload, seen.pendingMigration, seen.pendingRestoreError);
    case ReloadState.CatchingUp:
    case ReloadState.AwaitingPromotion:
      // an edit of the Middleware meanwhile gives the pending generation a new migration Job: it may fail too
      if (seen.pendingMigration === 'Failed') return migrate(state, reload, 'Failed');
      return catchUp(state, reload, replaced || request?.autoPromote === true, seen, now, settings);
    case ReloadState.Promoted:
      return retain(state, reload, seen, now, settings);
    default: // CleaningUp
      return finishCleanUp(state, reload, seen.cleanupJob, now);
  }
}

/**
 * desiredLayout lists the generation-scoped children the state calls for; `bootstrap` is the snapshot the active
 * generation is still being restored from (restoringBootstrap).
 */
export function desiredLayout(state: GenerationState, bootstrap?: SnapshotSource): DesiredLayout {
  const reload = state.reload;
  const reloadingInPlace = reload?.state === ReloadState.Reloading;
  const generations: GenerationPlan[] = [
    {
      generation: state.activeGeneration,
      workloads: true,
      preview: false,
      ...(reloadingInPlace ? { populatorStopped: true } : {}),
      ...(bootstrap === undefined ? {} : { restore: bootstrap }),
    },
  ];
  if (state.pendingGeneration !== undefined) {
    const building = reload?.state !== ReloadState.Migrating;
    // Once promoted the generation only follows the head: `-H` then goes, so a pod restart never re-runs it.
    const heights = reload?.heights === undefined ? {} : { heights: reload.heights };
    // the full server count only once it is nearly synced: the switch then keeps the stable Service's capacity
    const far = reload?.state === ReloadState.CatchingUp && reload.syncedSince === undefined;
    // the snapshot fills the schema while it is new: once migrated, nothing restores it again
    const restore = reload?.state === ReloadState.Migrating ? reload.snapshot : undefined;
    generations.push({
      generation: state.pendingGeneration,
      workloads: building,
      preview: building,
      ...heights,
      ...(far ? { previewScale: true } : {}),
      ...(restore === undefined ? {} : { restore }),
    });
  }
  // in the rollback window the preview Service selects the retained generation: the rollback checks it through it
  if (state.previousGeneration !== undefined)
    generations.push({
      generation: state.previousGeneration,
      workloads: true,
      preview: reload?.state === ReloadState.Promoted,
    });
  return {
    generations,
    stableGeneration: state.activeGeneration,
    ...(reload?.state === ReloadState.CleaningUp && reload.cleanupGeneration !== undefined
      ? { cleanupGeneration: reload.cleanupGeneration }
      : {}),
    ...(reload?.state === ReloadState.Reloading
      ? { reloadJob: { id: reload.id, generation: reload.generation, heights: reload.heights ?? '' } }
      : {}),
    ...(reload?.state === ReloadState.CheckingDatabase ? { databaseCheck: { id: reload.id } } : {}),
  };
}

/** generationsInPlay are the generations whose schemas the workloads run on: active, pending and retained. */
export function generationsInPlay(state: GenerationState): number[] {
  const all = [state.activeGeneration, state.pendingGeneration, state.previousGeneration];
  return all.filter((g): g is number => g !== undefined);
}

/** nextGenerationNumber is one above every generation this Middleware has used, so a schema name is never reused. */
export function nextGenerationNumber(state: GenerationState): number {
  return (
    Math.max(
      state.activeGeneration,
      state.pendingGeneration ?? 0,
      state.previousGeneration ?? 0,
      state.reload?.generation ?? 0,
    ) + 1
  );
}

function start(state: GenerationState, request: ReloadRequest, now: Date): ReloadStep {
  const base = {
    id: request.id,
    strategy: request.strategy,
    fromGeneration: state.activeGeneration,
    startedAt: now.toISOString(),
    ...(request.heights === undefined ? {} : { heights: request.heights }),
    ...(request.snapshot === undefined || request.strategy === 'InPlace' ? {} : { snapshot: request.snapshot }),
  };
  const { pendingGeneration: _p, previousGeneration: _q, previousExpiresAt: _r, ...rest } = state;
  if (request.strategy === 'InPlace') {
    const message = `reloading heights ${request.heights ?? ''} in generation ${state.activeGeneration}`;
    const reload: ReloadProgress = {
      ...base,
      state: ReloadState.Reloading,
      generation: state.activeGeneration,
      message,
    };
    return {
      state: { ...rest, reload },
      events: [{ type: 'Normal', reason: 'ReloadStarted', message: `reload ${request.id}: ${message}` }],
      requeueAfterMs: POLL_MS,
    };
  }
  const generation = nextGenerationNumber(state);
  const reload: ReloadProgress = {
    ...base,
    state: ReloadState.CheckingDatabase,
    generation,
    message: 'a Job measures the database (its size, its generation schemas) before a new generation is built',
  };
  return {
    state: { ...rest, reload },
    events: [
      {
        type: 'Normal',
        reason: 'ReloadStarted',
        message: `reload ${request.id}: measuring the database before building a generation beside generation ${state.activeGeneration}`,
      },
    ],
    requeueAfterMs: POLL_MS,
  };
}

/**
 * checkDatabase starts building the new generation once the database has been measured: under a number no schema
 * has (a schema left by a Middleware restored without status is never reused), and only when it fits in the
 * volume. A reload that does not fit, or whose measurement failed, is refused at once (Failed, never a silent wait).
 */
function checkDatabase(
  state: GenerationState,
  reload: ReloadProgress,
  check: DatabaseCheck | undefined,
  now: Date,
  settings: ReloadSettings,
): ReloadStep {
  if (check?.job === 'Failed')
    return terminal(state, reload, 'Failed', now, {
      type: 'Warning',
      reason: 'ReloadRefused',
      message: `reload ${reload.id} refused: the database check failed: ${check.error ?? 'unknown'}`,
    });
  if (check?.report === undefined) return { state, events: [], requeueAfterMs: POLL_MS };
  const space = spaceCheck(check.report, state.activeGeneration, settings.storageCapacityBytes);
  if (space.result === SpaceCheckResult.Insufficient)
    return terminal(state, { ...reload, spaceCheck: space }, 'Failed', now, {
      type: 'Warning',
      reason: 'ReloadRefused',
      message: `reload ${reload.id} refused: ${space.message}`,
    });
  const generation = freeGeneration(check.report, reload.generation);
  const next: ReloadProgress = {
    ...reload,
    generation,
    spaceCheck: space,
    state: ReloadState.Migrating,
    message:
      reload.snapshot === undefined
        ? `migrating the schema of generation ${generation}`
        : `restoring generation ${generation} from the snapshot ${describeSnapshot(reload.snapshot)}, then migrating it`,
  };
  const skipped = space.result === SpaceCheckResult.Skipped;
  return {
    state: { ...state, pendingGeneration: generation, reload: next },
    events: [
      {
        type: skipped ? 'Warning' : 'Normal',
        reason: skipped ? 'SpaceCheckSkipped' : 'DatabaseSpaceChecked',
        message: space.message,
      },
      {
        type: 'Normal',
        reason: 'BuildingGeneration',
        message: `reload ${reload.id}: building generation ${generation} beside generation ${state.activeGeneration}`,
      },
    ],
    requeueAfterMs: POLL_MS,
  };
}

// A request already in the spec of a new Middleware (a GitOps re-apply, a copied manifest) would
// only load the chain twice: it is recorded as done without building anything.
function skip(state: GenerationState, request: ReloadRequest, now: Date): ReloadStep {
  const message = `reload ${request.id} was in the spec before the first generation existed, which loads the whole chain anyway: nothing to do`;
  const at = now.toISOString();
  const reload: ReloadProgress = {
    id: request.id,
    strategy: request.strategy,
    state: ReloadState.Completed,
    generation: state.activeGeneration,
    fromGeneration: state.activeGeneration,
    startedAt: at,
    completedAt: at,
    message,
    ...(request.heights === undefined ? {} : { heights: request.heights }),
  };
  return { state: { ...state, reload }, events: [{ type: 'Normal', reason: 'ReloadSkipped', message }] };
}

function finishInPlace(state: GenerationState, reload: ReloadProgress, job: JobState, now: Date): ReloadStep {
  if (job === 'Succeeded')
    return terminal(state, reload, 'Completed', now, {
      type: 'Normal',
      reason: 'ReloadCompleted',
      message: `heights ${reload.heights ?? ''} reloaded in generation ${reload.generation}`,
    });
  if (job === 'Failed')
    return terminal(state, reload, 'Failed', now, {
      type: 'Warning',
      reason: 'ReloadFailed',
      message: `the reload Job of ${reload.id} failed; generation ${reload.generation} keeps serving`,
    });
  return { state, events: [], requeueAfterMs: POLL_MS };
}

function migrate(
  state: GenerationState,
  reload: ReloadProgress,
  migration: JobState,
  restoreError?: string,
): ReloadStep {
  if (restoreError !== undefined) {
    return cleanUp(state, reload, reload.generation, 'Failed', {
      type: 'Warning',
      reason: 'SnapshotFailed',
      message: `restoring generation ${reload.generation} from the snapshot ${describeSnapshot(reload.snapshot)} failed: ${restoreError}; dropping the generation`,
    });
  }
  if (migration === 'Failed') {
    return cleanUp(state, reload, reload.generation, 'Failed', {
      type: 'Warning',
      reason: 'MigrationFailed',
      message: `the migration Job of generation ${reload.generation} failed; dropping the generation`,
    });
  }
  if (migration !== 'Succeeded') return { state, events: [], requeueAfterMs: POLL_MS };
  const restored =
    reload.snapshot === undefined ? '' : `restored from the snapshot ${describeSnapshot(reload.snapshot)} and `;
  const next: ReloadProgress = {
    ...reload,
    state: ReloadState.CatchingUp,
    message:
      reload.snapshot === undefined
        ? `generation ${reload.generation} is loading the chain`
        : `generation ${reload.generation} is following on from its snapshot's top`,
  };
  return {
    state: { ...state, reload: next },
    events: [
      {
        type: 'Normal',
        reason: 'MigrationsApplied',
        message: `schema of generation ${reload.generation} ${restored}migrated; starting its populator and preview servers`,
      },
    ],
    requeueAfterMs: POLL_MS,
  };
}

/** describeSnapshot names a snapshot's source in messages: its URL, or `<claim>:<path>`. */
export function describeSnapshot(source: SnapshotSource | undefined): string {
  if (source?.url !== undefined) return source.url;
  if (source?.volume !== undefined) return `volume ${source.volume.claimName}:${source.volume.path ?? '/'}`;
  return '?';
}

// The catch-up gate: a healthy answer (promotionBlockers) within K blocks, through available servers, for the whole
// stable window.
function catchUp(
  state: GenerationState,
  reload: ReloadProgress,
  approved: boolean,
  seen: ReloadObservation,
  now: Date,
  settings: ReloadSettings,
): ReloadStep {
  const probe = seen.pendingProbe;
  const heights = probe?.reachable ? { height: probe.height, nodeHeight: probe.nodeHeight, lag: probe.lag } : {};
  const blockers = promotionBlockers(probe, settings.maxLagBlocks);
  const heightsSeen = `height ${probe?.height ?? '?'} of ${probe?.nodeHeight ?? '?'} (lag ${probe?.lag ?? '?'})`;
  const progress = !probe?.reachable
    ? 'status not reachable yet'
    : blockers.length === 0
      ? heightsSeen
      : `${heightsSeen}; not ready: ${blockers.join(', ')}`;
  const within = seen.pendingServersAvailable && blockers.length === 0;
  const { syncedSince: _reset, height: _h, nodeHeight: _n, lag: _l, ...base } = reload;
  const measured = withoutUndefined({ ...base, ...heights });
  if (!within) {
    const next: ReloadProgress = {
      ...measured,
      state: ReloadState.CatchingUp,
      message: `generation ${reload.generation} is catching up: ${progress}`,
    };
    return { state: { ...state, reload: next }, events: [], requeueAfterMs: POLL_MS };
  }
  const since = reload.syncedSince ?? now.toISOString();
  const waited = now.getTime() - Date.parse(since);
  if (waited < settings.stableWindowMs) {
    const next: ReloadProgress = {
      ...measured,
      syncedSince: since,
      state: ReloadState.CatchingUp,
      message: `generation ${reload.generation} is within ${settings.maxLagBlocks} blocks since ${since}: ${progress}`,
    };
    return {
      state: { ...state, reload: next },
      events: [],
      requeueAfterMs: Math.min(POLL_MS, settings.stableWindowMs - waited),
    };
  }
  if (approved && (seen.pendingServersScaled ?? seen.pendingServersAvailable))
    return promote({ ...measured, syncedSince: since }, now, settings);
  if (approved) {
    const message = `generation ${reload.generation} caught up (${progress}); the switch waits for all its servers`;
    const next: ReloadProgress = { ...measured, syncedSince: since, state: ReloadState.CatchingUp, message };
    return { state: { ...state, reload: next }, events: [], requeueAfterMs: POLL_MS };
  }
  const message = `generation ${reload.generation} caught up (${progress}); promote it with \`mdw reload --promote\` (sets spec.reload.autoPromote)`;
  const next: ReloadProgress = { ...measured, syncedSince: since, state: ReloadState.AwaitingPromotion, message };
  const first = reload.state !== ReloadState.AwaitingPromotion;
  return {
    state: { ...state, reload: next },
    events: first ? [{ type: 'Normal', reason: 'AwaitingPromotion', message }] : [],
    requeueAfterMs: POLL_MS,
  };
}

function promote(reload: ReloadProgress, now: Date, settings: ReloadSettings): ReloadStep {
  const retainMs = Math.max(settings.retainPreviousMs, settings.switchDrainMs);
  const previousExpiresAt = new Date(now.getTime() + retainMs).toISOString();
  const message = `stable Services switched from generation ${reload.fromGeneration} to ${reload.generation}; generation ${reload.fromGeneration} is kept until ${previousExpiresAt}`;
  const next: ReloadProgress = { ...reload, state: ReloadState.Promoted, promotedAt: now.toISOString(), message };
  return {
    state: {
      activeGeneration: reload.generation,
      previousGeneration: reload.fromGeneration,
      previousExpiresAt,
      reload: next,
    },
    events: [{ type: 'Normal', reason: 'Promoted', message }],
    requeueAfterMs: Math.min(POLL_MS, retainMs),
  };
}

function retain(
  state: GenerationState,
  reload: ReloadProgress,
  seen: ReloadObservation,
  now: Date,
  settings: ReloadSettings,
): ReloadStep {
  if (seen.rollbackId === reload.id) {
    // switching back to a generation that cannot serve would trade a working one for a broken one
    const blockers = [
      ...(seen.previousServersAvailable === true ? [] : [`its servers are not available`]),
      ...promotionBlockers(seen.previousProbe, settings.maxLagBlocks),
    ];
    if (seen.previousServersAvailable !== true || blockers.length > 0) {
      const message = `rollback to generation ${reload.fromGeneration} waits: ${blockers.join(', ')}`;
      const events: ReloadEvent[] =
        reload.message === message ? [] : [{ type: 'Warning', reason: 'RollbackWaiting', message }];
      return { state: { ...state, reload: { ...reload, message } }, events, requeueAfterMs: POLL_MS };
    }
    // the generation left keeps its servers while clients follow the switch back: it is dropped after the drain
    const drainedAt = new Date(now.getTime() + settings.switchDrainMs).toISOString();
    const draining = { previousGeneration: reload.generation, previousExpiresAt: drainedAt };
    const step = cleanUp(
      { activeGeneration: reload.fromGeneration },
      reload,
      reload.generation,
      'RolledBack',
      {
        type: 'Normal',
        reason: 'RolledBack',
        message: `stable Services switched back to generation ${reload.fromGeneration}; dropping generation ${reload.generation} once its servers drained (${drainedAt})`,
      },
      draining,
    );
    return { ...step, requeueAfterMs: settings.switchDrainMs };
  }
  const left = previousLeftMs(state, now);
  if (left > 0) return { state, events: [], requeueAfterMs: left };
  return cleanUp(state, reload, reload.fromGeneration, 'Completed', {
    type: 'Normal',
    reason: 'RetentionExpired',
    message: `rollback window over; dropping generation ${reload.fromGeneration}`,
  });
}

/**
 * cleanUp retires `generation`: its workloads go, then its schema. `draining` keeps it as the previous generation,
 * servers running, until its time (finishCleanUp): the stable Service selected it until this switch. It asks to be
 * looked at again at once; a caller that drains says when instead.
 */
function cleanUp(
  state: GenerationState,
  reload: ReloadProgress,
  generation: number,
  outcome: ReloadOutcome,
  event: ReloadEvent,
  draining?: Required<Pick<GenerationState, 'previousGeneration' | 'previousExpiresAt'>>,
): ReloadStep {
  const next: ReloadProgress = {
    ...reload,
    state: ReloadState.CleaningUp,
    cleanupGeneration: generation,
    outcome,
    message: event.message,
  };
  return {
    state: { activeGeneration: state.activeGeneration, ...draining, reload: next },
    events: [event],
    requeueAfterMs: 0,
  };
}

/** previousLeftMs is how long the previous generation is kept from `now` (≤ 0: its time is up, or none is set). */
function previousLeftMs(state: GenerationState, now: Date): number {
  return Date.parse(state.previousExpiresAt ?? now.toISOString()) - now.getTime();
}

function finishCleanUp(state: GenerationState, reload: ReloadProgress, job: JobState, now: Date): ReloadStep {
  if (state.previousGeneration !== undefined) {
    // a generation rolled back from drains first: its workloads (and so its drop Job) wait until then
    const left = previousLeftMs(state, now);
    if (left > 0) return { state, events: [], requeueAfterMs: left };
    return { state: { activeGeneration: state.activeGeneration, reload }, events: [], requeueAfterMs: 0 };
  }
  if (job === 'Failed') {
    const message = `dropping generation ${reload.cleanupGeneration ?? '?'} failed; retrying`;
    const events: ReloadEvent[] =
      reload.message === message ? [] : [{ type: 'Warning', reason: 'CleanupFailed', message }];
    return { state: { ...state, reload: { ...reload, message } }, events, requeueAfterMs: POLL_MS };
  }
  if (job !== 'Succeeded') return { state, events: [], requeueAfterMs: POLL_MS };
  const outcome = reload.outcome ?? 'Completed';
  const message = `generation ${reload.cleanupGeneration ?? '?'} dropped; reload ${reload.id} ${outcome === 'RolledBack' ? 'rolled back' : outcome.toLowerCase()}`;
  return terminal(state, reload, outcome, now, {
    type: outcome === 'Failed' || outcome === 'Aborted' ? 'Warning' : 'Normal',
    reason: 'GenerationDropped',
    message,
  });
}

function terminal(
  state: GenerationState,
  reload: ReloadProgress,
  outcome: ReloadOutcome,
  now: Date,
  event: ReloadEvent,
): ReloadStep {
  const { cleanupGeneration: _done, ...rest } = reload;
  return {
    state: { ...state, reload: { ...rest, state: outcome, completedAt: now.toISOString(), message: event.message } },
    events: [event],
  };
}

function withoutUndefined<T extends object>(value: T): T {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as T;
}
