/** @module The Middleware custom resource (middleware.aeternity.io/v1alpha1): its spec and status as TypeScript types. */
import type { V1ObjectMeta } from '@kubernetes/client-node';
import type { TypeOf } from './field.ts';
import type { SchedulingFields, SPEC_FIELDS } from './spec-fields.ts';
import { enumeration } from './spec-values.ts';
import type { ReloadStrategy } from './spec-values.ts';

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

/** ConditionType: the condition types the operator maintains in status.conditions. */
export const ConditionType = enumeration(
  'Reconciled',
  'Available',
  'MigrationsApplied',
  'Synced',
  'Reindexing',
  'Degraded',
  'ReconciliationPaused',
  'PendingPopulatorReady',
  'DatabaseSpace',
  'OperandVersion',
);
export type ConditionType = (typeof ConditionType)[keyof typeof ConditionType];

/** ConditionStatus: the three metav1.Condition status values. */
export const ConditionStatus = { True: 'True', False: 'False', Unknown: 'Unknown' } as const;
export type ConditionStatus = (typeof ConditionStatus)[keyof typeof ConditionStatus];

/** Phase: one word for humans (`kubectl get`); machines read conditions. */
export const Phase = enumeration(
  'Pending',
  'Migrating',
  'Syncing',
  'Available',
  'Reindexing',
  'Degraded',
  'Paused',
  'Invalid',
);
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

/**
 * MiddlewareSpec is the spec as a user writes it: everything with a default may be omitted. It is the type of the
 * field table (spec-fields.ts), where each field is declared, bounded and documented once: a field is added as a row
 * there, and this type follows.
 */
export type MiddlewareSpec = TypeOf<typeof SPEC_FIELDS>;

/** SecretKeyRef names one key of a Secret in the Middleware's namespace. */
export type SecretKeyRef = MiddlewareSpec['database']['urlSecretRef'];

/** ReloadSpec requests a data reload; changing `id` is what starts a new one. */
export type ReloadSpec = NonNullable<MiddlewareSpec['reload']>;

/** SnapshotSource is where a new generation's schema is restored from: a URL or a volume (spec.bootstrap.snapshot, spec.reload.snapshot). */
export type SnapshotSource = NonNullable<NonNullable<MiddlewareSpec['bootstrap']>['snapshot']>;

/** RestoreState: where the restore of a generation from a snapshot stands (status.bootstrap.state). */
export const RestoreState = enumeration('Restoring', 'Restored', 'Failed');
export type RestoreState = (typeof RestoreState)[keyof typeof RestoreState];

/** BootstrapStatus records the first generation's restore from spec.bootstrap.snapshot, fixed when its schema was created. */
export type BootstrapStatus = {
  /** The generation restored (the first one this Middleware created). */
  generation: number;
  /** The source, as spec.bootstrap.snapshot named it then: later edits restore nothing. */
  snapshot: SnapshotSource;
  /** Restoring, Restored or Failed. */
  state: RestoreState;
  /** What the restore does now, or the import's error. */
  message: string;
  /** When the generation was created to be restored. */
  startedAt?: string;
  /** When its restore Job succeeded. */
  completedAt?: string;
};

/** PodScheduling places and labels the pods of one component (servers, populator, Jobs). */
export type PodScheduling = { -readonly [K in keyof SchedulingFields]?: TypeOf<SchedulingFields[K]> };

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
  /** The snapshot the new generation is restored from (spec.reload.snapshot when the reload started). */
  snapshot?: SnapshotSource;
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
  /** Generation switched from, running until previousExpiresAt (for a rollback, or draining after one). */
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
  /** The first generation's restore from spec.bootstrap.snapshot, when it started from one. */
  bootstrap?: BootstrapStatus;
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
