/** @module Builds the optional ServiceMonitor (monitoring.coreos.com/v1) that scrapes the servers' /metrics. Pure. */
import type { Built, BuildContext } from './meta.ts';
import { Component, childMeta, childName, labelsFor, selectorFor } from './meta.ts';
import { PORT_NAME } from './pod.ts';
import { withInputHash } from './hash.ts';

/** ServiceMonitor is the part of the prometheus-operator type we write (a plain object: its CRD may be absent). */
export type ServiceMonitor = {
  spec: {
    selector: { matchLabels: Record<string, string> };
    namespaceSelector: { matchNames: string[] };
    endpoints: { port: string; path: string; interval: string }[];
  };
};

/**
 * buildServiceMonitor selects both the stable and the preview Service, so the active and the pending generation are
 * scraped; undefined unless spec.metrics.serviceMonitor.enabled.
 */
export function buildServiceMonitor(ctx: BuildContext): Built<ServiceMonitor> | undefined {
  const monitor = ctx.spec.metrics.serviceMonitor;
  if (!monitor.enabled) return undefined;
  return withInputHash({
    apiVersion: 'monitoring.coreos.com/v1',
    kind: 'ServiceMonitor',
    metadata: childMeta(ctx, childName(ctx.mw), labelsFor(ctx.mw, Component.server)),
    spec: {
      selector: { matchLabels: selectorFor(ctx.mw, Component.server) },
      namespaceSelector: { matchNames: [ctx.mw.metadata.namespace ?? 'default'] },
      endpoints: [{ port: PORT_NAME.http, path: '/metrics', interval: monitor.interval }],
    },
  });
}
