/** @module Builds the PodDisruptionBudget of one generation's servers. Pure. */
import type { V1PodDisruptionBudget } from '@kubernetes/client-node';
import type { Built, BuildContext } from './meta.ts';
import { Component, childMeta, labelsFor, selectorFor } from './meta.ts';
import { serverDeploymentName } from './server-deployment.ts';
import { withInputHash } from './hash.ts';

/** buildServerPdb limits voluntary evictions of a generation's servers; undefined when spec.server.pdb.enabled is false. */
export function buildServerPdb(ctx: BuildContext, generation: number): Built<V1PodDisruptionBudget> | undefined {
  const { pdb } = ctx.spec.server;
  if (!pdb.enabled) return undefined;
  const budget =
    pdb.minAvailable !== undefined ? { minAvailable: pdb.minAvailable } : { maxUnavailable: pdb.maxUnavailable ?? 1 };
  return withInputHash({
    apiVersion: 'policy/v1',
    kind: 'PodDisruptionBudget',
    metadata: childMeta(ctx, serverDeploymentName(ctx, generation), labelsFor(ctx.mw, Component.server, generation)),
    spec: { ...budget, selector: { matchLabels: selectorFor(ctx.mw, Component.server, generation) } },
  });
}
