/**
 * @module One reconcile pass of one Middleware: what every step needs, made once at the pass's start (the client that
 * stops when the pass is aborted, the Middleware, the pass's time, its Event recorder), the children a pass past its
 * checks writes, and the one exit that writes the status and, when that changed it, records the Events that say so.
 */
import type { Logger } from '../../base/log.ts';
import type { ResolvedSpec } from '../api/defaults.ts';
import { API_VERSION, KIND, type Middleware, type MiddlewareStatus } from '../api/middleware-types.ts';
import type { ObjectCache } from '../kube/cache.ts';
import type { KubeClient, ObjectRef } from '../kube/client.ts';
import { listAll } from '../kube/list-all.ts';
import { FIELD_MANAGER } from '../specs/meta.ts';
import type { ReloadEvent } from './bluegreen.ts';
import { reportStatusSeries, type MiddlewareSeries } from './middleware-series.ts';
import type { ProbeStreaks } from './probe-streak.ts';
import { listChildren } from './reconcile-children.ts';
import { overrideMessage, type EventRecorder, type HomeEventRecorder, type OperatorHome } from './reconcile-events.ts';
import { ChildSet, type PassContext } from './reconcile-generation.ts';
import { statusPatch } from './reconcile-status.ts';
import { statusChanged } from './status.ts';
import type { StatusProbe } from './status-probe.ts';

/** ReconcileResult asks the work queue to look at the key again after a delay (no error, no backoff). */
export interface ReconcileResult {
  requeueAfterMs?: number;
}

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
    /** The operator's own pod, which takes the Events a Middleware's namespace refuses (none recorded when unset). */
    readonly home?: OperatorHome;
  };
}

/**
 * Pass is one reconcile pass of one Middleware, which every step takes beside its own arguments: the deps with a
 * client that sends nothing once the pass is aborted, and the Middleware read at its start (a status write updates
 * its status and resourceVersion in place).
 */
export interface Pass extends ReconcilerDeps {
  readonly ref: ObjectRef;
  readonly mw: Middleware;
  /** the pass's one reading of the clock: every condition it sets carries it */
  readonly now: Date;
  readonly recordEvent: EventRecorder;
  /** records an Event on the operator's own pod, for what a namespace being deleted cannot take */
  readonly recordHomeEvent: HomeEventRecorder;
  /** the active generations' unanswered status probes in a row, the reconciler's memory between passes */
  readonly probeStreaks: ProbeStreaks;
}

/** ChildPass is a pass past its checks: its spec resolved, its children listed, what it keeps and writes. */
export type ChildPass = Pass & PassContext;

/** withChildren starts the children's part of a pass on `spec`: the operand image is the spec's until one is accepted. */
export async function withChildren(pass: Pass, spec: ResolvedSpec): Promise<ChildPass> {
  const { mw, log, recordEvent } = pass;
  return {
    ...pass,
    fieldManager: pass.config.fieldManager ?? FIELD_MANAGER,
    // someone else changed what the operator sets (kubectl edit, a GitOps tool): put back, and said where people look
    onApplyConflict: async (obj, err) => {
      log.warn(
        { kind: obj.kind, name: obj.metadata.name, err: err.message },
        'apply conflicts with another field manager; forcing',
      );
      await recordEvent(mw, 'Warning', 'ChildOverridden', overrideMessage(obj, err));
    },
    build: { mw, spec, image: spec.image ?? pass.config.image },
    children: await listChildren(pass.kube, mw, pass.cache),
    keep: new ChildSet(),
    writes: 0,
  };
}

/** listMiddlewares lists the Middlewares of the pass's namespace (the informers' cache when there is one): who shares its database. */
export async function listMiddlewares(pass: Pass): Promise<Middleware[]> {
  const namespace = pass.mw.metadata.namespace;
  const cached = pass.cache?.list<Middleware>(API_VERSION, KIND, namespace);
  if (cached !== undefined) return cached;
  return (await listAll<Middleware>(pass.kube, API_VERSION, KIND, namespace)).items;
}

/** PassEnd is how a pass ends: the status it writes, the Events it records when that changed the status, when to look again. */
export interface PassEnd {
  readonly status: MiddlewareStatus;
  readonly events?: readonly ReloadEvent[];
  readonly requeueAfterMs?: number | undefined;
}

/** finish is every pass's one exit: it writes the status and, when that changed it, records the pass's Events. */
export async function finish(pass: Pass, end: PassEnd): Promise<ReconcileResult> {
  if (await writeStatus(pass, end.status))
    for (const event of end.events ?? []) await pass.recordEvent(pass.mw, event.type, event.reason, event.message);
  return end.requeueAfterMs === undefined ? {} : { requeueAfterMs: end.requeueAfterMs };
}

/**
 * writeStatus reports the status' series (also when unchanged: a new leader exports what it did not write), and
 * merge-patches the status when it changed, with the object's resourceVersion as precondition (a former leader's
 * stale write fails with 409); pass.mw then holds the written status.
 */
export async function writeStatus(pass: Pass, next: MiddlewareStatus): Promise<boolean> {
  const { kube, metrics, ref, mw } = pass;
  reportStatusSeries(metrics, ref, next);
  if (!statusChanged(mw.status, next)) return false;
  try {
    const updated = await kube.patchStatus<Middleware>(ref, statusPatch(mw.status, next), mw.metadata.resourceVersion);
    metrics?.statusUpdates?.inc({ result: 'success' });
    mw.metadata.resourceVersion = updated.metadata.resourceVersion;
    mw.status = updated.status;
    return true;
  } catch (err) {
    metrics?.statusUpdates?.inc({ result: 'error' });
    throw err;
  }
}
