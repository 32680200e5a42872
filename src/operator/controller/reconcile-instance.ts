/** @module Reconciles the instance-wide children: identity, the stable and preview Services, autoscaler, Ingress, ServiceMonitor. */
import type { V1Service } from '@kubernetes/client-node';
import type { KubeObject } from '../kube/client.ts';
import { buildIngress } from '../specs/ingress.ts';
import { buildServerHpa } from '../specs/server-hpa.ts';
import { buildServiceAccount, buildWorkloadRoleBinding } from '../specs/service-account.ts';
import { buildServiceMonitor } from '../specs/service-monitor.ts';
import { isKubeError } from '../kube/client.ts';
import {
  buildPopulatorService,
  buildPreviewService,
  buildStableService,
  selectedGeneration,
} from '../specs/services.ts';
import { liveChild, writeChild, type PassContext } from './reconcile-generation.ts';
import type { DesiredLayout } from './bluegreen.ts';

/** reconcileIdentity applies the operands' ServiceAccount and the binding that lets populators hold their writer Leases. */
export async function reconcileIdentity(pass: PassContext): Promise<void> {
  await writeAll(pass, [buildServiceAccount(pass.build), buildWorkloadRoleBinding(pass.build)]);
}

/** ServiceReport says which generation the stable Service selected before this pass and whether the pass moved it. */
export interface ServiceReport {
  readonly selectedBefore: number | undefined;
  readonly switched: boolean;
}

/**
 * reconcileServices points the stable Service at the layout's stable generation (the blue/green
 * switch is this one write), keeps a preview Service for a pending generation with servers, and
 * the headless populator Service through which the populators' /metrics (sync height, lag) are scraped.
 */
export async function reconcileServices(pass: PassContext, layout: DesiredLayout): Promise<ServiceReport> {
  const stable = buildStableService(pass.build, layout.stableGeneration);
  const selectedBefore = selectedGeneration(liveChild<V1Service & KubeObject>(pass, stable));
  const preview = layout.generations.find((g) => g.preview);
  const before = pass.writes;
  await writeAll(pass, [stable]);
  const switched = pass.writes > before && selectedBefore !== undefined && selectedBefore !== layout.stableGeneration;
  if (preview !== undefined) await writeAll(pass, [buildPreviewService(pass.build, preview.generation)]);
  await writeAll(pass, [buildPopulatorService(pass.build)]);
  return { selectedBefore, switched };
}

/**
 * reconcileExtras applies the optional autoscaler and Ingress (absent ones are pruned later) and the ServiceMonitor.
 * A ServiceMonitor the cluster has no kind for (no prometheus-operator CRDs) must not stop the rest of the pass, its
 * pruning and clean-up included: it is skipped, and what is wrong is returned for a Warning Event.
 */
export async function reconcileExtras(pass: PassContext): Promise<string[]> {
  const extras = [buildServerHpa(pass.build), buildIngress(pass.build)];
  await writeAll(
    pass,
    extras.filter((o): o is NonNullable<typeof o> => o !== undefined),
  );
  const monitor = buildServiceMonitor(pass.build);
  if (monitor === undefined) return [];
  try {
    await writeAll(pass, [monitor]);
    return [];
  } catch (err) {
    if (!isKubeError(err, 404)) throw err;
    return [
      `spec.metrics.serviceMonitor.enabled is true, but the cluster serves no ${monitor.apiVersion} ServiceMonitor: install the prometheus-operator CRDs (or disable it); everything else is reconciled`,
    ];
  }
}

async function writeAll(pass: PassContext, objects: readonly KubeObject[]): Promise<void> {
  for (const desired of objects) {
    pass.keep.keep(desired);
    await writeChild(pass, desired);
  }
}
