/** @module Defaults of the Middleware spec: one table used by resolveSpec and by the generated CRD schema. Pure. */
import type { V1EnvVar, V1LocalObjectReference, V1ResourceRequirements } from '@kubernetes/client-node';
import type {
  IngressSpec,
  LogLevel,
  MiddlewareSpec,
  PodScheduling,
  PullPolicy,
  ReclaimPolicy,
  ReloadStrategy,
  RootV3,
  SecretKeyRef,
  ServiceType,
} from './middleware-types.ts';
import { PATTERNS } from './patterns.ts';

/** SPEC_DEFAULTS: every default of the spec, in one place (the CRD schema's `default:` values come from here). */
export const SPEC_DEFAULTS = {
  imagePullPolicy: 'IfNotPresent' as PullPolicy,
  serverReplicas: 2,
  /** One server answers the catch-up gate's probe; the full count follows once the generation is nearly synced. */
  previewReplicas: 1,
  /** The fixed deadline migration Jobs had before it was a field. */
  migrationDeadline: '1h',
  httpServiceType: 'ClusterIP' as ServiceType,
  httpPort: 80,
  websocketPort: 3020,
  /** Same as ROOT_V3's default in src/config.ts: the node's API at the root /v3, ae_mdw's at /mdw/v3. */
  rootV3: 'node' as RootV3,
  pdbEnabled: true,
  pdbMaxUnavailable: 1,
  autoscalingMinReplicas: 2,
  autoscalingTargetCPU: 80,
  serviceMonitorEnabled: false,
  serviceMonitorInterval: '30s',
  /** Same as FORK_WINDOW's default in src/config.ts. */
  forkWindow: 30,
  /** Same as STATUS_MAX_BLOCK_AGE's default in src/config.ts. */
  statusMaxBlockAge: 900,
  logLevel: 'info' as LogLevel,
  paused: false,
  /** Keep the data when the resource goes (CNPG's default for databases): a delete must not cost a full reload. */
  reclaimPolicy: 'Retain' as ReclaimPolicy,
  reloadStrategy: 'BlueGreen' as ReloadStrategy,
  autoPromote: true,
  /** Keep the previous generation six hours for a rollback (graph-node reaps after 6–8 h). */
  retainPrevious: '6h',
  /** Two days: a whole mainnet load takes hours, a stuck one should not hold the database for longer. */
  reloadDeadline: '48h',
  syncedWithinBlocks: 3,
  stableWindowSeconds: 60,
} as const;

/** ResolvedReload is spec.reload with its defaults filled in. */
export type ResolvedReload = {
  id: string;
  heights: string | undefined;
  strategy: ReloadStrategy;
  autoPromote: boolean;
  retainPrevious: string;
  /** retainPrevious in seconds. */
  retainPreviousSeconds: number;
  deadline: string;
  /** deadline in seconds. */
  deadlineSeconds: number;
};

/** ResolvedReadReplicas is spec.database.readReplicas with its one source, the CNPG credentials' Secret filled in. */
export type ResolvedReadReplicas = { maxLagSeconds: number | undefined } & (
  { cnpg: { cluster: string; credentialsSecretName: string } } | { urlsSecretRef: SecretKeyRef }
);

/** ResolvedSpec is the spec with every default applied: what the builders and the controller read. */
export type ResolvedSpec = {
  nodeUrls: readonly string[];
  nodeInternalUrl: string | undefined;
  compilerUrl: string | undefined;
  database: {
    urlSecretRef: SecretKeyRef;
    schemaPrefix: string;
    storageCapacityBytes: number | undefined;
    readReplicas: ResolvedReadReplicas | undefined;
  };
  image: string | undefined;
  imagePullPolicy: PullPolicy;
  imagePullSecrets: readonly V1LocalObjectReference[];
  server: {
    replicas: number;
    /** servers of a pending generation while it catches up (never more than replicas) */
    previewReplicas: number;
    scheduling: PodScheduling;
    resources: V1ResourceRequirements | undefined;
    http: { type: ServiceType; port: number };
    websocket: { port: number };
    ingress: IngressSpec | undefined;
    pdb: { enabled: boolean; minAvailable: number | undefined; maxUnavailable: number | undefined };
    autoscaling: { minReplicas: number; maxReplicas: number; targetCPUUtilizationPercentage: number } | undefined;
    rootV3: RootV3;
    trustedProxies: readonly string[];
    env: readonly V1EnvVar[];
  };
  populator: {
    resources: V1ResourceRequirements | undefined;
    batchTransactions: number | undefined;
    env: readonly V1EnvVar[];
    scheduling: PodScheduling;
  };
  jobs: {
    resources: V1ResourceRequirements | undefined;
    /** the InPlace reload Jobs' (`mdw -H`): spec.jobs.reloadResources, else the populator's */
    reloadResources: V1ResourceRequirements | undefined;
    migrationDeadlineSeconds: number;
    scheduling: PodScheduling;
  };
  serviceAccount: { annotations: Readonly<Record<string, string>>; labels: Readonly<Record<string, string>> };
  metrics: { serviceMonitor: { enabled: boolean; interval: string } };
  forkWindow: number;
  statusMaxBlockAge: number;
  logLevel: LogLevel;
  paused: boolean;
  reclaimPolicy: ReclaimPolicy;
  reload: ResolvedReload | undefined;
  promotion: { syncedWithinBlocks: number; stableWindowSeconds: number };
};

/**
 * resolveSpec fills in every default; call it on a spec that validateMiddleware accepted. The schema prefix depends on
 * the object (its name, its status): the caller gives it (schemaPrefixOf).
 */
export function resolveSpec(spec: MiddlewareSpec, schemaPrefix: string): ResolvedSpec {
  const D = SPEC_DEFAULTS;
  const server = spec.server ?? {};
  const pdb = server.pdb ?? {};
  const hasMin = pdb.minAvailable !== undefined;
  return {
    nodeUrls: [...spec.nodeUrls],
    nodeInternalUrl: spec.nodeInternalUrl,
    compilerUrl: spec.compilerUrl,
    database: {
      urlSecretRef: { ...spec.database.urlSecretRef },
      schemaPrefix,
      storageCapacityBytes:
        spec.database.storageCapacity === undefined ? undefined : parseByteQuantity(spec.database.storageCapacity),
      readReplicas: resolveReadReplicas(spec.database),
    },
    image: spec.image,
    imagePullPolicy: spec.imagePullPolicy ?? D.imagePullPolicy,
    imagePullSecrets: spec.imagePullSecrets ?? [],
    server: {
      replicas: server.replicas ?? D.serverReplicas,
      previewReplicas: Math.min(server.previewReplicas ?? D.previewReplicas, server.replicas ?? D.serverReplicas),
      scheduling: schedulingOf(server),
      resources: server.resources,
      http: { type: server.http?.type ?? D.httpServiceType, port: server.http?.port ?? D.httpPort },
      websocket: { port: server.websocket?.port ?? D.websocketPort },
      ingress: server.ingress,
      pdb: {
        enabled: pdb.enabled ?? D.pdbEnabled,
        minAvailable: pdb.minAvailable,
        // The default budget applies only when the user chose neither form.
        maxUnavailable: pdb.maxUnavailable ?? (hasMin ? undefined : D.pdbMaxUnavailable),
      },
      autoscaling: server.autoscaling && {
        minReplicas: server.autoscaling.minReplicas ?? D.autoscalingMinReplicas,
        maxReplicas: server.autoscaling.maxReplicas,
        targetCPUUtilizationPercentage: server.autoscaling.targetCPUUtilizationPercentage ?? D.autoscalingTargetCPU,
      },
      rootV3: server.rootV3 ?? D.rootV3,
      trustedProxies: server.trustedProxies ?? [],
      env: server.env ?? [],
    },
    populator: {
      resources: spec.populator?.resources,
      batchTransactions: spec.populator?.batchTransactions,
      env: spec.populator?.env ?? [],
      scheduling: schedulingOf(spec.populator),
    },
    jobs: {
      resources: spec.jobs?.resources,
      reloadResources: spec.jobs?.reloadResources ?? spec.populator?.resources,
      migrationDeadlineSeconds: parseDurationSeconds(spec.jobs?.migrationDeadline ?? D.migrationDeadline) ?? 0,
      scheduling: schedulingOf(spec.jobs),
    },
    serviceAccount: {
      annotations: spec.serviceAccountTemplate?.metadata?.annotations ?? {},
      labels: spec.serviceAccountTemplate?.metadata?.labels ?? {},
    },
    metrics: {
      serviceMonitor: {
        enabled: spec.metrics?.serviceMonitor?.enabled ?? D.serviceMonitorEnabled,
        interval: spec.metrics?.serviceMonitor?.interval ?? D.serviceMonitorInterval,
      },
    },
    forkWindow: spec.forkWindow ?? D.forkWindow,
    statusMaxBlockAge: spec.statusMaxBlockAge ?? D.statusMaxBlockAge,
    logLevel: spec.logLevel ?? D.logLevel,
    paused: spec.paused ?? D.paused,
    reclaimPolicy: spec.reclaimPolicy ?? D.reclaimPolicy,
    reload: spec.reload && resolveReload(spec.reload),
    promotion: {
      syncedWithinBlocks: spec.promotion?.syncedWithinBlocks ?? D.syncedWithinBlocks,
      stableWindowSeconds: spec.promotion?.stableWindowSeconds ?? D.stableWindowSeconds,
    },
  };
}

/** parseDurationSeconds turns "1h30m" into 5400; undefined when the text is not a duration. */
export function parseDurationSeconds(text: string): number | undefined {
  if (!new RegExp(PATTERNS.duration).test(text)) return undefined;
  const unit: Record<string, number> = { s: 1, m: 60, h: 3600 };
  let total = 0;
  for (const [, amount, u] of text.matchAll(/([0-9]+)([smh])/g)) total += Number(amount) * (unit[u ?? 's'] ?? 1);
  return total;
}

const QUANTITY_UNITS: Record<string, number> = {
  '': 1,
  Ki: 2 ** 10,
  Mi: 2 ** 20,
  Gi: 2 ** 30,
  Ti: 2 ** 40,
  Pi: 2 ** 50,
  Ei: 2 ** 60,
  k: 1e3,
  M: 1e6,
  G: 1e9,
  T: 1e12,
  P: 1e15,
  E: 1e18,
};

/** parseByteQuantity turns a Kubernetes byte quantity ("500Gi", "1.5T") into bytes, rounded down; undefined when it is not one. */
export function parseByteQuantity(text: string): number | undefined {
  if (!new RegExp(PATTERNS.byteQuantity).test(text)) return undefined;
  const [, amount = '0', unit = ''] = /^([0-9.]+)(.*)$/.exec(text) ?? [];
  return Math.floor(Number(amount) * (QUANTITY_UNITS[unit] ?? 1));
}

/** SCHEDULING_FIELDS are the fields of PodScheduling, which a component's spec carries beside its own. */
const SCHEDULING_FIELDS = [
  'nodeSelector',
  'tolerations',
  'affinity',
  'topologySpreadConstraints',
  'priorityClassName',
  'podMetadata',
] as const satisfies readonly (keyof PodScheduling)[];

function schedulingOf(component: PodScheduling | undefined): PodScheduling {
  const picked = SCHEDULING_FIELDS.filter((k) => component?.[k] !== undefined).map((k) => [k, component?.[k]]);
  return Object.fromEntries(picked) as PodScheduling;
}

function resolveReadReplicas(database: MiddlewareSpec['database']): ResolvedReadReplicas | undefined {
  const { readReplicas, urlSecretRef } = database;
  if (readReplicas === undefined) return undefined;
  const { cnpg, urlsSecretRef, maxLagSeconds } = readReplicas;
  // validateMiddleware lets exactly one source through
  if (cnpg !== undefined) {
    const credentialsSecretName = cnpg.credentialsSecretName ?? urlSecretRef.name;
    return { cnpg: { cluster: cnpg.cluster, credentialsSecretName }, maxLagSeconds };
  }
  return urlsSecretRef && { urlsSecretRef: { ...urlsSecretRef }, maxLagSeconds };
}

function resolveReload(reload: NonNullable<MiddlewareSpec['reload']>): ResolvedReload {
  const retainPrevious = reload.retainPrevious ?? SPEC_DEFAULTS.retainPrevious;
  const deadline = reload.deadline ?? SPEC_DEFAULTS.reloadDeadline;
  return {
    id: reload.id,
    heights: reload.heights,
    strategy: reload.strategy ?? SPEC_DEFAULTS.reloadStrategy,
    autoPromote: reload.autoPromote ?? SPEC_DEFAULTS.autoPromote,
    retainPrevious,
    retainPreviousSeconds: parseDurationSeconds(retainPrevious) ?? 0,
    deadline,
    deadlineSeconds: parseDurationSeconds(deadline) ?? 0,
  };
}
