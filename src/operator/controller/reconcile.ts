/**
 * @module The level-triggered reconcile of one Middleware: read it, validate, advance the reload
 * state machine (persisting each transition first), converge every child in order (migration →
 * populator → servers → Services and extras), prune the rest, and write the status only when it
 * changed. "Look again later" is a return value; a thrown error means backoff.
 */
import type { Logger } from '../../log.ts';
import { API_VERSION, ConditionType, KIND, type Middleware, type MiddlewareStatus } from '../api/middleware-types.ts';
import { schemaPrefixChange, schemaPrefixOf } from '../api/schema-prefix.ts';
import { listAll } from '../kube/list-all.ts';
import { SCHEMA_TAKEN, checkOperand, isRunning } from './reconcile-operand.ts';
import { collisionMessage, stopWriters } from './reconcile-refusal.ts';
import { collisionOf } from './schema-ownership.ts';
import { resolveSpec, type ResolvedSpec } from '../api/defaults.ts';
import { formatProblems, validateMiddleware } from '../api/validation.ts';
import type { V1Deployment } from '@kubernetes/client-node';
import { withAbort } from '../kube/abortable.ts';
import type { ObjectCache } from '../kube/cache.ts';
import { isKubeError, type KubeClient, type KubeObject, type ObjectRef } from '../kube/client.ts';
import { populatorDeploymentName } from '../specs/populator-deployment.ts';
import { FIELD_MANAGER, type BuildContext } from '../specs/meta.ts';
import {
  advanceReload,
  desiredLayout,
  generationsInPlay,
  type DesiredLayout,
  type ReloadRequest,
  type ReloadSettings,
  type ReloadStep,
} from './bluegreen.ts';
import { deleteChild, isDeploymentAvailable, listChildren } from './reconcile-children.ts';
import {
  addFinalizer,
  finalizeDeletion,
  hasFinalizer,
  knownGenerations,
  removeFinalizer,
} from './reconcile-deletion.ts';
import { reportStatusSeries, type MiddlewareSeries } from './middleware-series.ts';
import { conditionEvents } from './reconcile-condition-events.ts';
import { createEventRecorder, overrideMessage, type EventRecorder } from './reconcile-events.ts';
import {
  ChildSet,
  liveChildNamed,
  reconcileDropJob,
  reconcileGeneration,
  reconcileReloadJob,
  type GenerationReport,
  type PassContext,
} from './reconcile-generation.ts';
import { reconcileExtras, reconcileIdentity, reconcileServices } from './reconcile-instance.ts';
import { adoptGeneration, keepDatabaseCheck, readDatabaseCheck, type AdoptionStep } from './reconcile-database.ts';
import { buildDatabaseUsageJob } from '../specs/jobs.ts';
import { observeReload, stableTarget } from './reconcile-observe.ts';
import {
  checkingDatabaseStatus,
  generationStateOf,
  invalidStatus,
  pausedStatus,
  reconciledStatus,
  statusPatch,
  withConditions,
  withGenerationState,
} from './reconcile-status.ts';
import { setConditions, statusChanged, type ConditionUpdate } from './status.ts';
import type { StatusProbe } from './status-probe.ts';

/** ReconcileResult asks the work queue to look at the key again after a delay (no error, no backoff). */
export interface ReconcileResult {
  requeueAfterMs?: number;
}

/**
 * Reconciler reconciles the Middleware named by a `namespace/name` key. Once `signal` aborts (this replica lost its
 * Lease, or stops) no further write is sent: the pass ends with the signal's reason, and no failure is reported.
 * With `cache` (the running operator's informers) the children are read from it; the Middleware itself is always
 * read from the API server, so a pass never acts on a status older than the last one written.
 */
export type Reconciler = (key: string, signal?: AbortSignal, cache?: ObjectCache) => Promise<ReconcileResult>;

/** ReconcilerMetrics: optional series the reconciler feeds (the runtime counts reconciles itself). */
export interface ReconcilerMetrics extends MiddlewareSeries {
  /** Status writes by result (`success` | `error`). */
  readonly statusUpdates?: { inc(labels: { result: string }): void };
}

/** ReconcilerDeps is everything the reconciler uses: no globals, an injectable clock and status probe. */
export interface ReconcilerDeps {
  readonly kube: KubeClient;
  readonly log: Logger;
  readonly metrics?: ReconcilerMetrics;
  readonly probe: StatusProbe;
  readonly clock: () => Date;
  /** the informers' caches of the children, when the runtime has them (else children are listed per pass). */
  readonly cache?: ObjectCache;
  readonly config: {
    /** The image operands run when spec.image is unset (the operator's own image). */
    readonly image: string;
    /** Server-side-apply field manager (default: mdw-operator). */
    readonly fieldManager?: string;
  };
}

const WAIT_MS = 15_000;
const DATABASE_RETRY_MS = 60_000;
const NOT_SYNCED_MS = 30_000;

/** createReconciler returns the reconcile function the work queue calls, one key at a time. */
export function createReconciler(deps: ReconcilerDeps): Reconciler {
  const log = deps.log.child({ component: 'reconcile' });
  return async function reconcile(key, signal, cache) {
    const kube = signal === undefined ? deps.kube : withAbort(deps.kube, signal);
    const pass: ReconcilerDeps = cache === undefined ? { ...deps, log, kube } : { ...deps, log, kube, cache };
    const recordEvent = createEventRecorder(pass.kube, deps.clock, (err) => {
      if (!signal?.aborted) log.warn({ err }, 'event not recorded');
    });
    const ref = middlewareRef(key);
    const mw = await pass.kube.get<Middleware>(ref);
    if (mw === undefined) {
      reportStatusSeries(deps.metrics, ref, undefined);
      return {};
    }
    try {
      return await reconcileMiddleware(pass, recordEvent, ref, mw);
    } catch (err) {
      // A stale resourceVersion is ordinary optimistic concurrency (or a lost Lease): retry quietly. An aborted pass
      // belongs to a replica that no longer leads: it reports nothing.
      if (!isKubeError(err, 409) && signal?.aborted !== true) await reportFailure(pass, recordEvent, ref, mw, err);
      throw err;
    }
  };
}

/** middlewareRef turns a `namespace/name` key into the Middleware's ref. */
export function middlewareRef(key: string): ObjectRef {
  const slash = key.indexOf('/');
  return slash < 0
    ? { apiVersion: API_VERSION, kind: KIND, name: key }
    : { apiVersion: API_VERSION, kind: KIND, namespace: key.slice(0, slash), name: key.slice(slash + 1) };
}

async function reconcileMiddleware(
  deps: ReconcilerDeps,
  recordEvent: EventRecorder,
  ref: ObjectRef,
  initial: Middleware,
): Promise<ReconcileResult> {
  const { kube, clock } = deps;
  let mw = initial;
  const now = clock();
  const problems = validateMiddleware(mw);
  if (mw.metadata.deletionTimestamp !== undefined)
    return reconcileDeletion(deps, recordEvent, ref, mw, problems.length === 0);
  if (problems.length > 0) {
    const message = formatProblems(problems);
    if (await writeStatus(deps, ref, mw, invalidStatus(mw, message, now)))
      await recordEvent(mw, 'Warning', 'InvalidSpec', message);
    return {};
  }
  const prefixChange = schemaPrefixChange(mw);
  if (prefixChange !== undefined) {
    if (await writeStatus(deps, ref, mw, invalidStatus(mw, prefixChange, now)))
      await recordEvent(mw, 'Warning', 'InvalidSpec', prefixChange);
    return {};
  }
  if (!hasFinalizer(mw)) mw = await addFinalizer(kube, ref, mw);
  const spec = resolveSpec(mw.spec, schemaPrefixOf(mw));
  if (spec.paused) {
    if (await writeStatus(deps, ref, mw, pausedStatus(mw, now)))
      await recordEvent(mw, 'Normal', 'ReconciliationPaused', 'spec.paused is true: children are left as they are');
    return {};
  }
  const all = await listMiddlewares(deps, mw);
  const rival = collisionOf(mw, all);
  if (rival !== undefined) return refuseCollision(deps, recordEvent, ref, mw, rival, now);
  const pass = await startPass(deps, recordEvent, mw, spec);
  const adoption = await adoptGeneration(pass, all);
  if (adoption.kind === 'waiting') {
    if (await writeStatus(deps, ref, mw, checkingDatabaseStatus(mw, adoption.message, adoption.failed, now)))
      if (adoption.failed) await recordEvent(mw, 'Warning', 'DatabaseCheckFailed', adoption.message);
    return { requeueAfterMs: adoption.failed ? DATABASE_RETRY_MS : WAIT_MS };
  }
  const step = await advanceAndPersist(deps, recordEvent, ref, mw, pass, spec, now, adoption);
  // the state is recorded, nothing acted on yet: the children roll only an image the operator may drive
  const report = adoption.kind === 'adopted' ? adoption.report : undefined;
  const operand = await checkOperand(pass, mw.status, generationsInPlay(step.state), all, report);
  if (operand.event !== undefined)
    await recordEvent(mw, operand.event.type, operand.event.reason, operand.event.message);
  if (operand.image === undefined)
    return holdUnaccepted(deps, recordEvent, ref, mw, pass, operand.condition, now, operand.requeueAfterMs);
  pass.build = { ...pass.build, image: operand.image };
  const active = await convergeChildren(pass, desiredLayout(step.state), recordEvent);
  const activeProbe =
    (active.server?.status?.availableReplicas ?? 0) > 0 ? await deps.probe(stableTarget(pass)) : undefined;
  const pending = step.state.pendingGeneration;
  const pendingPopulator =
    pending === undefined
      ? undefined
      : liveChildNamed<V1Deployment & KubeObject>(pass, 'Deployment', populatorDeploymentName(pass.build, pending));
  const next = {
    ...reconciledStatus({
      mw,
      state: step.state,
      active,
      activeProbe,
      pendingPopulator,
      operand: operand.condition,
      now,
    }),
    schemaPrefix: spec.database.schemaPrefix,
    ...(operand.operand === undefined ? {} : { operand: operand.operand }),
  };
  const previous = mw.status;
  if (await writeStatus(deps, ref, mw, next)) {
    for (const event of conditionEvents(previous?.conditions, next.conditions))
      await recordEvent(mw, event.type, event.reason, event.message);
  }
  deps.log.debug({ key: `${ref.namespace}/${ref.name}`, writes: pass.writes, phase: next.phase }, 'reconciled');
  return requeueOf(
    step.requeueAfterMs ?? operand.requeueAfterMs,
    isDeploymentAvailable(active.server) && active.migration === 'Succeeded',
    activeProbe?.synced === true,
  );
}

/** advanceAndPersist makes the reload state machine's one transition and writes it before anything acts on it, so a crash never runs ahead of the status. */
async function advanceAndPersist(
  deps: ReconcilerDeps,
  recordEvent: EventRecorder,
  ref: ObjectRef,
  mw: Middleware,
  pass: PassContext,
  spec: ResolvedSpec,
  now: Date,
  adoption: AdoptionStep,
): Promise<ReloadStep> {
  const adopted = adoption.kind === 'adopted' ? adoption.generation : undefined;
  const before = generationStateOf(mw.status, adopted);
  const seen = await observeReload(pass, before, deps.probe);
  const step = advanceReload(before, reloadRequestOf(spec), seen, now, reloadSettingsOf(spec));
  // the prefix is recorded with the first generation: from then on it names that generation's schema
  const schemaPrefix = spec.database.schemaPrefix;
  if (adopted !== undefined || statusChanged(before, step.state))
    await writeStatus(deps, ref, mw, { ...withGenerationState(mw.status, step.state), schemaPrefix });
  if (adoption.kind === 'adopted' && adoption.message !== undefined)
    await recordEvent(mw, 'Normal', 'GenerationAdopted', adoption.message);
  for (const event of step.events) await recordEvent(mw, event.type, event.reason, event.message);
  return step;
}

/** convergeChildren applies what the layout asks for, in order, prunes the rest, and reports on the active generation. */
async function convergeChildren(
  pass: PassContext,
  layout: DesiredLayout,
  recordEvent: EventRecorder,
): Promise<GenerationReport> {
  const mw = pass.build.mw;
  await reconcileIdentity(pass);
  const reports: GenerationReport[] = [];
  for (const plan of layout.generations) reports.push(await reconcileGeneration(pass, plan));
  const services = await reconcileServices(pass, layout);
  if (services.switched)
    await recordEvent(
      mw,
      'Normal',
      'Switched',
      `the stable Services now select generation ${layout.stableGeneration} (was ${services.selectedBefore})`,
    );
  for (const missing of await reconcileExtras(pass))
    await recordEvent(mw, 'Warning', 'ServiceMonitorNotInstalled', missing);
  if (layout.reloadJob !== undefined) await reconcileReloadJob(pass, layout.reloadJob);
  if (layout.cleanupGeneration !== undefined) await reconcileDropJob(pass, layout.cleanupGeneration);
  if (layout.databaseCheck !== undefined) {
    const job = buildDatabaseUsageJob(pass.build, layout.stableGeneration, layout.databaseCheck.id);
    await keepDatabaseCheck(pass, job, await readDatabaseCheck(pass, job));
  }
  await prune(pass);
  if (pass.writes > 0)
    await recordEvent(mw, 'Normal', 'ChildrenApplied', `${pass.writes} child objects created, updated or deleted`);
  // desiredLayout always lists the active generation first.
  return reports[0]!;
}

async function reconcileDeletion(
  deps: ReconcilerDeps,
  recordEvent: EventRecorder,
  ref: ObjectRef,
  mw: Middleware,
  valid: boolean,
): Promise<ReconcileResult> {
  if (!hasFinalizer(mw)) return {};
  if (!valid) {
    // Without a valid spec no drop Job can be built; with nothing to drop the finalizer may simply go.
    if (knownGenerations(mw, { children: await listChildren(deps.kube, mw, deps.cache) }).length === 0) {
      await removeFinalizer(deps.kube, ref, mw);
      return {};
    }
    await recordEvent(
      mw,
      'Warning',
      'CleanupBlocked',
      'the spec is invalid, so the schemas cannot be dropped: fix the spec, or remove the finalizer to keep the schemas',
    );
    return { requeueAfterMs: 60_000 };
  }
  const pass = await startPass(deps, recordEvent, mw, resolveSpec(mw.spec, schemaPrefixOf(mw)));
  // the clean-up's Jobs run the image the operator accepted, not a spec image it refused
  const accepted = mw.status?.operand?.image;
  if (accepted !== undefined) pass.build = { ...pass.build, image: accepted };
  const result = await finalizeDeletion(pass, ref, mw, recordEvent, await listMiddlewares(deps, mw));
  return result.done ? {} : { requeueAfterMs: result.requeueAfterMs ?? WAIT_MS };
}

async function startPass(
  deps: ReconcilerDeps,
  recordEvent: EventRecorder,
  mw: Middleware,
  spec: ResolvedSpec,
): Promise<PassContext> {
  const build: BuildContext = { mw, spec, image: spec.image ?? deps.config.image };
  return {
    kube: deps.kube,
    fieldManager: fieldManagerOf(deps),
    // someone else changed what the operator sets (kubectl edit, a GitOps tool): put back, and said where people look
    onApplyConflict: async (obj, err) => {
      deps.log.warn(
        { kind: obj.kind, name: obj.metadata.name, err: err.message },
        'apply conflicts with another field manager; forcing',
      );
      await recordEvent(mw, 'Warning', 'ChildOverridden', overrideMessage(obj, err));
    },
    build,
    children: await listChildren(deps.kube, mw, deps.cache),
    keep: new ChildSet(),
    writes: 0,
  };
}

/**
 * holdUnaccepted writes the status of a Middleware without an accepted image (nothing is applied): checking,
 * refused, or running on another Middleware's schema (its writers stop).
 */
async function holdUnaccepted(
  deps: ReconcilerDeps,
  recordEvent: EventRecorder,
  ref: ObjectRef,
  mw: Middleware,
  pass: PassContext,
  condition: ConditionUpdate,
  now: Date,
  requeueAfterMs?: number,
): Promise<ReconcileResult> {
  // no image accepted yet, so nothing is applied: Reconciled says why (a refused image is the spec's problem)
  const { status, reason } = condition;
  const reconciled = {
    type: ConditionType.Reconciled,
    status: 'False' as const,
    reason:
      status !== 'False'
        ? 'CheckingOperand'
        : reason === 'OperandCheckFailed'
          ? 'DatabaseCheckFailed'
          : 'OperandRefused',
    message: condition.message,
  };
  if (reason === SCHEMA_TAKEN) {
    // it runs on another Middleware's schema (the earlier operator let it adopt one): its writers stop
    const stopped = await stopWriters(deps.kube, pass.children);
    if (stopped > 0)
      await recordEvent(mw, 'Warning', 'StoppingWorkloads', `deleted ${stopped} populators and schema Jobs`);
    const conflict = { ...reconciled, reason: 'SchemaConflict' };
    await writeStatus(deps, ref, mw, withConditions(mw, [condition, conflict], now));
    return { requeueAfterMs: DATABASE_RETRY_MS };
  }
  // workloads that ran before the check (an operator upgrade) keep serving, and the phase keeps saying so
  const updates = isRunning(pass) ? [condition] : [condition, reconciled];
  await writeStatus(deps, ref, mw, withConditions(mw, updates, now));
  return { requeueAfterMs: requeueAfterMs ?? DATABASE_RETRY_MS };
}

/** refuseCollision refuses a Middleware whose schemas are another's: its writers stop, its status and an Event say why. */
async function refuseCollision(
  deps: ReconcilerDeps,
  recordEvent: EventRecorder,
  ref: ObjectRef,
  mw: Middleware,
  rival: Middleware,
  now: Date,
): Promise<ReconcileResult> {
  const message = collisionMessage(mw, rival);
  const stopped = await stopWriters(deps.kube, await listChildren(deps.kube, mw, deps.cache));
  if (stopped > 0)
    await recordEvent(mw, 'Warning', 'StoppingWorkloads', `deleted ${stopped} populators and schema Jobs: ${message}`);
  const update = { type: ConditionType.Reconciled, status: 'False' as const, reason: 'SchemaConflict', message };
  if (await writeStatus(deps, ref, mw, withConditions(mw, [update], now)))
    await recordEvent(mw, 'Warning', 'SchemaConflict', message);
  return { requeueAfterMs: DATABASE_RETRY_MS };
}

/** listMiddlewares lists the Middlewares of mw's namespace (the informers' cache when there is one): who shares its database. */
async function listMiddlewares(deps: ReconcilerDeps, mw: Middleware): Promise<Middleware[]> {
  const namespace = mw.metadata.namespace;
  const cached = deps.cache?.list<Middleware>(API_VERSION, KIND, namespace);
  if (cached !== undefined) return cached;
  return (await listAll<Middleware>(deps.kube, API_VERSION, KIND, namespace)).items;
}

async function prune(pass: PassContext): Promise<void> {
  for (const child of pass.children) {
    if (!pass.keep.wants(child) && (await deleteChild(pass.kube, child))) pass.writes++;
  }
}

/**
 * writeStatus reports the status' series (also when unchanged: a new leader exports what it did not write), and
 * merge-patches the status when it changed, with the object's resourceVersion as precondition (a former leader's
 * stale write fails with 409); mw then holds the written status.
 */
async function writeStatus(
  deps: ReconcilerDeps,
  ref: ObjectRef,
  mw: Middleware,
  next: MiddlewareStatus,
): Promise<boolean> {
  reportStatusSeries(deps.metrics, ref, next);
  if (!statusChanged(mw.status, next)) return false;
  try {
    const updated = await deps.kube.patchStatus<Middleware>(
      ref,
      statusPatch(mw.status, next),
      mw.metadata.resourceVersion,
    );
    deps.metrics?.statusUpdates?.inc({ result: 'success' });
    mw.metadata.resourceVersion = updated.metadata.resourceVersion;
    mw.status = updated.status;
    return true;
  } catch (err) {
    deps.metrics?.statusUpdates?.inc({ result: 'error' });
    throw err;
  }
}

async function reportFailure(
  deps: ReconcilerDeps,
  recordEvent: EventRecorder,
  ref: ObjectRef,
  mw: Middleware,
  err: unknown,
): Promise<void> {
  const message = describeError(err);
  deps.log.warn({ err, name: mw.metadata.name, namespace: mw.metadata.namespace }, 'reconcile failed');
  await recordEvent(mw, 'Warning', 'ReconcileError', message);
  try {
    const fresh = await deps.kube.get<Middleware>(ref);
    if (fresh === undefined) return;
    const update = { type: 'Reconciled' as const, status: 'False' as const, reason: 'ReconcileError', message };
    const conditions = setConditions(fresh.status?.conditions, [update], {
      now: deps.clock(),
      observedGeneration: fresh.metadata.generation ?? 0,
    });
    await writeStatus(deps, ref, fresh, { ...fresh.status, conditions });
  } catch (statusErr) {
    deps.log.warn({ err: statusErr }, 'failure not written to status');
  }
}

function reloadRequestOf(spec: ResolvedSpec): ReloadRequest | undefined {
  const reload = spec.reload;
  return (
    reload && { id: reload.id, strategy: reload.strategy, heights: reload.heights, autoPromote: reload.autoPromote }
  );
}

function reloadSettingsOf(spec: ResolvedSpec): ReloadSettings {
  return {
    maxLagBlocks: spec.promotion.syncedWithinBlocks,
    stableWindowMs: spec.promotion.stableWindowSeconds * 1000,
    retainPreviousMs: (spec.reload?.retainPreviousSeconds ?? 0) * 1000,
    deadlineMs: (spec.reload?.deadlineSeconds ?? 0) * 1000,
    storageCapacityBytes: spec.database.storageCapacityBytes,
  };
}

function requeueOf(machine: number | undefined, available: boolean, synced: boolean): ReconcileResult {
  const waits = [machine, available ? undefined : WAIT_MS, synced ? undefined : NOT_SYNCED_MS].filter(
    (n): n is number => n !== undefined,
  );
  return waits.length === 0 ? {} : { requeueAfterMs: Math.min(...waits) };
}

function fieldManagerOf(deps: ReconcilerDeps): string {
  return deps.config.fieldManager ?? FIELD_MANAGER;
}

function describeError(err: unknown): string {
  if (!(err instanceof Error)) return String(err);
  const cause = err.cause instanceof Error ? `: ${err.cause.message}` : '';
  return `${err.message}${cause}`;
}
