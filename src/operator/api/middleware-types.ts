/** @module The Middleware custom resource (middleware.aeternity.io/v1alpha1): its spec and status as TypeScript types. */
import type { V1EnvVar, V1LocalObjectReference, V1ObjectMeta, V1ResourceRequirements } from '@kubernetes/client-node';

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
  /** Name of the Secret, in the Middleware's namespace. */
  name: string;
  /** Key of the Secret whose value is used. */
  key: string;
};

/** CnpgReadReplicas names a CloudNativePG cluster whose `<cluster>-ro` Service the servers read from. */
export type CnpgReadReplicas = {
  /** Name of the CloudNativePG Cluster, in the Middleware's namespace: the servers read through its `<cluster>-ro` Service. */
  cluster: string;
  /**
   * Secret with the keys `user`, `password` and `dbname` (CloudNativePG's `<cluster>-app` has them); default: the
   * primary's Secret (database.urlSecretRef.name), so the replicas are read with the primary's credentials.
   */
  credentialsSecretName?: string;
};

/** ReadReplicasSpec: PostgreSQL replicas the servers read from (DATABASE_READ_URLS); exactly one of cnpg and urlsSecretRef. */
export type ReadReplicasSpec = {
  /** A CloudNativePG cluster's read-only Service, with credentials from a Secret. */
  cnpg?: CnpgReadReplicas;
  /** Secret key holding the replicas' PostgreSQL URLs, comma-separated (DATABASE_READ_URLS). */
  urlsSecretRef?: SecretKeyRef;
  /** READ_REPLICA_MAX_LAG_SECONDS: seconds a server's replica may lag behind the primary before its /readyz fails (default 30). */
  maxLagSeconds?: number;
};

/** IngressSpec exposes the stable Service; presence of `host` is what enables it. */
export type IngressSpec = {
  /** IngressClass that serves it; the cluster's default class when absent. */
  className?: string;
  /** Host name the Ingress answers for. */
  host: string;
  /** Secret holding the TLS certificate for host; no TLS when absent. */
  tlsSecretName?: string;
  /** Annotations of the Ingress (cert-manager, controller settings). */
  annotations?: Record<string, string>;
  /** When set, this path prefix is routed to the websocket port; everything else goes to HTTP. */
  websocketPath?: string;
};

/** AutoscalingSpec: a HorizontalPodAutoscaler that scales the Middleware itself through its scale subresource. */
export type AutoscalingSpec = {
  /** Fewest servers the autoscaler keeps. */
  minReplicas?: number;
  /** Most servers the autoscaler starts. */
  maxReplicas: number;
  /** Average CPU use, in percent of the servers' requests, that the autoscaler aims at. */
  targetCPUUtilizationPercentage?: number;
};

/** PdbSpec: the PodDisruptionBudget of each generation's servers; minAvailable and maxUnavailable exclude each other. */
export type PdbSpec = {
  /** Whether each generation's servers get a PodDisruptionBudget. */
  enabled?: boolean;
  /** Servers that must stay up through a voluntary disruption (a drain). */
  minAvailable?: number;
  /** Servers a voluntary disruption may take at once. */
  maxUnavailable?: number;
};

/** ReloadSpec requests a data reload; changing `id` is what starts a new one. */
export type ReloadSpec = {
  /** Identifies the request: a new id requests a new reload. */
  id: string;
  /** Height list like `mdw -H` takes ("1,3-4,6"); required for InPlace, optional for BlueGreen (default: whole chain). */
  heights?: string;
  /** BlueGreen builds a new generation beside the serving one; InPlace reloads heights in the serving one. */
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
  /** NODE_INTERNAL_URL: the node's internal API (port 3113), forwarded by the servers when set. */
  nodeInternalUrl?: string;
  /** COMPILER_URL: a Sophia compiler HTTP API; contract calls are decoded in-process without it. */
  compilerUrl?: string;
  /** The PostgreSQL database all generations share, one schema each. */
  database: {
    /** Secret key holding the PostgreSQL connection URL (DATABASE_URL). */
    urlSecretRef: SecretKeyRef;
    /**
     * Schemas are named `<schemaPrefix><generation>`; default `<name>_g` (mainnet_g1, mainnet_g2, …), so Middlewares
     * sharing a database never share a schema (one that ran before this default keeps `mdw_g`). Immutable.
     */
    schemaPrefix?: string;
    /**
     * Capacity of the database's volume, a quantity ("500Gi"): PostgreSQL cannot tell its volume's free space. With
     * it, a BlueGreen reload starts only when the new generation (the active one's size plus 20 %) fits beside the
     * database's size; unset, that check is skipped (condition DatabaseSpace Unknown, and an Event says so).
     */
    storageCapacity?: string;
    /** Replicas the servers read from; the populator, migration and reload Jobs stay on the primary. */
    readReplicas?: ReadReplicasSpec;
  };
  /** Container image of the middleware; default: the operator's own image. */
  image?: string;
  /** imagePullPolicy of every middleware container. */
  imagePullPolicy?: PullPolicy;
  /** Secrets for pulling the image from a private registry. */
  imagePullSecrets?: V1LocalObjectReference[];
  /** The read-only API servers (`mdw -s`) of each generation. */
  server?: {
    /** Servers of the active generation (the scale subresource writes it). */
    replicas?: number;
    /** CPU and memory of each server container. */
    resources?: V1ResourceRequirements;
    /** The stable Service's HTTP port. */
    http?: {
      /** Service type of the stable Service (ClusterIP, NodePort, LoadBalancer). */
      type?: ServiceType;
      /** Port of the HTTP API on the stable Service. */
      port?: number;
    };
    /** The stable Service's websocket port. */
    websocket?: {
      /** Port of the websocket on the stable Service. */
      port?: number;
    };
    /** An Ingress in front of the stable Service. */
    ingress?: IngressSpec;
    /** The servers' PodDisruptionBudget (default: on, at most one unavailable). */
    pdb?: PdbSpec;
    /** A HorizontalPodAutoscaler over the servers. */
    autoscaling?: AutoscalingSpec;
    /** ROOT_V3: the root /v3 is the node's API (node, default) or also ae_mdw's, as before the gateway layout (mdw). */
    rootV3?: RootV3;
    /**
     * TRUSTED_PROXIES: addresses and CIDR networks of the proxies in front of the servers (the ingress controller's
     * pods): a client behind them is told by its X-Forwarded-For address (ae_mdw's sockets per address).
     */
    trustedProxies?: string[];
    /**
     * More variables of the server containers (README's Configuration: CORS_ORIGINS, WEBSOCKET_*, API_CACHE_MAX_BYTES,
     * …), a value or a Secret's, ConfigMap's or the pod's; the ones the operator sets itself are refused.
     */
    env?: V1EnvVar[];
  };
  /** The populator (`mdw -p`) of each generation. */
  populator?: {
    /** CPU and memory of the populator container. */
    resources?: V1ResourceRequirements;
    /** BATCH_TRANSACTIONS: transactions written in one database transaction at most. */
    batchTransactions?: number;
    /**
     * More variables of the populator container and of the reload Jobs, which load the chain as it does
     * (FETCH_CONCURRENCY, REWARD_RULES, DEX_*, …); the ones the operator sets itself are refused.
     */
    env?: V1EnvVar[];
  };
  /** How the middleware pods' /metrics are scraped. */
  metrics?: {
    /** A prometheus-operator ServiceMonitor over the stable, preview and populator Services. */
    serviceMonitor?: {
      /** Whether the operator creates the ServiceMonitor (needs the prometheus-operator CRDs). */
      enabled?: boolean;
      /** Scrape interval, as a duration ("30s"). */
      interval?: string;
    };
  };
  forkWindow?: number;
  statusMaxBlockAge?: number;
  /** LOG_LEVEL of every middleware container. */
  logLevel?: LogLevel;
  paused?: boolean;
  /** Retain (default): deleting the Middleware keeps its schemas; Delete drops them with Jobs first. */
  reclaimPolicy?: ReclaimPolicy;
  /** A data reload: set a new id to request one (`mdw reload` does). */
  reload?: ReloadSpec;
  /** The gate a new generation passes before the stable Services switch to it. */
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
