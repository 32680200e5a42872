/** @module Builds the HorizontalPodAutoscaler (autoscaling/v2) that scales a Middleware's servers. Pure. */
import type { V2HorizontalPodAutoscaler } from '@kubernetes/client-node';
import { API_VERSION, KIND } from '../api/middleware-types.ts';
import type { Built, BuildContext } from './meta.ts';
import { Component, childMeta, childName, labelsFor } from './meta.ts';
import { withInputHash } from './hash.ts';

/**
 * buildServerHpa targets the Middleware itself through its scale subresource (status.selector picks the active
 * generation's pods), so the autoscaler survives a blue/green switch; undefined without spec.server.autoscaling.
 */
export function buildServerHpa(ctx: BuildContext): Built<V2HorizontalPodAutoscaler> | undefined {
  const scaling = ctx.spec.server.autoscaling;
  if (!scaling) return undefined;
  return withInputHash({
    apiVersion: 'autoscaling/v2',
    kind: 'HorizontalPodAutoscaler',
    metadata: childMeta(ctx, childName(ctx.mw, Component.server), labelsFor(ctx.mw, Component.server)),
    spec: {
      scaleTargetRef: { apiVersion: API_VERSION, kind: KIND, name: ctx.mw.metadata.name ?? '' },
      minReplicas: scaling.minReplicas,
      maxReplicas: scaling.maxReplicas,
      metrics: [
        {
          type: 'Resource',
          resource: {
            name: 'cpu',
            target: { type: 'Utilization', averageUtilization: scaling.targetCPUUtilizationPercentage },
          },
        },
      ],
    },
  });
}
