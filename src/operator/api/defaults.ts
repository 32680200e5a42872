/**
 * @module The resolved spec: a Middleware's spec with every default of the field table (spec-fields.ts) filled in by
 * withDefaults, as the API server fills them in, plus what the builders and the controller read derived from it
 * (seconds of durations, bytes of quantities, the scheduling of each component). Pure.
 */
import type { V1EnvVar, V1LocalObjectReference, V1ResourceRequirements } from '@kubernetes/client-node';
import type { FilledOf } from './field.ts';
import { withDefaults } from './field-check.ts';
import type { MiddlewareSpec, PodScheduling, SecretKeyRef } from './middleware-types.ts';
import { parseByteQuantity, parseDurationSeconds } from './quantity.ts';
import { PDB_MAX_UNAVAILABLE, SPEC_FIELDS } from './spec-fields.ts';

/** FilledSpec is the spec with the table's defaults filled in: a field with a `default:` is never undefined. */
type FilledSpec = FilledOf<typeof SPEC_FIELDS>;
type FilledReload = NonNullable<FilledSpec['reload']>;

/** ResolvedReload is spec.reload with its defaults filled in and its durations in seconds. */
export type ResolvedReload = FilledReload & {
  heights: string | undefined;
  /** retainPrevious in seconds. */
  retainPreviousSeconds: number;
  /** deadline in seconds. */
  deadlineSeconds: number;
};

/** ResolvedReadReplicas is spec.database.readReplicas with its one source, the CNPG credentials' Secret filled in. */
export type ResolvedReadReplicas = { maxLagSeconds: number | undefined } & (
  { cnpg: { cluster: string; credentialsSecretName: string } } | { urlsSecretRef: SecretKeyRef }
);

/** SCHEDULING_FIELDS are the fields of PodScheduling, which a component's spec carries beside its own. */
const SCHEDULING_FIELDS = [
  'nodeSelector',
  'tolerations',
  'affinity',
  'topologySpreadConstraints',
  'priorityClassName',
  'podMetadata',
] as const satisfies readonly (keyof PodScheduling)[];
type SchedulingField = (typeof SCHEDULING_FIELDS)[number];

/** Resolved is a component's filled spec with its scheduling fields gathered into one `scheduling`. */
type Resolved<C, Derived> = Omit<C, SchedulingField | keyof Derived> & Derived & { scheduling: PodScheduling };

/**
 * ResolvedSpec is the spec with every default applied: what the builders and the controller read. Every field of the
 * table is in it as filled in, but for the ones listed here, which are derived.
 */
export type ResolvedSpec = Omit<
  FilledSpec,
  'nodeUrls' | 'database' | 'imagePullSecrets' | 'server' | 'populator' | 'jobs' | 'serviceAccountTemplate' | 'reload'
> & {
  nodeUrls: readonly string[];
  database: {
    urlSecretRef: SecretKeyRef;
    schemaPrefix: string;
    storageCapacityBytes: number | undefined;
    readReplicas: ResolvedReadReplicas | undefined;
  };
  imagePullSecrets: readonly V1LocalObjectReference[];
  server: Resolved<
    FilledSpec['server'],
    {
      /** servers of a pending generation while it catches up (never more than replicas) */
      previewReplicas: number;
      pdb: { enabled: boolean; minAvailable: number | undefined; maxUnavailable: number | undefined };
      trustedProxies: readonly string[];
      env: readonly V1EnvVar[];
    }
  >;
  populator: Resolved<FilledSpec['populator'], { env: readonly V1EnvVar[] }>;
  jobs: Resolved<
    FilledSpec['jobs'],
    {
      /** the InPlace reload Jobs' (`mdw -H`): spec.jobs.reloadResources, else the populator's */
      reloadResources: V1ResourceRequirements | undefined;
      migrationDeadlineSeconds: number;
    }
  >;
  serviceAccount: { annotations: Readonly<Record<string, string>>; labels: Readonly<Record<string, string>> };
  reload: ResolvedReload | undefined;
};

/**
 * resolveSpec fills in every default; call it on a spec that validateMiddleware accepted. The schema prefix depends on
 * the object (its name, its status): the caller gives it (schemaPrefixOf).
 */
export function resolveSpec(spec: MiddlewareSpec, schemaPrefix: string): ResolvedSpec {
  const filled = withDefaults(SPEC_FIELDS, spec);
  const { nodeUrls, database, imagePullSecrets, server, populator, jobs, serviceAccountTemplate, reload, ...rest } =
    filled;
  const { pdb } = server;
  return {
    ...rest,
    nodeUrls,
    database: {
      urlSecretRef: database.urlSecretRef,
      schemaPrefix,
      storageCapacityBytes:
        database.storageCapacity === undefined ? undefined : parseByteQuantity(database.storageCapacity),
      readReplicas: resolveReadReplicas(database),
    },
    imagePullSecrets: imagePullSecrets ?? [],
    server: {
      ...withoutScheduling(server),
      scheduling: schedulingOf(server),
      previewReplicas: Math.min(server.previewReplicas, server.replicas),
      pdb: {
        enabled: pdb.enabled,
        minAvailable: pdb.minAvailable,
        maxUnavailable: pdb.maxUnavailable ?? (pdb.minAvailable === undefined ? PDB_MAX_UNAVAILABLE : undefined),
      },
      trustedProxies: server.trustedProxies ?? [],
      env: server.env ?? [],
    },
    populator: { ...withoutScheduling(populator), scheduling: schedulingOf(populator), env: populator.env ?? [] },
    jobs: {
      ...withoutScheduling(jobs),
      scheduling: schedulingOf(jobs),
      reloadResources: jobs.reloadResources ?? populator.resources,
      migrationDeadlineSeconds: parseDurationSeconds(jobs.migrationDeadline) ?? 0,
    },
    serviceAccount: {
      annotations: serviceAccountTemplate?.metadata?.annotations ?? {},
      labels: serviceAccountTemplate?.metadata?.labels ?? {},
    },
    reload: reload && resolveReload(reload),
  };
}

function schedulingOf(component: PodScheduling): PodScheduling {
  const picked = SCHEDULING_FIELDS.filter((k) => component[k] !== undefined).map((k) => [k, component[k]]);
  return Object.fromEntries(picked) as PodScheduling;
}

function withoutScheduling<C extends PodScheduling>(component: C): Omit<C, SchedulingField> {
  const own = Object.entries(component).filter(([k]) => !(SCHEDULING_FIELDS as readonly string[]).includes(k));
  return Object.fromEntries(own) as Omit<C, SchedulingField>;
}

function resolveReadReplicas(database: FilledSpec['database']): ResolvedReadReplicas | undefined {
  const { readReplicas, urlSecretRef } = database;
  if (readReplicas === undefined) return undefined;
  const { cnpg, urlsSecretRef, maxLagSeconds } = readReplicas;
  // validateMiddleware lets exactly one source through
  if (cnpg !== undefined) {
    const credentialsSecretName = cnpg.credentialsSecretName ?? urlSecretRef.name;
    return { cnpg: { cluster: cnpg.cluster, credentialsSecretName }, maxLagSeconds };
  }
  return urlsSecretRef && { urlsSecretRef, maxLagSeconds };
}

function resolveReload(reload: FilledReload): ResolvedReload {
  return {
    ...reload,
    heights: reload.heights,
    retainPreviousSeconds: parseDurationSeconds(reload.retainPrevious) ?? 0,
    deadlineSeconds: parseDurationSeconds(reload.deadline) ?? 0,
  };
}
