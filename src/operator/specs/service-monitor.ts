/** @module Builds the optional ServiceMonitor (monitoring.coreos.com/v1) that scrapes the servers' /metrics. Pure. */
import type { Built, BuildContext } from './meta.ts';
import { childMeta, childName, instanceLabels, instanceSelector } from './meta.ts';
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
 * buildServiceMonitor selects every Service of the instance (stable, preview, populator), so the active and the
 * pending generation's servers and the populators are scraped; undefined unless spec.metrics.serviceMonitor.enabled.
 */
export function buildServiceMonitor(ctx: BuildContext): Built<ServiceMonitor> | undefined {
  const monitor = ctx.spec.metrics.serviceMonitor;
  if (!monitor.enabled) return undefined;
  return withInputHash({
    apiVersion: 'monitoring.coreos.com/v1',
    kind: 'ServiceMonitor',
    metadata: childMeta(ctx, childName(ctx.mw), instanceLabels(ctx.mw)),
    spec: {
      selector: { matchLabels: instanceSelector(ctx.mw) },
      namespaceSelector: { matchNames: [ctx.mw.metadata.namespace ?? 'default'] },
      endpoints: [{ port: PORT_NAME.http, path: '/metrics', interval: monitor.interval }],
    },
  });
}
