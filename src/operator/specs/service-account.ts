/** @module Builds the ServiceAccount of a Middleware's pods and the binding that lets populators hold their writer Leases. Pure. */
import type { V1RoleBinding, V1ServiceAccount } from '@kubernetes/client-node';
import type { Built, BuildContext } from './meta.ts';
import { childMeta, childName, instanceLabels, serviceAccountName } from './meta.ts';
import { withInputHash } from './hash.ts';
import { WRITER_LEASE_ROLE } from './rbac.ts';

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
 * buildWorkloadRoleBinding lets the operand ServiceAccount hold its populators' writer Leases, in the Middleware's
 * namespace, through the install's fixed WRITER_LEASE_ROLE: the operator may `bind` it without holding Lease verbs.
 * Named apart from the binding of older versions (to a per-Middleware Role): a binding's roleRef cannot change.
 */
export function buildWorkloadRoleBinding(ctx: BuildContext): Built<V1RoleBinding> {
  const account = serviceAccountName(ctx.mw);
  return withInputHash({
    apiVersion: 'rbac.authorization.k8s.io/v1',
    kind: 'RoleBinding',
    metadata: childMeta(ctx, childName(ctx.mw, 'writer-lease'), instanceLabels(ctx.mw)),
    roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: WRITER_LEASE_ROLE },
    subjects: [{ kind: 'ServiceAccount', name: account, namespace: ctx.mw.metadata.namespace ?? 'default' }],
  });
}
