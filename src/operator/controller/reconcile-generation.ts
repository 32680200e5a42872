/**
 * @module Reconciles one data generation: its restore Job when it starts from a snapshot, then its migration Job, then
 * (once both succeeded) populator and server Deployments and the PDB.
 */
import type { V1Deployment, V1Job } from '@kubernetes/client-node';
import { refOf, type KubeClient, type KubeError, type KubeObject } from '../kube/client.ts';
import type { SnapshotSource } from '../api/middleware-types.ts';
import { buildDropSchemaJob, buildMigrationJob, buildReloadJob, buildRestoreJob } from '../specs/jobs.ts';
import { Component, LABEL_COMPONENT } from '../specs/meta.ts';
import type { BuildContext } from '../specs/meta.ts';
import { buildPopulatorDeployment } from '../specs/populator-deployment.ts';
import { buildServerDeployment } from '../specs/server-deployment.ts';
import { buildServerPdb } from '../specs/server-pdb.ts';
import type { DesiredLayout, GenerationPlan, JobState } from './bluegreen.ts';
import { applyChild, deleteChild, generationOf, jobState } from './reconcile-children.ts';
import { jobError } from './job-messages.ts';

/** ChildSet tracks the children a pass wants to keep; everything else of the Middleware is pruned. */
export class ChildSet {
  readonly #keys = new Set<string>();
  readonly #gated = new Set<number>();

  /** keep marks obj as desired. */
  keep(obj: KubeObject): void {
    this.#keys.add(keyOf(obj));
  }

  /** keepWorkloadsOf keeps a generation's live Deployments and PDB as they are (its migration runs). */
  keepWorkloadsOf(generation: number): void {
    this.#gated.add(generation);
  }

  /** wants is true for a live child this pass keeps. */
  wants(obj: KubeObject): boolean {
    if (this.#keys.has(keyOf(obj))) return true;
    const generation = generationOf(obj);
    return (
      generation !== undefined &&
      this.#gated.has(generation) &&
      (obj.kind === 'Deployment' || obj.kind === 'PodDisruptionBudget')
    );
  }
}

/** PassContext is what every step of one reconcile pass shares. */
export interface PassContext {
  readonly kube: KubeClient;
  readonly fieldManager: string;
  /** Told when an apply met a field another manager owns (the apply is then forced). */
  readonly onApplyConflict: (obj: KubeObject, err: KubeError) => Promise<void>;
  /** What the builders read; its image becomes the accepted one once the operand check has answered (reconcile). */
  build: BuildContext;
  /** Live children listed at the start of the pass. */
  readonly children: readonly KubeObject[];
  readonly keep: ChildSet;
  /** Counts writes of the pass (for logs and the "second pass writes nothing" property). */
  writes: number;
}

/** RestoreReport is the restore Job of a generation starting from a snapshot: its state, and the import's error. */
export interface RestoreReport {
  readonly state: JobState;
  readonly error?: string;
}

/** GenerationReport is what a generation's reconcile saw: its migration and its live workloads. */
export interface GenerationReport {
  readonly generation: number;
  /** the restore then the migration: Running while the restore runs, Failed when either failed */
  readonly migration: JobState;
  /** the restore Job's, for a generation the plan restores from a snapshot */
  readonly restore?: RestoreReport;
  readonly migrationJob: V1Job | undefined;
  readonly populator: V1Deployment | undefined;
  readonly server: V1Deployment | undefined;
}

/** liveChild finds the live child with desired's kind and name. */
export function liveChild<T extends KubeObject>(pass: PassContext, desired: KubeObject): T | undefined {
  return liveChildNamed<T>(pass, desired.kind, desired.metadata.name ?? '');
}

/** liveChildNamed finds the live child of a kind by name (when the name is known without building the child). */
export function liveChildNamed<T extends KubeObject>(pass: PassContext, kind: string, name: string): T | undefined {
  return pass.children.find((c) => c.kind === kind && c.metadata.name === name) as T | undefined;
}

/**
 * reconcileGeneration converges one generation in order: the restore Job (a generation the plan restores from a
 * snapshot), the migration Job, and only after they succeeded, the workloads.
 */
export async function reconcileGeneration(pass: PassContext, plan: GenerationPlan): Promise<GenerationReport> {
  const { build } = pass;
  keepRestoreJobs(pass, plan.generation);
  const restore =
    plan.restore === undefined ? undefined : await reconcileRestoreJob(pass, plan.generation, plan.restore);
  if (restore !== undefined && restore.state !== 'Succeeded') {
    // `mdw snapshot import` fills an empty schema: the migration Job waits, and nothing of the generation runs
    pass.keep.keepWorkloadsOf(plan.generation);
    return {
      generation: plan.generation,
      migration: restore.state === 'Failed' ? 'Failed' : 'Running',
      restore,
      migrationJob: undefined,
      populator: undefined,
      server: undefined,
    };
  }
  const migrationJob = buildMigrationJob(build, plan.generation);
  const liveJob = liveChild<V1Job & KubeObject>(pass, migrationJob);
  pass.keep.keep(migrationJob);
  // A Job's template is immutable and its name carries its input hash: absent means "run it".
  if (liveJob === undefined) await writeChild(pass, migrationJob);
  const migration = jobState(liveJob);
  const populatorDesired = buildPopulatorDeployment(build, plan.generation, {
    heights: plan.heights,
    stopped: plan.populatorStopped,
  });
  const replicas = plan.previewScale === true ? build.spec.server.previewReplicas : build.spec.server.replicas;
  const serverDesired = buildServerDeployment(build, plan.generation, replicas);
  const report = {
    generation: plan.generation,
    migration,
    ...(restore === undefined ? {} : { restore }),
    migrationJob: liveJob,
    populator: liveChild<V1Deployment & KubeObject>(pass, populatorDesired),
    server: liveChild<V1Deployment & KubeObject>(pass, serverDesired),
  };
  if (!plan.workloads) return report;
  if (migration !== 'Succeeded') {
    // New code may need the new schema: leave running workloads alone until the migration is done.
    pass.keep.keepWorkloadsOf(plan.generation);
    return report;
  }
  const pdb = buildServerPdb(build, plan.generation);
  for (const desired of [populatorDesired, serverDesired, ...(pdb ? [pdb] : [])]) pass.keep.keep(desired);
  const populator = await writeChild(pass, populatorDesired);
  const server = await writeChild(pass, serverDesired);
  if (pdb) await writeChild(pass, pdb);
  return { ...report, populator, server };
}

/**
 * reconcileRestoreJob runs the restore Job of a generation starting from `source` (creating it when absent) and
 * reports its state, with the import's error once it failed. A failed one is kept, for its logs and its message:
 * deleting it runs the restore again (a failed import dropped the schema it was filling).
 */
export async function reconcileRestoreJob(
  pass: PassContext,
  generation: number,
  source: SnapshotSource,
): Promise<RestoreReport> {
  const desired = buildRestoreJob(pass.build, generation, source);
  pass.keep.keep(desired);
  const live = liveChild<V1Job & KubeObject>(pass, desired);
  if (live === undefined) await writeChild(pass, desired);
  const state = jobState(live);
  return state === 'Failed' && live !== undefined ? { state, error: await jobError(pass.kube, live) } : { state };
}

/** keepRestoreJobs keeps the generation's finished restore Jobs while it lives: `kubectl logs` tells how it began. */
function keepRestoreJobs(pass: PassContext, generation: number): void {
  for (const child of pass.children)
    if (
      child.kind === 'Job' &&
      child.metadata.labels?.[LABEL_COMPONENT] === Component.restore &&
      generationOf(child) === generation
    )
      pass.keep.keep(child);
}

/** reconcileReloadJob keeps the InPlace `-H` Job of the layout and reports its state. */
export async function reconcileReloadJob(
  pass: PassContext,
  reloadJob: NonNullable<DesiredLayout['reloadJob']>,
): Promise<JobState> {
  const desired = buildReloadJob(pass.build, reloadJob.generation, reloadJob.id, reloadJob.heights);
  pass.keep.keep(desired);
  const live = liveChild<V1Job & KubeObject>(pass, desired);
  if (live === undefined) await writeChild(pass, desired);
  return jobState(live);
}

/**
 * reconcileDropJob drops a retired generation's schema with a Job, but only once none of that
 * generation's Deployments exist any more (no writer may be left). A failed Job is deleted, so the
 * next pass runs it again.
 */
export async function reconcileDropJob(pass: PassContext, generation: number): Promise<JobState> {
  const desired = buildDropSchemaJob(pass.build, generation);
  const live = liveChild<V1Job & KubeObject>(pass, desired);
  const state = jobState(live);
  if (state === 'Failed') {
    if (live !== undefined && (await deleteChild(pass.kube, live))) pass.writes++;
    return state;
  }
  pass.keep.keep(desired);
  // no writer may be left: its Deployments, and an import still filling the schema (an aborted reload's restore)
  const workloadsLeft = pass.children.some(
    (c) =>
      generationOf(c) === generation &&
      (c.kind === 'Deployment' || (c.kind === 'Job' && c.metadata.labels?.[LABEL_COMPONENT] === Component.restore)),
  );
  if (live === undefined && !workloadsLeft) await writeChild(pass, desired);
  return state;
}

/** writeChild applies desired when its input hash differs from the listed child's, counting the write; it returns the live object. */
export async function writeChild<T extends KubeObject>(pass: PassContext, desired: T): Promise<T> {
  const { live, wrote } = await applyChild(pass.kube, desired, liveChild<T>(pass, desired), pass.fieldManager, (err) =>
    pass.onApplyConflict(desired, err),
  );
  if (wrote) pass.writes++;
  return live;
}

function keyOf(obj: KubeObject): string {
  const ref = refOf(obj);
  return `${ref.kind}/${ref.name}`;
}
