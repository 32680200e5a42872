/** @module The kinds of a Middleware's children, and the labels every one of them carries. Pure. */
import { APP_NAME, LABEL_MANAGED_BY, LABEL_NAME, MANAGED_BY, formatSelector } from './meta.ts';

/** ManagedKind is one kind the operator creates children of. */
export interface ManagedKind {
  readonly apiVersion: string;
  readonly kind: string;
  /** optional: served only when its CRD is installed (prometheus-operator's ServiceMonitor). */
  readonly optional?: boolean;
}

/** MANAGED_KINDS lists every kind of child, so the informers cache, and pruning and deletion find, all of them. */
export const MANAGED_KINDS: readonly ManagedKind[] = [
  { apiVersion: 'apps/v1', kind: 'Deployment' },
  { apiVersion: 'batch/v1', kind: 'Job' },
  { apiVersion: 'policy/v1', kind: 'PodDisruptionBudget' },
  { apiVersion: 'v1', kind: 'Service' },
  { apiVersion: 'autoscaling/v2', kind: 'HorizontalPodAutoscaler' },
  { apiVersion: 'networking.k8s.io/v1', kind: 'Ingress' },
  { apiVersion: 'monitoring.coreos.com/v1', kind: 'ServiceMonitor', optional: true },
  { apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'RoleBinding' },
  { apiVersion: 'v1', kind: 'ServiceAccount' },
];

/**
 * CHILD_SELECTOR selects what this operator created, of every Middleware: the informers list and watch only these,
 * never every Deployment, Job or Service of the cluster.
 */
export const CHILD_SELECTOR = formatSelector({ [LABEL_NAME]: APP_NAME, [LABEL_MANAGED_BY]: MANAGED_BY });
