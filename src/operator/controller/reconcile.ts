/**
 * @module The level-triggered reconcile of one Middleware: read it, validate, advance the reload
 * state machine (persisting each transition first), converge every child in order (migration →
 * populator → servers → Services and extras), prune the rest, and write the status only when it
 * changed. Each pass is one context (reconcile-pass.ts) that every step takes, and ends at one exit that writes
 * the status and its Events. "Look again later" is a return value; a thrown error means backoff.
 */
import { resolveSpec } from '../api/defaults.ts';
import { API_VERSION, KIND, type Middleware } from '../api/middleware-types.ts';
import { schemaPrefixChange, schemaPrefixOf } from '../api/schema-prefix.ts';
import { formatProblems, validateMiddleware } from '../api/validation.ts';
import { withAbort } from '../kube/abortable.ts';
import type { ObjectCache } from '../kube/cache.ts';
import { isKubeError, type ObjectRef } from '../kube/client.ts';
import { generationsInPlay } from './bluegreen.ts';
import { ProbeStreaks } from './probe-streak.ts';
import { advanceAndPersist } from './reconcile-advance.ts';
import { converge } from './reconcile-converge.ts';
import { adoptGeneration } from './reconcile-database.ts';
import { addFinalizer, hasFinalizer, reconcileDeletion } from './reconcile-deletion.ts';
import { createEventRecorder, createHomeEventRecorder } from './reconcile-events.ts';
import { checkOperand, holdUnaccepted } from './reconcile-operand.ts';
import {
  finish,
  listMiddlewares,
  withChildren,
  writeStatus,
  type Pass,
  type ReconcilerDeps,
  type ReconcileResult,
} from './reconcile-pass.ts';
import { reconcileIdentity } from './reconcile-instance.ts';
import { refuseCollision } from './reconcile-refusal.ts';
import { checkingDatabaseStatus, invalidStatus, pausedStatus } from './reconcile-status.ts';
import { reportStatusSeries } from './middleware-series.ts';
import { collisionOf } from './schema-ownership.ts';
import { setConditions } from './status.ts';

// the queue's side of a pass's end, named where the reconciler is
export type { ReconcileResult } from './reconcile-pass.ts';

/**
 * Reconciler reconciles the Middleware named by a `namespace/name` key. Once `signal` aborts (this replica lost its
 * Lease, or stops) no further write is sent: the pass ends with the signal's reason, and no failure is reported.
 * With `cache` (the running operator's informers) the children are read from it; the Middleware itself is always
 * read from the API server, so a pass never acts on a status older than the last one written.
 */
export type Reconciler = (key: string, signal?: AbortSignal, cache?: ObjectCache) => Promise<ReconcileResult>;

const WAIT_MS = 15_000;
const DATABASE_RETRY_MS = 60_000;

/** createReconciler returns the reconcile function the work queue calls, one key at a time. */
export function createReconciler(deps: ReconcilerDeps): Reconciler {
  const log = deps.log.child({ component: 'reconcile' });
  const probeStreaks = new ProbeStreaks();
  return async function reconcile(key, signal, cache) {
    const kube = signal === undefined ? deps.kube : withAbort(deps.kube, signal);
    const onEventError = (err: unknown) => {
      if (!signal?.aborted) log.warn({ err }, 'event not recorded');
    };
    const recordEvent = createEventRecorder(kube, deps.clock, onEventError);
    const recordHomeEvent = createHomeEventRecorder(kube, deps.clock, deps.config.home, onEventError);
    const ref = middlewareRef(key);
    const mw = await kube.get<Middleware>(ref);
    if (mw === undefined) {
      probeStreaks.forget(ref);
      reportStatusSeries(deps.metrics, ref, undefined);
      return {};
    }
    const pass: Pass = {
      ...deps,
      log,
      kube,
      ...(cache === undefined ? {} : { cache }),
      ref,
      mw,
      recordEvent,
      recordHomeEvent,
      probeStreaks,
      now: deps.clock(),
    };
    try {
      return await reconcileMiddleware(pass);
    } catch (err) {
      // A stale resourceVersion is ordinary optimistic concurrency (or a lost Lease): retry quietly. An aborted pass
      // belongs to a replica that no longer leads: it reports nothing.
      if (!isKubeError(err, 409) && signal?.aborted !== true) await reportFailure(pass, err);
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

/** reconcileMiddleware runs the steps of a pass in order; the first that ends it gives the status its exit writes. */
async function reconcileMiddleware(start: Pass): Promise<ReconcileResult> {
  let pass = start;
  const problems = validateMiddleware(pass.mw);
  if (pass.mw.metadata.deletionTimestamp !== undefined) return reconcileDeletion(pass, problems.length === 0);
  const invalid = problems.length > 0 ? formatProblems(problems) : schemaPrefixChange(pass.mw);
  if (invalid !== undefined)
    return finish(pass, {
      status: invalidStatus(pass.mw, invalid, pass.now),
      events: [{ type: 'Warning', reason: 'InvalidSpec', message: invalid }],
    });
  if (!hasFinalizer(pass.mw)) pass = { ...pass, mw: await addFinalizer(pass.kube, pass.ref, pass.mw) };
  const spec = resolveSpec(pass.mw.spec, schemaPrefixOf(pass.mw));
  if (spec.paused)
    return finish(pass, {
      status: pausedStatus(pass.mw, pass.now),
      events: [{ type: 'Normal', reason: 'ReconciliationPaused', message: PAUSED }],
    });
  const all = await listMiddlewares(pass);
  const rival = collisionOf(pass.mw, all);
  if (rival !== undefined) return finish(pass, await refuseCollision(pass, rival));
  const child = await withChildren(pass, spec);
  // every pod the operator makes runs as this ServiceAccount, and the API server refuses a pod whose account is
  // missing: it comes before the first Job (the database check, the operand check)
  await reconcileIdentity(child);
  const adoption = await adoptGeneration(child, all);
  if (adoption.kind === 'waiting') {
    const { message, failed } = adoption;
    return finish(pass, {
      status: checkingDatabaseStatus(pass.mw, message, failed, pass.now),
      events: failed ? [{ type: 'Warning', reason: 'DatabaseCheckFailed', message }] : [],
      requeueAfterMs: failed ? DATABASE_RETRY_MS : WAIT_MS,
    });
  }
  const step = await advanceAndPersist(child, adoption);
  // the state is recorded, nothing acted on yet: the children roll only an image the operator may drive
  const report = adoption.kind === 'adopted' ? adoption.report : undefined;
  const operand = await checkOperand(child, pass.mw.status, generationsInPlay(step.state), all, report);
  if (operand.event !== undefined)
    await pass.recordEvent(pass.mw, operand.event.type, operand.event.reason, operand.event.message);
  if (operand.image === undefined) return finish(pass, await holdUnaccepted(child, operand));
  child.build = { ...child.build, image: operand.image };
  return finish(pass, await converge(child, step, operand));
}

const PAUSED = 'spec.paused is true: children are left as they are';

/** reportFailure tells of a pass that threw: a Warning Event, and Reconciled=False on the Middleware read afresh. */
async function reportFailure(pass: Pass, err: unknown): Promise<void> {
  const message = describeError(err);
  const { log, mw } = pass;
  log.warn({ err, name: mw.metadata.name, namespace: mw.metadata.namespace }, 'reconcile failed');
  await pass.recordEvent(mw, 'Warning', 'ReconcileError', message);
  try {
    const fresh = await pass.kube.get<Middleware>(pass.ref);
    if (fresh === undefined) return;
    const update = { type: 'Reconciled' as const, status: 'False' as const, reason: 'ReconcileError', message };
    const conditions = setConditions(fresh.status?.conditions, [update], {
      now: pass.clock(),
      observedGeneration: fresh.metadata.generation ?? 0,
    });
    await writeStatus({ ...pass, mw: fresh }, { ...fresh.status, conditions });
  } catch (statusErr) {
    log.warn({ err: statusErr }, 'failure not written to status');
  }
}

function describeError(err: unknown): string {
  if (!(err instanceof Error)) return String(err);
  const cause = err.cause instanceof Error ? `: ${err.cause.message}` : '';
  return `${err.message}${cause}`;
}
