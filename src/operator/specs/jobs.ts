/**
 * @module Builds the Jobs of a data generation: restore its schema from a snapshot, migrate it, reload heights in
 * place, drop the schema. Pure.
 */
import type {
  V1Container,
  V1EnvVar,
  V1Job,
  V1PodSpec,
  V1ResourceRequirements,
  V1Volume,
  V1VolumeMount,
} from '@kubernetes/client-node';
import type { SnapshotSource } from '../api/middleware-types.ts';
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
export const JOB_DEADLINE_SECONDS = {
  dropSchema: 3600,
  reload: 24 * 3600,
  databaseUsage: 600,
  restore: 6 * 3600,
} as const;

/**
 * RESTORE_BACKOFF_LIMIT: a restore is retried once only: `mdw snapshot import` drops the schema it failed to fill,
 * so a retry starts clean (and one whose comparison with the node failed is kept: the retry only compares), but a
 * refusal (another network, a newer migration level) would only be fetched again.
 */
const RESTORE_BACKOFF_LIMIT = 1;

/** SNAPSHOT_DIR is where the restore Job's pod sees the snapshot: the fetched emptyDir, or the mounted volume. */
const SNAPSHOT_DIR = '/snapshot';
/** SNAPSHOT_VOLUME names the restore Job's volume holding the snapshot. */
const SNAPSHOT_VOLUME = 'snapshot';

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

/**
 * buildRestoreJob fills the new generation's empty schema from a snapshot with `mdw snapshot import` (which refuses a
 * snapshot of another network or a newer migration level, checks every part's SHA-256, and compares sampled heights
 * and accounts with the node); the generation's migration Job runs after it. A URL is fetched first into an emptyDir
 * (`mdw snapshot fetch`, an init container), a volume is mounted read-only. The name holds the source only, not the
 * pod template: the Job runs once per generation, and an image changed meanwhile never starts a second import into
 * the schema the first one filled. The import's error (its log's end) is the container's termination message.
 */
export function buildRestoreJob(ctx: BuildContext, generation: number, source: SnapshotSource): Built<V1Job> {
  const volume: V1Volume =
    source.volume === undefined
      ? { name: SNAPSHOT_VOLUME, emptyDir: {} }
      : { name: SNAPSHOT_VOLUME, persistentVolumeClaim: { claimName: source.volume.claimName, readOnly: true } };
  const path = source.volume?.path;
  const dir = path === undefined ? SNAPSHOT_DIR : `${SNAPSHOT_DIR}/${path}`;
  const fetch =
    source.url === undefined
      ? []
      : [
          {
            ...middlewareContainer(ctx, {
              args: ['snapshot', 'fetch', source.url, SNAPSHOT_DIR],
              generation,
              resources: ctx.spec.jobs.resources,
            }),
            name: 'fetch',
            terminationMessagePolicy: 'FallbackToLogsOnError',
          },
        ];
  return buildJob(ctx, generation, {
    component: Component.restore,
    args: ['snapshot', 'import', dir],
    deadlineSeconds: JOB_DEADLINE_SECONDS.restore,
    backoffLimit: RESTORE_BACKOFF_LIMIT,
    resources: ctx.spec.jobs.reloadResources,
    discriminator: hashInputs(source, 8),
    nameFromDiscriminator: true,
    snapshot: { volume, mount: source.volume === undefined ? {} : { readOnly: true }, initContainers: fetch },
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
  /** retries before the Job fails; JOB_BACKOFF_LIMIT when unset */
  readonly backoffLimit?: number;
  /** the name carries the discriminator alone, not the pod template: the Job runs once, whatever changes after */
  readonly nameFromDiscriminator?: boolean;
  /** the snapshot a restore Job reads: its volume, mounted at SNAPSHOT_DIR, and the containers filling it first */
  readonly snapshot?: {
    readonly volume: V1Volume;
    readonly mount: Pick<V1VolumeMount, 'readOnly'>;
    readonly initContainers: readonly V1Container[];
  };
}

function buildJob(ctx: BuildContext, generation: number, plan: JobPlan): Built<V1Job> {
  const { component, args, deadlineSeconds, resources, discriminator, extraEnv = [], snapshot } = plan;
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
  if (snapshot !== undefined) withSnapshot(template.spec!, snapshot);
  const inputs =
    plan.nameFromDiscriminator === true && discriminator !== undefined
      ? discriminator
      : hashInputs({ template, discriminator }, 8);
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
    spec: { backoffLimit: plan.backoffLimit ?? JOB_BACKOFF_LIMIT, activeDeadlineSeconds: deadlineSeconds, template },
  });
}

/**
 * withSnapshot gives a restore Job's pod its snapshot: the volume, mounted at SNAPSHOT_DIR into every container (the
 * fetching ones first), and the main container's error as its termination message.
 */
function withSnapshot(pod: V1PodSpec, snapshot: NonNullable<JobPlan['snapshot']>): void {
  const mount: V1VolumeMount = { name: snapshot.volume.name, mountPath: SNAPSHOT_DIR, ...snapshot.mount };
  const mounted = (c: V1Container): V1Container => ({ ...c, volumeMounts: [...(c.volumeMounts ?? []), mount] });
  if (snapshot.initContainers.length > 0) pod.initContainers = snapshot.initContainers.map(mounted);
  pod.containers = pod.containers.map((c) => ({ ...mounted(c), terminationMessagePolicy: 'FallbackToLogsOnError' }));
  pod.volumes = [...(pod.volumes ?? []), snapshot.volume];
}
