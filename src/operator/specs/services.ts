/** @module Builds the stable and preview Services: the blue/green switch is the stable Service's selector. Pure. */
import type { V1Service } from '@kubernetes/client-node';
import type { Built, BuildContext } from './meta.ts';
import {
  Component,
  LABEL_GENERATION,
  LABEL_SERVICE_ROLE,
  childMeta,
  childName,
  labelsFor,
  selectorFor,
} from './meta.ts';
import { HTTP_PORT, PORT_NAME } from './pod.ts';
import { withInputHash } from './hash.ts';

/** ServiceRole: stable serves clients (the active generation); preview exposes the pending one; metrics the populators. */
const ServiceRole = { stable: 'stable', preview: 'preview', metrics: 'metrics' } as const;
export type ServiceRole = (typeof ServiceRole)[keyof typeof ServiceRole];

/** stableServiceName is the Middleware's own name: what clients and the Ingress address. */
export function stableServiceName(ctx: BuildContext): string {
  return childName(ctx.mw);
}

/** previewServiceName is `<name>-preview`. */
export function previewServiceName(ctx: BuildContext): string {
  return childName(ctx.mw, ServiceRole.preview);
}

/** buildStableService selects the servers of activeGeneration; switching generations is one write of this selector. */
export function buildStableService(ctx: BuildContext, activeGeneration: number): Built<V1Service> {
  return buildService(ctx, stableServiceName(ctx), ServiceRole.stable, activeGeneration, ctx.spec.server.http.type);
}

/** buildPreviewService selects the servers of the pending generation; always ClusterIP (in-cluster checks only). */
export function buildPreviewService(ctx: BuildContext, pendingGeneration: number): Built<V1Service> {
  return buildService(ctx, previewServiceName(ctx), ServiceRole.preview, pendingGeneration, 'ClusterIP');
}

/** populatorServiceName is `<name>-populator`. */
function populatorServiceName(ctx: BuildContext): string {
  return childName(ctx.mw, Component.populator);
}

/**
 * buildPopulatorService is a headless Service over the populators of every generation, so their /metrics (sync
 * height, lag) can be scraped per pod; it carries no client traffic.
 */
export function buildPopulatorService(ctx: BuildContext): Built<V1Service> {
  const labels = { ...labelsFor(ctx.mw, Component.populator), [LABEL_SERVICE_ROLE]: ServiceRole.metrics };
  return withInputHash({
    apiVersion: 'v1',
    kind: 'Service',
    metadata: childMeta(ctx, populatorServiceName(ctx), labels),
    spec: {
      clusterIP: 'None',
      selector: selectorFor(ctx.mw, Component.populator),
      ports: [{ name: PORT_NAME.http, port: HTTP_PORT, targetPort: PORT_NAME.http, protocol: 'TCP' }],
    },
  });
}

/** selectedGeneration reads which generation a Service built here selects (undefined when it selects none). */
export function selectedGeneration(service: V1Service | undefined): number | undefined {
  const value = service?.spec?.selector?.[LABEL_GENERATION];
  return value === undefined ? undefined : Number(value);
}

function buildService(
  ctx: BuildContext,
  name: string,
  role: ServiceRole,
  generation: number,
  type: string,
): Built<V1Service> {
  const labels = { ...labelsFor(ctx.mw, Component.server), [LABEL_SERVICE_ROLE]: role };
  return withInputHash({
    apiVersion: 'v1',
    kind: 'Service',
    metadata: childMeta(ctx, name, labels),
    spec: {
      type,
      selector: selectorFor(ctx.mw, Component.server, generation),
      ports: [
        { name: PORT_NAME.http, port: ctx.spec.server.http.port, targetPort: PORT_NAME.http, protocol: 'TCP' },
        {
          name: PORT_NAME.websocket,
          port: ctx.spec.server.websocket.port,
          targetPort: PORT_NAME.websocket,
          protocol: 'TCP',
        },
      ],
    },
  });
}
