/** @module Builds the Jobs of a data generation: migrate its schema, reload heights in place, drop the schema. Pure. */
import type { V1Job } from '@kubernetes/client-node';
import type { Built, BuildContext, Component as ComponentType } from './meta.ts';
import { ANNOTATION_SCHEMA, Component, childMeta, childName, generationSuffix, labelsFor, schemaName } from './meta.ts';
import { middlewareContainer, podTemplate } from './pod.ts';
import { hashInputs, withInputHash } from './hash.ts';

/** JOB_BACKOFF_LIMIT: retries before a Job is Failed (migrations take an advisory lock, so retries are safe). */
const JOB_BACKOFF_LIMIT = 4;

/**
 * JOB_DEADLINE_SECONDS: how long each kind of Job may run, retries included, before Kubernetes fails it
 * (activeDeadlineSeconds): a migration or a drop that hangs on a lock or a full disk must end, and so must a `-H`.
 */
export const JOB_DEADLINE_SECONDS = { migrate: 3600, dropSchema: 3600, reload: 24 * 3600 } as const;

/**
 * buildMigrationJob runs `mdw migrate` for the generation's schema. A Job's pod template is immutable, so the
 * name carries a hash of its inputs: a new image or database gives a new Job, and the old one is deleted.
 */
export function buildMigrationJob(ctx: BuildContext, generation: number): Built<V1Job> {
  return buildJob(ctx, generation, Component.migration, ['migrate'], JOB_DEADLINE_SECONDS.migrate);
}

/**
 * buildReloadJob runs `mdw -H <heights>` against the generation's schema (the InPlace reload named reloadId). The
 * generation's populator writes the same schema: the caller stops it (or `-H` must take the writer Lease) meanwhile.
 */
export function buildReloadJob(ctx: BuildContext, generation: number, reloadId: string, heights: string): Built<V1Job> {
  return buildJob(ctx, generation, Component.reload, ['-H', heights], JOB_DEADLINE_SECONDS.reload, reloadId);
}

/** buildDropSchemaJob runs `mdw migrate --drop` for a retired generation; dropping an absent schema succeeds. */
export function buildDropSchemaJob(ctx: BuildContext, generation: number): Built<V1Job> {
  return buildJob(ctx, generation, Component.dropSchema, ['migrate', '--drop'], JOB_DEADLINE_SECONDS.dropSchema);
}

function buildJob(
  ctx: BuildContext,
  generation: number,
  component: ComponentType,
  args: string[],
  deadlineSeconds: number,
  discriminator?: string,
): Built<V1Job> {
  const labels = labelsFor(ctx.mw, component, generation);
  const container = middlewareContainer(ctx, { args, generation });
  const template = podTemplate(ctx, labels, container, { restartPolicy: 'Never' });
  const inputs = hashInputs({ template, discriminator }, 8);
  const verb = component === Component.migration ? 'migrate' : component;
  const name = childName(ctx.mw, verb, generationSuffix(generation), inputs);
  return withInputHash({
    apiVersion: 'batch/v1',
    kind: 'Job',
    metadata: {
      ...childMeta(ctx, name, labels),
      annotations: { [ANNOTATION_SCHEMA]: schemaName(ctx.spec, generation) },
    },
    // No ttlSecondsAfterFinished: the finished Job is the record that its step ran; a Job that vanished would be
    // created again and re-run. Jobs go with their generation (or with the Middleware, as owned children).
    spec: { backoffLimit: JOB_BACKOFF_LIMIT, activeDeadlineSeconds: deadlineSeconds, template },
  });
}
