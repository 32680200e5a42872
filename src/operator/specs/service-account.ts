/** @module Builds the ServiceAccount of a Middleware's pods and the Role that lets populators hold their writer Leases. Pure. */
import type { V1Role, V1RoleBinding, V1ServiceAccount } from '@kubernetes/client-node';
import type { Built, BuildContext } from './meta.ts';
import { childMeta, instanceLabels, serviceAccountName, writerLeaseName } from './meta.ts';
import { withInputHash } from './hash.ts';

/**
 * buildServiceAccount is the identity of every operand pod; tokens are mounted per pod, only where needed. Its
 * annotations and labels are spec.serviceAccountTemplate's (a cloud's workload identity); the operator's labels win.
 */
export function buildServiceAccount(ctx: BuildContext): Built<V1ServiceAccount> {
  const { annotations, labels } = ctx.spec.serviceAccount;
  const metadata = childMeta(ctx, serviceAccountName(ctx.mw), { ...labels, ...instanceLabels(ctx.mw) });
  return withInputHash({
    apiVersion: 'v1',
    kind: 'ServiceAccount',
    metadata: Object.keys(annotations).length === 0 ? metadata : { ...metadata, annotations: { ...annotations } },
    automountServiceAccountToken: false,
  });
}

/**
 * buildWorkloadRole grants the populators of `generations` their writer Leases and nothing else: get/update by name;
 * create cannot be limited to names in RBAC, so it is granted on leases in the namespace.
 */
export function buildWorkloadRole(ctx: BuildContext, generations: readonly number[]): Built<V1Role> {
  const names = [...new Set(generations)].sort((a, b) => a - b).map((g) => writerLeaseName(ctx.mw, g));
  return withInputHash({
    apiVersion: 'rbac.authorization.k8s.io/v1',
    kind: 'Role',
    metadata: childMeta(ctx, serviceAccountName(ctx.mw), instanceLabels(ctx.mw)),
    rules: [
      { apiGroups: ['coordination.k8s.io'], resources: ['leases'], verbs: ['create'] },
      ...(names.length > 0
        ? [
            {
              apiGroups: ['coordination.k8s.io'],
              resources: ['leases'],
              resourceNames: names,
              verbs: ['get', 'update'],
            },
          ]
        : []),
    ],
  });
}

/** buildWorkloadRoleBinding binds the workload Role to the operand ServiceAccount. */
export function buildWorkloadRoleBinding(ctx: BuildContext): Built<V1RoleBinding> {
  const name = serviceAccountName(ctx.mw);
  return withInputHash({
    apiVersion: 'rbac.authorization.k8s.io/v1',
    kind: 'RoleBinding',
    metadata: childMeta(ctx, name, instanceLabels(ctx.mw)),
    roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'Role', name },
    subjects: [{ kind: 'ServiceAccount', name, namespace: ctx.mw.metadata.namespace ?? 'default' }],
  });
}
