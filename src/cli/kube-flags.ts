/** @module Flags shared by the admin commands that talk to a cluster. */
import { Flags } from '@oclif/core';
import type { KubeClient, LeaseKube } from '../operator/kube/client.ts';

export const kubeFlags = {
  namespace: Flags.string({ char: 'n', description: 'namespace of the Middleware', default: 'default' }),
  kubeconfig: Flags.string({ description: 'kubeconfig file (default: $KUBECONFIG, ~/.kube/config, then in-cluster)' }),
  context: Flags.string({ description: 'kubeconfig context' }),
};

/**
 * kubeClientFor connects through the same port the operator uses (loaded on demand: the client is heavy). The
 * kubeconfig is the flag's, else the validated KUBECONFIG the caller read (`loadKubeSettings`, `Config.kube`); every
 * request is bounded by its KUBE_REQUEST_TIMEOUT_MS.
 */
export async function kubeClientFor(
  flags: { kubeconfig?: string | undefined; context?: string | undefined },
  settings: { readonly kubeconfig: string | undefined; readonly requestTimeoutMs: number },
): Promise<KubeClient> {
  const { createKubeClient, loadKubeConfig } = await import('../operator/kube/real-client.ts');
  const kubeconfig = flags.kubeconfig ?? settings.kubeconfig;
  return createKubeClient(
    loadKubeConfig({
      ...(kubeconfig ? { kubeconfig } : {}),
      ...(flags.context ? { context: flags.context } : {}),
    }),
    { requestTimeoutMs: settings.requestTimeoutMs },
  );
}

/**
 * leaseKubeFor is the client of the populator's writer Lease: the Lease alone over undici where the credentials are
 * plain (lease-access.ts: the service account in a pod), without @kubernetes/client-node's ~870 modules (0.4–0.5 CPU-s
 * a start); kubeClientFor's where they are not.
 */
export async function leaseKubeFor(settings: {
  readonly kubeconfig: string | undefined;
  readonly requestTimeoutMs: number;
}): Promise<LeaseKube> {
  const { leaseAccess } = await import('../operator/kube/lease-access.ts');
  const access = await leaseAccess(settings.kubeconfig, process.env);
  if (access === undefined) return kubeClientFor({}, settings);
  const { createLeaseClient } = await import('../operator/kube/lease-client.ts');
  return createLeaseClient(access, settings.requestTimeoutMs);
}
