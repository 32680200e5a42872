/** @module Builds the Jobs of a data generation: migrate its schema, reload heights in place, drop the schema. Pure. */
import type { V1EnvVar, V1Job, V1ResourceRequirements } from '@kubernetes/client-node';
import type { Built, BuildContext, Component as ComponentType } from './meta.ts';
import { ANNOTATION_SCHEMA, Component, childMeta, childName, generationSuffix, labelsFor, schemaName } from './meta.ts';
import { middlewareContainer, podTemplate } from './pod.ts';
import { hashInputs, withInputHash } from './hash.ts';

/** JOB_BACKOFF_LIMIT: retries before a Job is Failed (migrations take an advisory lock, so retries are safe). */
const JOB_BACKOFF_LIMIT = 4;

/**
 * JOB_DEADLINE_SECONDS: how long each kind of Job may run, retries included, before Kubernetes fails it
 * (activeDeadlineSeconds): a drop that hangs on a lock or a full disk must end, and so must a `-H`. A migration's is
 * spec.jobs.migrationDeadline.
 */
export const JOB_DEADLINE_SECONDS = { dropSchema: 3600, reload: 24 * 3600, databaseUsage: 600 } as const;

/** TERMINATION_LOG is where `mdw db usage` writes its report: the container's termination message, read from the Pod. */
const TERMINATION_LOG = '/dev/termination-log';

/**
 * buildMigrationJob runs `mdw migrate` for the generation's schema. A Job's pod template is immutable, so the
 * name carries a hash of its inputs: a new image or database gives a new Job, and the old one is deleted.
 */
export function buildMigrationJob(ctx: BuildContext, generation: number): Built<V1Job> {
  const deadlineSeconds = ctx.spec.jobs.migrationDeadlineSeconds;
  return buildJob(ctx, generation, {
    component: Component.migration,
    args: ['migrate'],
    deadlineSeconds,
    resources: ctx.spec.jobs.resources,
  });
}

/**
 * buildReloadJob runs `mdw -H <heights>` against the generation's schema (the InPlace reload named reloadId). The
 * generation's populator writes the same schema: the caller stops it (or `-H` must take the writer Lease) meanwhile.
 * It loads the chain as the populator does, so it gets the populator's own variables (spec.populator.env).
 */
export function buildReloadJob(ctx: BuildContext, generation: number, reloadId: string, heights: string): Built<V1Job> {
  return buildJob(ctx, generation, {
    component: Component.reload,
    args: ['-H', heights],
    deadlineSeconds: JOB_DEADLINE_SECONDS.reload,
    resources: ctx.spec.jobs.reloadResources,
    discriminator: reloadId,
    extraEnv: ctx.spec.populator.env,
  });
}

/** buildDropSchemaJob runs `mdw migrate --drop` for a retired generation; dropping an absent schema succeeds. */
export function buildDropSchemaJob(ctx: BuildContext, generation: number): Built<V1Job> {
  return buildJob(ctx, generation, {
    component: Component.dropSchema,
    args: ['migrate', '--drop'],
    deadlineSeconds: JOB_DEADLINE_SECONDS.dropSchema,
    resources: ctx.spec.jobs.resources,
  });
}

/**
 * buildDatabaseUsageJob runs `mdw db usage`, which reports the database's size and its generation schemas through
 * the container's termination message (the operator reads it from the Pod's status; it never connects to
 * PostgreSQL). `purpose` (a reload id, or "adopt") gives each question its own Job, so an old answer is never read.
 */
export function buildDatabaseUsageJob(ctx: BuildContext, generation: number, purpose: string): Built<V1Job> {
  const args = ['db', 'usage', '--schema-prefix', ctx.spec.database.schemaPrefix, '--termination-log', TERMINATION_LOG];
  return buildJob(ctx, generation, {
    component: Component.databaseUsage,
    args,
    deadlineSeconds: JOB_DEADLINE_SECONDS.databaseUsage,
    resources: ctx.spec.jobs.resources,
    discriminator: purpose,
  });
}

/** JobPlan is what sets one kind of Job apart from the others. */
interface JobPlan {
  readonly component: ComponentType;
  readonly args: string[];
  /** activeDeadlineSeconds: how long it may run, retries included */
  readonly deadlineSeconds: number;
  readonly resources: V1ResourceRequirements | undefined;
  /** a reload id or a purpose: part of the input hash, so each question gets its own Job */
  readonly discriminator?: string;
  /** variables beside the managed ones (a reload's are the populator's) */
  readonly extraEnv?: readonly V1EnvVar[];
}

function buildJob(ctx: BuildContext, generation: number, plan: JobPlan): Built<V1Job> {
  const { component, args, deadlineSeconds, resources, discriminator, extraEnv = [] } = plan;
  // the database usage Job is about the whole database, not one generation's schema
  const ofGeneration = component !== Component.databaseUsage;
  const labels = labelsFor(ctx.mw, component, ofGeneration ? generation : undefined);
  const container = middlewareContainer(ctx, { args, generation, extraEnv, resources });
  // the report (or, when it failed, the log's end) comes back as the container's termination message
  if (!ofGeneration)
    Object.assign(container, {
      terminationMessagePath: TERMINATION_LOG,
      terminationMessagePolicy: 'FallbackToLogsOnError',
    });
  const template = podTemplate(ctx, labels, container, ctx.spec.jobs.scheduling, { restartPolicy: 'Never' });
  const inputs = hashInputs({ template, discriminator }, 8);
  const verb = component === Component.migration ? 'migrate' : component;
  const name = ofGeneration
    ? childName(ctx.mw, verb, generationSuffix(generation), inputs)
    : childName(ctx.mw, verb, inputs);
  return withInputHash({
    apiVersion: 'batch/v1',
    kind: 'Job',
    metadata: {
      ...childMeta(ctx, name, labels),
      ...(ofGeneration ? { annotations: { [ANNOTATION_SCHEMA]: schemaName(ctx.spec, generation) } } : {}),
    },
    // No ttlSecondsAfterFinished: the finished Job is the record that its step ran; a Job that vanished would be
    // created again and re-run. Jobs go with their generation (or with the Middleware, as owned children).
    spec: { backoffLimit: JOB_BACKOFF_LIMIT, activeDeadlineSeconds: deadlineSeconds, template },
  });
}
