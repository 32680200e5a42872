/** @module Least-privilege RBAC of the operator, generated from one list of the verbs it uses on each resource. Pure. */
import type {
  V1ClusterRole,
  V1ClusterRoleBinding,
  V1PolicyRule,
  V1Role,
  V1RoleBinding,
  V1ServiceAccount,
} from '@kubernetes/client-node';
import { GROUP, NAMES } from '../api/middleware-types.ts';
import type { Built } from './meta.ts';

/** Permission is one resource the operator touches (only the objects named, if resourceNames), the verbs and why. */
export interface Permission {
  readonly apiGroup: string;
  readonly resource: string;
  readonly resourceNames?: readonly string[];
  readonly verbs: readonly string[];
  readonly why: string;
}

/**
 * WRITER_LEASE_ROLE is the fixed ClusterRole that lets a populator hold its writer Lease. The install (chart or
 * `mdw manifests`) creates it; the operator binds it (a RoleBinding in each Middleware's namespace) without holding
 * its verbs, through `bind` on this one name: RBAC's escalation prevention allows a binding to a role one may `bind`.
 */
export const WRITER_LEASE_ROLE = 'mdw-writer-lease';

/**
 * writerLeaseRules: what a populator does with its writer Lease (a LeaderElector: read, create, renew). The names are
 * per generation, so the rules cannot list them; a RoleBinding limits them to the Middleware's namespace.
 */
export function writerLeaseRules(): V1PolicyRule[] {
  return [{ apiGroups: ['coordination.k8s.io'], resources: ['leases'], verbs: ['create', 'get', 'update'] }];
}

/**
 * Children are listed and watched (the informers cache every kind of child, selected by the operator's labels),
 * created and updated by server-side apply (patch; create when the object is new); the prunable ones deleted.
 */
const CHILD = ['create', 'list', 'patch', 'watch'] as const;
const PRUNED_CHILD = [...CHILD, 'delete'] as const;

/**
 * OPERATOR_PERMISSIONS: the ONE list every RBAC object (manifests, Helm chart) is generated from. It grants exactly
 * the verbs the operator's client calls use (test/operator/specs/rbac-used.test.ts derives them and fails on more).
 */
export const OPERATOR_PERMISSIONS: readonly Permission[] = [
  {
    apiGroup: GROUP,
    resource: NAMES.plural,
    verbs: ['get', 'list', 'watch', 'patch'],
    why: 'watch and read Middlewares; finalizers by merge patch',
  },
  {
    apiGroup: GROUP,
    resource: `${NAMES.plural}/status`,
    verbs: ['patch'],
    why: 'status written through the subresource only',
  },
  {
    apiGroup: GROUP,
    resource: `${NAMES.plural}/finalizers`,
    verbs: ['update'],
    why: 'blockOwnerDeletion on owned children',
  },
  { apiGroup: 'apps', resource: 'deployments', verbs: PRUNED_CHILD, why: 'populator and server Deployments' },
  { apiGroup: 'batch', resource: 'jobs', verbs: PRUNED_CHILD, why: 'migration, in-place reload and schema drop Jobs' },
  { apiGroup: '', resource: 'services', verbs: PRUNED_CHILD, why: 'stable and preview Services' },
  // Identity objects are never pruned: they go with the Middleware (garbage collection).
  { apiGroup: '', resource: 'serviceaccounts', verbs: CHILD, why: 'the operand ServiceAccount' },
  {
    apiGroup: 'rbac.authorization.k8s.io',
    resource: 'rolebindings',
    verbs: PRUNED_CHILD,
    why: 'binding the writer-Lease ClusterRole to the operand ServiceAccount (the binding of older versions pruned)',
  },
  {
    apiGroup: 'rbac.authorization.k8s.io',
    resource: 'clusterroles',
    resourceNames: [WRITER_LEASE_ROLE],
    verbs: ['bind'],
    why: 'RoleBindings to the writer-Lease ClusterRole, whose Lease verbs the operator does not hold',
  },
  { apiGroup: 'policy', resource: 'poddisruptionbudgets', verbs: PRUNED_CHILD, why: 'server PodDisruptionBudgets' },
  {
    apiGroup: 'autoscaling',
    resource: 'horizontalpodautoscalers',
    verbs: PRUNED_CHILD,
    why: 'optional server autoscaler',
  },
  { apiGroup: 'networking.k8s.io', resource: 'ingresses', verbs: PRUNED_CHILD, why: 'optional Ingress' },
  {
    apiGroup: 'monitoring.coreos.com',
    resource: 'servicemonitors',
    verbs: PRUNED_CHILD,
    why: 'optional ServiceMonitor',
  },
  { apiGroup: '', resource: 'events', verbs: ['create'], why: 'Events on Middlewares' },
  { apiGroup: '', resource: 'namespaces', verbs: ['get'], why: 'a namespace being deleted refuses drop Jobs' },
  {
    apiGroup: '',
    resource: 'pods',
    verbs: ['list'],
    why: "a database check's answer (its pod's termination message); a drop Job whose pod cannot start",
  },
];

/** LEADER_LEASE_NAME is the Lease the operator replicas elect a leader on (in the operator's namespace). */
export const LEADER_LEASE_NAME = 'mdw-operator-leader';
/** OPERATOR_NAME names the operator's ServiceAccount, roles, bindings and Deployment. */
export const OPERATOR_NAME = 'mdw-operator';

/** OperatorRbacOptions: where the operator runs, and which namespace it manages (all when unset). */
export interface OperatorRbacOptions {
  readonly namespace: string;
  readonly watchNamespace?: string | undefined;
  readonly labels?: Readonly<Record<string, string>>;
}

/** operatorRules merges OPERATOR_PERMISSIONS into policy rules: one rule per API group, verb set and names. */
export function operatorRules(): V1PolicyRule[] {
  const rules = new Map<string, V1PolicyRule>();
  for (const p of OPERATOR_PERMISSIONS) {
    const verbs = [...p.verbs].sort();
    const names = p.resourceNames === undefined ? {} : { resourceNames: [...p.resourceNames] };
    const key = `${p.apiGroup}|${verbs.join(',')}|${p.resourceNames?.join(',') ?? '*'}`;
    const rule = rules.get(key) ?? { apiGroups: [p.apiGroup], resources: [], ...names, verbs };
    rule.resources?.push(p.resource);
    rules.set(key, rule);
  }
  return [...rules.values()];
}

/** leaderElectionRules: create any Lease (RBAC cannot limit create by name), read and renew only the leader Lease. */
export function leaderElectionRules(): V1PolicyRule[] {
  return [
    { apiGroups: ['coordination.k8s.io'], resources: ['leases'], verbs: ['create'] },
    {
      apiGroups: ['coordination.k8s.io'],
      resources: ['leases'],
      resourceNames: [LEADER_LEASE_NAME],
      verbs: ['get', 'update'],
    },
  ];
}

/**
 * homeEventRules: Events in the operator's own namespace (on its pod), where it says what a Middleware's namespace
 * being deleted refuses (the schemas it keeps). Needed beside a Role in watchNamespace, which grants Events there only.
 */
export function homeEventRules(): V1PolicyRule[] {
  return [{ apiGroups: [''], resources: ['events'], verbs: ['create'] }];
}

/**
 * buildOperatorRbac returns the ServiceAccount, the operand role (ClusterRole, or a Role in watchNamespace), its
 * binding, the leader-election Role (with its home Events) and binding in the operator's namespace, and the
 * writer-Lease ClusterRole the operator binds for populators. No rule grants a Lease verb beyond one namespace.
 */
export function buildOperatorRbac(
  opts: OperatorRbacOptions,
): Built<V1ServiceAccount | V1ClusterRole | V1ClusterRoleBinding | V1Role | V1RoleBinding>[] {
  const labels = { ...opts.labels };
  const subject = { kind: 'ServiceAccount', name: OPERATOR_NAME, namespace: opts.namespace };
  const rbac = 'rbac.authorization.k8s.io/v1';
  const leaderName = `${OPERATOR_NAME}-leader-election`;
  const scoped = opts.watchNamespace !== undefined;
  const roleKind = scoped ? 'Role' : 'ClusterRole';
  const roleMeta = scoped
    ? { name: OPERATOR_NAME, namespace: opts.watchNamespace, labels }
    : { name: OPERATOR_NAME, labels };
  return [
    { apiVersion: 'v1', kind: 'ServiceAccount', metadata: { name: OPERATOR_NAME, namespace: opts.namespace, labels } },
    { apiVersion: rbac, kind: roleKind, metadata: roleMeta, rules: operatorRules() },
    {
      apiVersion: rbac,
      kind: `${roleKind}Binding`,
      metadata: { ...roleMeta, labels: { ...labels } },
      roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: roleKind, name: OPERATOR_NAME },
      subjects: [subject],
    },
    {
      apiVersion: rbac,
      kind: 'Role',
      metadata: { name: leaderName, namespace: opts.namespace, labels: { ...labels } },
      rules: [...leaderElectionRules(), ...homeEventRules()],
    },
    {
      apiVersion: rbac,
      kind: 'RoleBinding',
      metadata: { name: leaderName, namespace: opts.namespace, labels: { ...labels } },
      roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'Role', name: leaderName },
      subjects: [subject],
    },
    {
      apiVersion: rbac,
      kind: 'ClusterRole',
      metadata: { name: WRITER_LEASE_ROLE, labels: { ...labels } },
      rules: writerLeaseRules(),
    },
  ];
}
