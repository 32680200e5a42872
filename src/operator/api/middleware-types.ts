/** @module The Middleware custom resource (middleware.aeternity.io/v1alpha1): its spec and status as TypeScript types. */
import type { V1LocalObjectReference, V1ObjectMeta, V1ResourceRequirements } from '@kubernetes/client-node';

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

/** LogLevel: the LOG_LEVEL values the middleware accepts (src/config.ts). */
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
export type SecretKeyRef = { name: string; key: string };

/** IngressSpec exposes the stable Service; presence of `host` is what enables it. */
export type IngressSpec = {
  className?: string;
  host: string;
  /** Secret holding the TLS certificate for host; no TLS when absent. */
  tlsSecretName?: string;
  annotations?: Record<string, string>;
  /** When set, this path prefix is routed to the websocket port; everything else goes to HTTP. */
  websocketPath?: string;
};

/** AutoscalingSpec: a HorizontalPodAutoscaler that scales the Middleware itself through its scale subresource. */
export type AutoscalingSpec = { minReplicas?: number; maxReplicas: number; targetCPUUtilizationPercentage?: number };

/** PdbSpec: the PodDisruptionBudget of each generation's servers; minAvailable and maxUnavailable exclude each other. */
export type PdbSpec = { enabled?: boolean; minAvailable?: number; maxUnavailable?: number };

/** ReloadSpec requests a data reload; changing `id` is what starts a new one. */
export type ReloadSpec = {
  id: string;
  /** Height list like `mdw -H` takes ("1,3-4,6"); required for InPlace, optional for BlueGreen (default: whole chain). */
  heights?: string;
  strategy?: ReloadStrategy;
  /** false: the new generation waits for approval (set it to true to promote). */
  autoPromote?: boolean;
  /** How long the previous generation stays after a switch, as a duration ("30m", "6h", "0s"). */
  retainPrevious?: string;
  /**
   * How long a BlueGreen reload may take from its start until its generation passes the gate ("48h"); past it the
   * reload ends Failed and its generation is dropped (a populator that crash-loops, a full disk).
   */
  deadline?: string;
};

/** MiddlewareSpec is the spec as a user writes it: everything with a default may be omitted. */
export type MiddlewareSpec = {
  /** Node external API URLs; the first is the primary. */
  nodeUrls: string[];
  nodeInternalUrl?: string;
  compilerUrl?: string;
  database: { urlSecretRef: SecretKeyRef; schemaPrefix?: string };
  /** Container image of the middleware; default: the operator's own image. */
  image?: string;
  imagePullPolicy?: PullPolicy;
  imagePullSecrets?: V1LocalObjectReference[];
  server?: {
    replicas?: number;
    resources?: V1ResourceRequirements;
    http?: { type?: ServiceType; port?: number };
    websocket?: { port?: number };
    ingress?: IngressSpec;
    pdb?: PdbSpec;
    autoscaling?: AutoscalingSpec;
  };
  populator?: { resources?: V1ResourceRequirements; batchTransactions?: number };
  metrics?: { serviceMonitor?: { enabled?: boolean; interval?: string } };
  forkWindow?: number;
  statusMaxBlockAge?: number;
  logLevel?: LogLevel;
  paused?: boolean;
  /** Retain (default): deleting the Middleware keeps its schemas; Delete drops them with Jobs first. */
  reclaimPolicy?: ReclaimPolicy;
  reload?: ReloadSpec;
  promotion?: { syncedWithinBlocks?: number; stableWindowSeconds?: number };
};

/** MiddlewareCondition has the metav1.Condition shape. */
export type MiddlewareCondition = {
  type: ConditionType;
  status: ConditionStatus;
  reason: string;
  message: string;
  observedGeneration?: number;
  lastTransitionTime: string;
};

/** ReloadStatus reports the progress of the reload named by spec.reload.id. */
export type ReloadStatus = {
  id: string;
  strategy: ReloadStrategy;
  /** Data generation being built (BlueGreen) or reloaded (InPlace). */
  generation: number;
  state: ReloadState;
  startedAt?: string;
  /** Since when the generation has been within promotion.syncedWithinBlocks of the node. */
  syncedSince?: string;
  height?: number;
  nodeHeight?: number;
  lag?: number;
  completedAt?: string;
  message?: string;
  /** The generation that served when the reload started. */
  fromGeneration?: number;
  /** The heights handed to `-H`. */
  heights?: string;
  promotedAt?: string;
  /** The generation being cleaned up (workloads deleted, schema dropped). */
  cleanupGeneration?: number;
  /** The terminal state the clean-up ends in. */
  outcome?: ReloadState;
};

/** MiddlewareStatus is written by the operator through the status subresource only. */
export type MiddlewareStatus = {
  observedGeneration?: number;
  phase?: Phase;
  conditions?: MiddlewareCondition[];
  /** Data generation the stable Service selects. */
  activeGeneration?: number;
  /** Data generation being built behind the preview Service. */
  pendingGeneration?: number;
  /** Generation kept for rollback until previousExpiresAt. */
  previousGeneration?: number;
  previousExpiresAt?: string;
  height?: number;
  nodeHeight?: number;
  lag?: number;
  /** Scale subresource: servers of the active generation. */
  replicas?: number;
  readyReplicas?: number;
  /** Scale subresource: label selector (string form) of the active generation's server pods. */
  selector?: string;
  reload?: ReloadStatus;
};

/** Middleware is the custom resource; a type alias (not an interface) so it is assignable to KubeObject. */
export type Middleware = {
  apiVersion: typeof API_VERSION;
  kind: typeof KIND;
  metadata: V1ObjectMeta;
  spec: MiddlewareSpec;
  status?: MiddlewareStatus;
};
