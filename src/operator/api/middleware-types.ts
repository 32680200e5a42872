/** @module The Middleware custom resource (middleware.aeternity.io/v1alpha1): its spec and status as TypeScript types. */
import type {
  V1Affinity,
  V1EnvVar,
  V1LocalObjectReference,
  V1ObjectMeta,
  V1ResourceRequirements,
  V1Toleration,
  V1TopologySpreadConstraint,
} from '@kubernetes/client-node';

/** API group of the Middleware custom resource. */
export const GROUP = 'middleware.aeternity.io';
/** Served and stored version; see docs/operator-crd.md for the v1beta1 → v1 plan. */
export const VERSION = 'v1alpha1';
/** apiVersion written in every Middleware object. */
export const API_VERSION = `${GROUP}/${VERSION}` as const;
/** Kind of the custom resource. */
export const KIND = 'Middleware';
/** Resource names as the API server exposes them (plural is the REST path segment). */
export const NAMES = {
  plural: 'middlewares',
  singular: 'middleware',
  kind: KIND,
  listKind: 'MiddlewareList',
  shortNames: ['mdw'],
  categories: ['aeternity'],
} as const;

/** ReloadStrategy: BlueGreen builds a new generation beside the serving one; InPlace re-runs heights on the active one. */
export const ReloadStrategy = { BlueGreen: 'BlueGreen', InPlace: 'InPlace' } as const;
export type ReloadStrategy = (typeof ReloadStrategy)[keyof typeof ReloadStrategy];

/** ReclaimPolicy: what deleting a Middleware does to its schemas (Retain keeps them, as CNPG does for databases). */
export const ReclaimPolicy = { Retain: 'Retain', Delete: 'Delete' } as const;
export type ReclaimPolicy = (typeof ReclaimPolicy)[keyof typeof ReclaimPolicy];

/** PullPolicy mirrors the container imagePullPolicy values. */
export const PullPolicy = { Always: 'Always', IfNotPresent: 'IfNotPresent', Never: 'Never' } as const;
export type PullPolicy = (typeof PullPolicy)[keyof typeof PullPolicy];

/** ServiceType: the Service types a Middleware may ask for its HTTP/websocket Service. */
export const ServiceType = { ClusterIP: 'ClusterIP', NodePort: 'NodePort', LoadBalancer: 'LoadBalancer' } as const;
export type ServiceType = (typeof ServiceType)[keyof typeof ServiceType];

/** RootV3: what the servers' root /v3 is (ROOT_V3): the node's API, as a gateway lays it out, or ae_mdw's (before that). */
export const RootV3 = { node: 'node', mdw: 'mdw' } as const;
export type RootV3 = (typeof RootV3)[keyof typeof RootV3];

/** LogLevel: the LOG_LEVEL values the middleware accepts (src/config/). */
export const LogLevel = {
  trace: 'trace',
  debug: 'debug',
  info: 'info',
  warn: 'warn',
  error: 'error',
  fatal: 'fatal',
  silent: 'silent',
} as const;
export type LogLevel = (typeof LogLevel)[keyof typeof LogLevel];

/** ConditionType: the condition types the operator maintains in status.conditions. */
export const ConditionType = {
  Reconciled: 'Reconciled',
  Available: 'Available',
  MigrationsApplied: 'MigrationsApplied',
  Synced: 'Synced',
  Reindexing: 'Reindexing',
  Degraded: 'Degraded',
  ReconciliationPaused: 'ReconciliationPaused',
  PendingPopulatorReady: 'PendingPopulatorReady',
  DatabaseSpace: 'DatabaseSpace',
  OperandVersion: 'OperandVersion',
} as const;
export type ConditionType = (typeof ConditionType)[keyof typeof ConditionType];

/** ConditionStatus: the three metav1.Condition status values. */
export const ConditionStatus = { True: 'True', False: 'False', Unknown: 'Unknown' } as const;
export type ConditionStatus = (typeof ConditionStatus)[keyof typeof ConditionStatus];

/** Phase: one word for humans (`kubectl get`); machines read conditions. */
export const Phase = {
  Pending: 'Pending',
  Migrating: 'Migrating',
  Syncing: 'Syncing',
  Available: 'Available',
  Reindexing: 'Reindexing',
  Degraded: 'Degraded',
  Paused: 'Paused',
  Invalid: 'Invalid',
} as const;
export type Phase = (typeof Phase)[keyof typeof Phase];

/** ReloadState: where a requested reload stands (status.reload.state); the controller's state machine owns the transitions. */
export const ReloadState = {
  /** BlueGreen: a Job measures the database (its size, its generation schemas) before anything is built. */
  CheckingDatabase: 'CheckingDatabase',
  Migrating: 'Migrating',
  CatchingUp: 'CatchingUp',
  AwaitingPromotion: 'AwaitingPromotion',
  Promoted: 'Promoted',
  /** InPlace: a Job runs `mdw -H <heights>` against the active schema. */
  Reloading: 'Reloading',
  /** A retired generation's workloads are deleted and its schema dropped. */
  CleaningUp: 'CleaningUp',
  Completed: 'Completed',
  RolledBack: 'RolledBack',
  Failed: 'Failed',
  Aborted: 'Aborted',
} as const;
export type ReloadState = (typeof ReloadState)[keyof typeof ReloadState];

/** SecretKeyRef names one key of a Secret in the Middleware's namespace. */
export type SecretKeyRef = {
  name: string;
  key: string;
};

/** CnpgReadReplicas names a CloudNativePG cluster whose `<cluster>-ro` Service the servers read from. */
export type CnpgReadReplicas = {
  cluster: string;
  credentialsSecretName?: string;
};

/** ReadReplicasSpec: PostgreSQL replicas the servers read from (DATABASE_READ_URLS); exactly one of cnpg and urlsSecretRef. */
export type ReadReplicasSpec = {
  cnpg?: CnpgReadReplicas;
  urlsSecretRef?: SecretKeyRef;
  maxLagSeconds?: number;
};

/** IngressSpec exposes the stable Service; presence of `host` is what enables it. */
export type IngressSpec = {
  className?: string;
  host: string;
  tlsSecretName?: string;
  annotations?: Record<string, string>;
  websocketPath?: string;
};

/** AutoscalingSpec: a HorizontalPodAutoscaler that scales the Middleware itself through its scale subresource. */
export type AutoscalingSpec = {
  minReplicas?: number;
  maxReplicas: number;
  targetCPUUtilizationPercentage?: number;
};

/** PdbSpec: the PodDisruptionBudget of each generation's servers; minAvailable and maxUnavailable exclude each other. */
export type PdbSpec = {
  enabled?: boolean;
  minAvailable?: number;
  maxUnavailable?: number;
};

/** ReloadSpec requests a data reload; changing `id` is what starts a new one. */
export type ReloadSpec = {
  id: string;
  heights?: string;
  strategy?: ReloadStrategy;
  autoPromote?: boolean;
  retainPrevious?: string;
  deadline?: string;
};

/** PodScheduling places and labels the pods of one component (servers, populator, Jobs). */
export type PodScheduling = {
  nodeSelector?: Record<string, string>;
  tolerations?: V1Toleration[];
  affinity?: V1Affinity;
  topologySpreadConstraints?: V1TopologySpreadConstraint[];
  priorityClassName?: string;
  podMetadata?: { labels?: Record<string, string>; annotations?: Record<string, string> };
};

/** ServerSpec: the read-only API servers (`mdw -s`) of each generation. */
export interface ServerSpec extends PodScheduling {
  replicas?: number;
  previewReplicas?: number;
  resources?: V1ResourceRequirements;
  http?: {
    type?: ServiceType;
    port?: number;
  };
  websocket?: {
    port?: number;
  };
  ingress?: IngressSpec;
  pdb?: PdbSpec;
  autoscaling?: AutoscalingSpec;
  rootV3?: RootV3;
  trustedProxies?: string[];
  env?: V1EnvVar[];
}

/** PopulatorSpec: the populator (`mdw -p`) of each generation. */
export interface PopulatorSpec extends PodScheduling {
  resources?: V1ResourceRequirements;
  batchTransactions?: number;
  env?: V1EnvVar[];
}

/** WebhooksSpec: the webhooks (docs/webhooks.md). */
export interface WebhooksSpec {
  /** Run the webhook sender inside each generation's populator (`mdw -p --webhooks`). */
  enabled?: boolean;
  /** WEBHOOKS_ANONYMOUS: the webhooks API answers requests without an API key; off on a public instance. */
  anonymous?: boolean;
  /** WEBHOOKS_ALLOW_PRIVATE: deliver to receivers at private and loopback addresses (inside the cluster). */
  allowPrivate?: boolean;
}

/** JobsSpec: the migration, reload, schema drop and database usage Jobs. */
export interface JobsSpec extends PodScheduling {
  resources?: V1ResourceRequirements;
  reloadResources?: V1ResourceRequirements;
  migrationDeadline?: string;
}

/**
 * MiddlewareSpec is the spec as a user writes it: everything with a default may be omitted. Each field is declared,
 * bounded and documented once, in the field table (spec-fields.ts); `npx tsc` checks this type against it.
 */
export type MiddlewareSpec = {
  nodeUrls: string[];
  nodeInternalUrl?: string;
  compilerUrl?: string;
  database: {
    urlSecretRef: SecretKeyRef;
    schemaPrefix?: string;
    storageCapacity?: string;
    readReplicas?: ReadReplicasSpec;
  };
  image?: string;
  imagePullPolicy?: PullPolicy;
  imagePullSecrets?: V1LocalObjectReference[];
  server?: ServerSpec;
  populator?: PopulatorSpec;
  jobs?: JobsSpec;
  webhooks?: WebhooksSpec;
  serviceAccountTemplate?: {
    metadata?: { annotations?: Record<string, string>; labels?: Record<string, string> };
  };
  metrics?: {
    serviceMonitor?: {
      enabled?: boolean;
      interval?: string;
    };
  };
  forkWindow?: number;
  statusMaxBlockAge?: number;
  logLevel?: LogLevel;
  paused?: boolean;
  reclaimPolicy?: ReclaimPolicy;
  reload?: ReloadSpec;
  promotion?: { syncedWithinBlocks?: number; stableWindowSeconds?: number };
};

/** MiddlewareCondition has the metav1.Condition shape. */
export type MiddlewareCondition = {
  /** What the condition is about (Reconciled, Available, Synced, …). */
  type: ConditionType;
  /** True, False or Unknown. */
  status: ConditionStatus;
  /** CamelCase reason of the last transition, for machines. */
  reason: string;
  /** Human-readable details. */
  message: string;
  /** metadata.generation the condition was computed from. */
  observedGeneration?: number;
  /** When the status last changed. */
  lastTransitionTime: string;
};

/** ReloadStatus reports the progress of the reload named by spec.reload.id. */
export type ReloadStatus = {
  /** The spec.reload.id this reports on. */
  id: string;
  /** The strategy of the reload. */
  strategy: ReloadStrategy;
  /** Data generation being built (BlueGreen) or reloaded (InPlace). */
  generation: number;
  /** Where the reload stands (Migrating, CatchingUp, AwaitingPromotion, Promoted, CleaningUp, Completed, …). */
  state: ReloadState;
  /** When the reload started. */
  startedAt?: string;
  /** Since when the generation has been within promotion.syncedWithinBlocks of the node. */
  syncedSince?: string;
  /** Top stored height of the generation being built, at the last look. */
  height?: number;
  /** The node's height its status endpoint read, at the last look. */
  nodeHeight?: number;
  /** nodeHeight - height, at the last look. */
  lag?: number;
  /** When the reload reached its terminal state. */
  completedAt?: string;
  /** What the reload does now, or why it waits. */
  message?: string;
  /** The generation that served when the reload started. */
  fromGeneration?: number;
  /** The heights handed to `-H`. */
  heights?: string;
  /** When the stable Services switched to the new generation. */
  promotedAt?: string;
  /** The generation being cleaned up (workloads deleted, schema dropped). */
  cleanupGeneration?: number;
  /** The terminal state the clean-up ends in. */
  outcome?: ReloadState;
  /** The free-space check before a BlueGreen reload: its result and the sizes it compared. */
  spaceCheck?: SpaceCheck;
};

/** SpaceCheckResult: whether a BlueGreen reload's new generation fits in the database's volume. */
export const SpaceCheckResult = {
  /** It fits with the margin. */
  Sufficient: 'Sufficient',
  /** It does not: the reload was refused. */
  Insufficient: 'Insufficient',
  /** spec.database.storageCapacity is unset: nothing to compare with. */
  Skipped: 'Skipped',
} as const;
export type SpaceCheckResult = (typeof SpaceCheckResult)[keyof typeof SpaceCheckResult];

/** SpaceCheck is the outcome of the free-space check before a BlueGreen reload. */
export type SpaceCheck = {
  /** Sufficient, Insufficient or Skipped. */
  result: SpaceCheckResult;
  /** The sizes compared (or why nothing was compared). */
  message: string;
};

/** MiddlewareStatus is written by the operator through the status subresource only. */
export type MiddlewareStatus = {
  /** metadata.generation of the spec the status describes. */
  observedGeneration?: number;
  /** One word for people: Pending, Migrating, Syncing, Available, Reindexing, Degraded, Paused, Invalid. */
  phase?: Phase;
  /** metav1.Condition list: Reconciled, MigrationsApplied, Available, Synced, Reindexing, Degraded, …. */
  conditions?: MiddlewareCondition[];
  /** Data generation the stable Service selects. */
  activeGeneration?: number;
  /** Data generation being built behind the preview Service. */
  pendingGeneration?: number;
  /** Generation kept for rollback until previousExpiresAt. */
  previousGeneration?: number;
  /** When the retained previous generation is dropped. */
  previousExpiresAt?: string;
  /** Top stored height of the active generation. */
  height?: number;
  /** The node's height, as the active generation's status endpoint read it. */
  nodeHeight?: number;
  /** nodeHeight - height of the active generation. */
  lag?: number;
  /** Scale subresource: servers of the active generation. */
  replicas?: number;
  /** Servers of the active generation that are ready. */
  readyReplicas?: number;
  /** Scale subresource: label selector (string form) of the active generation's server pods. */
  selector?: string;
  /** Progress of the reload spec.reload requests. */
  reload?: ReloadStatus;
  /** The prefix this Middleware's schemas live under, recorded at its first generation (spec.database.schemaPrefix or its default). */
  schemaPrefix?: string;
  /** The operand image the workloads run, once its version was checked (a new image rolls only after its check). */
  operand?: OperandStatus;
};

/** OperandStatus is the image the operator accepted for the workloads and what its `mdw db usage` reported. */
export type OperandStatus = {
  /** The image reference the workloads run. */
  image: string;
  /** The version the image reported (package.json of its build). */
  version: string;
  /** The newest migration the image ships. */
  newestMigration?: string;
};

/** Middleware is the custom resource; a type alias (not an interface) so it is assignable to KubeObject. */
export type Middleware = {
  /** middleware.aeternity.io/v1alpha1. */
  apiVersion: typeof API_VERSION;
  /** Middleware. */
  kind: typeof KIND;
  /** Standard object metadata. */
  metadata: V1ObjectMeta;
  /** What the Middleware should run: node, database, servers, populator, reloads. */
  spec: MiddlewareSpec;
  /** What the operator observed, written through the status subresource. */
  status?: MiddlewareStatus;
};
