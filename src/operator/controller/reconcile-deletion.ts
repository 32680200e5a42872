/**
 * @module Deletion of a Middleware: Kubernetes garbage-collects the children, but the schemas of its
 * generations live in PostgreSQL, so a finalizer holds the object until drop Jobs removed them
 * (reclaimPolicy Delete), or only until it has said that it keeps them (Retain, the default).
 */
import type { V1Pod } from '@kubernetes/client-node';
import { resolveSpec } from '../api/defaults.ts';
import type { Middleware } from '../api/middleware-types.ts';
import { GROUP } from '../api/middleware-types.ts';
import { ReclaimPolicy } from '../api/spec-values.ts';
import { schemaPrefixOf } from '../api/schema-prefix.ts';
import { isKubeError, type KubeClient, type KubeObject, type ObjectRef } from '../kube/client.ts';
import { listAll } from '../kube/list-all.ts';
import { Component, LABEL_COMPONENT, formatSelector, schemaName } from '../specs/meta.ts';
import type { JobState } from './bluegreen.ts';
import { JOB_NAME_LABEL, deleteChild, generationOf, listChildren } from './reconcile-children.ts';
import { reconcileDropJob, writeChild, type PassContext } from './reconcile-generation.ts';
import { readDatabaseCheck } from './reconcile-database.ts';
import { listMiddlewares, withChildren, type ChildPass, type Pass, type ReconcileResult } from './reconcile-pass.ts';
import { ownershipOf } from './schema-ownership.ts';
import { buildDatabaseUsageJob } from '../specs/jobs.ts';

/** FINALIZER guards the generations' schemas: removed only after every one of them was dropped. */
export const FINALIZER = `${GROUP}/drop-generations`;

const WAIT_MS = 5000;
const RETRY_MS = 60_000;
/** KEPT_JOBS: the Jobs of the deletion itself (the drops, and the database check before them). */
const KEPT_JOBS: ReadonlySet<string> = new Set([Component.dropSchema, Component.databaseUsage]);

/** hasFinalizer is true when the Middleware carries the operator's finalizer. */
export function hasFinalizer(mw: Middleware): boolean {
  return (mw.metadata.finalizers ?? []).includes(FINALIZER);
}

/** addFinalizer adds the finalizer (a precondition on resourceVersion keeps other finalizers intact); returns the updated object. */
export async function addFinalizer(kube: KubeClient, ref: ObjectRef, mw: Middleware): Promise<Middleware> {
  const finalizers = [...(mw.metadata.finalizers ?? []), FINALIZER];
  return kube.patchMerge<Middleware>(ref, { metadata: { finalizers, resourceVersion: mw.metadata.resourceVersion } });
}

/** removeFinalizer drops the operator's finalizer, keeping any other (resourceVersion precondition). */
export async function removeFinalizer(kube: KubeClient, ref: ObjectRef, mw: Middleware): Promise<void> {
  const finalizers = (mw.metadata.finalizers ?? []).filter((f) => f !== FINALIZER);
  await kube.patchMerge(ref, { metadata: { finalizers, resourceVersion: mw.metadata.resourceVersion } });
}

/** knownGenerations lists every generation whose schema may exist: from the status and from live children. */
export function knownGenerations(mw: Middleware, pass: Pick<PassContext, 'children'>): number[] {
  const s = mw.status;
  const candidates = [
    s?.activeGeneration,
    s?.pendingGeneration,
    s?.previousGeneration,
    s?.reload?.generation,
    s?.reload?.cleanupGeneration,
    ...pass.children.map(generationOf),
  ];
  return [...new Set(candidates.filter((g): g is number => g !== undefined))].sort((a, b) => a - b);
}

/**
 * reconcileDeletion holds a deleted Middleware (its finalizer) until its schemas are dropped, or said to be kept. Its
 * clean-up's Jobs run the image the operator accepted, not a spec image it refused.
 */
export async function reconcileDeletion(pass: Pass, valid: boolean): Promise<ReconcileResult> {
  const { kube, ref, mw } = pass;
  if (!hasFinalizer(mw)) return {};
  if (!valid) {
    // Without a valid spec no drop Job can be built; with nothing to drop the finalizer may simply go.
    if (knownGenerations(mw, { children: await listChildren(kube, mw, pass.cache) }).length === 0) {
      await removeFinalizer(kube, ref, mw);
      return {};
    }
    await pass.recordEvent(
      mw,
      'Warning',
      'CleanupBlocked',
      'the spec is invalid, so the schemas cannot be dropped: fix the spec, or remove the finalizer to keep the schemas',
    );
    return { requeueAfterMs: RETRY_MS };
  }
  const child = await withChildren(pass, resolveSpec(mw.spec, schemaPrefixOf(mw)));
  const accepted = mw.status?.operand?.image;
  if (accepted !== undefined) child.build = { ...child.build, image: accepted };
  return finalizeDeletion(child, await listMiddlewares(pass));
}

/**
 * finalizeDeletion stops every workload, then drops each known generation's schema with a Job,
 * and removes the finalizer once all drops succeeded. Every step is idempotent: a crash anywhere
 * repeats only what is not done yet.
 */
async function finalizeDeletion(pass: ChildPass, all: readonly Middleware[]): Promise<ReconcileResult> {
  const { ref, mw, recordEvent } = pass;
  const namespace = mw.metadata.namespace ?? 'default';
  const terminating = await isTerminating(pass.kube, namespace);
  if (pass.build.spec.reclaimPolicy === ReclaimPolicy.Retain)
    return retain(pass, 'reclaimPolicy is Retain', 'Normal', terminating);
  const blocker = terminating ? `namespace ${namespace} is being deleted` : await dropBlocker(pass);
  if (blocker !== undefined) return retain(pass, blocker, 'Warning', terminating);
  const workloads = pass.children.filter(
    (c) => c.kind === 'Deployment' || (c.kind === 'Job' && !KEPT_JOBS.has(c.metadata.labels?.[LABEL_COMPONENT] ?? '')),
  );
  let deleted = 0;
  for (const child of workloads) if (await deleteChild(pass.kube, child)) deleted++;
  pass.writes += deleted;
  if (workloads.length > 0) {
    if (deleted > 0)
      await recordEvent(mw, 'Normal', 'StoppingWorkloads', `deleting ${deleted} workloads before dropping the schemas`);
    return { requeueAfterMs: WAIT_MS };
  }
  const known = knownGenerations(mw, pass);
  const states: JobState[] = [];
  const generations: number[] = [];
  const theirs: string[] = [];
  try {
    const owned = known.length === 0 ? { mine: [], theirs: [] } : await ownedGenerations(pass, known, all);
    if (owned === undefined) return { requeueAfterMs: WAIT_MS };
    if ('failed' in owned) {
      await recordEvent(mw, 'Warning', 'DatabaseCheckFailed', owned.failed);
      return { requeueAfterMs: RETRY_MS };
    }
    generations.push(...owned.mine);
    theirs.push(...owned.theirs);
    for (const generation of generations) states.push(await reconcileDropJob(pass, generation));
  } catch (err) {
    // A namespace being deleted refuses new objects (403): the drop Jobs can never run there.
    if (!isKubeError(err, 403)) throw err;
    const why = `a Job of the clean-up was refused (${err.message})`;
    return retain(pass, why, 'Warning', await isTerminating(pass.kube, namespace));
  }
  if (states.some((s) => s !== 'Succeeded')) {
    if (pass.writes > 0)
      await recordEvent(
        mw,
        'Normal',
        'DroppingGenerations',
        `dropping the schemas of generations ${generations.join(', ')}`,
      );
    return { requeueAfterMs: WAIT_MS };
  }
  await removeFinalizer(pass.kube, ref, mw);
  pass.writes++;
  const dropped = generations.length > 0 ? `dropped generations ${generations.join(', ')}` : 'nothing to drop';
  await recordEvent(mw, 'Normal', 'Finalized', dropped);
  if (theirs.length > 0) {
    pass.log.info({ namespace, name: mw.metadata.name, schemas: theirs }, "schemas retained: not this Middleware's");
    await recordEvent(mw, 'Warning', 'SchemasRetained', `not this Middleware's, so not dropped: ${theirs.join(', ')}`);
  }
  return {};
}

/** RECLAIM: the purpose of the usage Job that reads, before any drop, which schemas this Middleware owns. */
const RECLAIM = 'reclaim';

/**
 * ownedGenerations splits the known generations into those whose schema this Middleware owns (or that does not
 * exist: its drop is a no-op) and the others, described, from a `mdw db usage` Job; undefined while it runs.
 */
async function ownedGenerations(
  pass: PassContext,
  known: readonly number[],
  all: readonly Middleware[],
): Promise<{ mine: number[]; theirs: string[] } | { failed: string } | undefined> {
  const job = buildDatabaseUsageJob(pass.build, known[0] ?? 1, RECLAIM);
  const check = await readDatabaseCheck(pass, job);
  if (check.job === 'Failed') {
    if (await deleteChild(pass.kube, job)) pass.writes++;
    return {
      failed: `the database check before the drops failed, so nothing is dropped yet: ${check.error ?? 'unknown'}`,
    };
  }
  // kept until the drops are done: its answer is read again on every pass meanwhile
  pass.keep.keep(job);
  if (check.job === 'Absent') await writeChild(pass, job);
  if (check.report === undefined) return undefined;
  const mine: number[] = [];
  const theirs: string[] = [];
  // an image from before the schema identity reports no owners: nothing it names can be told to be this one's
  const blind = check.report.version === undefined;
  for (const generation of known) {
    const schema = check.report.schemas.find((s) => s.generation === generation);
    const ownership =
      schema === undefined
        ? undefined
        : blind
          ? { kind: 'unknown' as const, why: `image ${pass.build.image} reports no owners` }
          : ownershipOf(schema, pass.build.mw, all);
    if (ownership === undefined || ownership.kind === 'own') mine.push(generation);
    else
      theirs.push(
        `${schema?.name ?? ''} (${ownership.kind === 'other' ? `owned by ${ownership.owner}` : ownership.why})`,
      );
  }
  return { mine, theirs };
}

/** isTerminating is true when the namespace is being deleted: it refuses every new object, Events included. */
async function isTerminating(kube: KubeClient, namespace: string): Promise<boolean> {
  const ns = await kube.get<KubeObject>({ apiVersion: 'v1', kind: 'Namespace', name: namespace });
  return ns?.metadata.deletionTimestamp !== undefined;
}

/**
 * dropBlocker names why drop Jobs cannot run in a namespace that is not being deleted: a drop Job's (or the database
 * check's) pod cannot start because its configuration (the database Secret) is gone. Undefined: drops can run.
 * Reading pods, not the Secret, keeps the operator away from Secrets.
 */
async function dropBlocker(pass: PassContext): Promise<string | undefined> {
  const namespace = pass.build.mw.metadata.namespace ?? 'default';
  // the drops, and the database check before them, need the same Secret
  const drops = pass.children.filter(
    (c) => c.kind === 'Job' && KEPT_JOBS.has(c.metadata.labels?.[LABEL_COMPONENT] ?? ''),
  );
  for (const job of drops) {
    const selector = formatSelector({ [JOB_NAME_LABEL]: job.metadata.name ?? '' });
    const { items } = await listAll<V1Pod & KubeObject>(pass.kube, 'v1', 'Pod', namespace, { labelSelector: selector });
    const stuck = items
      .flatMap((pod) => pod.status?.containerStatuses ?? [])
      .find((c) => c.state?.waiting?.reason === 'CreateContainerConfigError');
    if (stuck !== undefined)
      return `the clean-up Job ${job.metadata.name ?? ''} cannot start: ${stuck.state?.waiting?.message ?? 'its configuration is missing'}`;
  }
  return undefined;
}

/**
 * retain removes the finalizer without dropping anything, saying which schemas stay and why: in the log at info,
 * and in an Event on the Middleware, or, when its namespace is being deleted and refuses Events, on the operator's
 * own pod (the Middleware named in the message), so an admin finds the schemas to drop by hand.
 */
async function retain(
  pass: ChildPass,
  why: string,
  type: 'Normal' | 'Warning',
  terminating: boolean,
): Promise<ReconcileResult> {
  const { ref, mw } = pass;
  const schemas = knownGenerations(mw, pass).map((g) => schemaName(pass.build.spec, g));
  await removeFinalizer(pass.kube, ref, mw);
  pass.writes++;
  const kept = schemas.length > 0 ? `the schemas ${schemas.join(', ')} are kept` : 'there is no schema to keep';
  const message = `${why}: ${kept}; drop them by hand when no longer needed`;
  pass.log.info({ namespace: ref.namespace, name: ref.name, schemas, why }, `schemas retained: ${kept}`);
  if (terminating)
    await pass.recordHomeEvent(type, 'SchemasRetained', `Middleware ${ref.namespace ?? ''}/${ref.name}: ${message}`);
  else await pass.recordEvent(mw, type, 'SchemasRetained', message);
  return {};
}
