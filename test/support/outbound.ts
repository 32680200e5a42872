/** @module The outbound metric as a test reads it: how many requests ended so, by target, operation and outcome. */
import type prom from 'prom-client';
import { OUTBOUND_METRIC } from '../../src/node/outbound-metrics.ts';

/** A histogram's value carries which of its series it is (prom-client's field, not in its typings). */
export type SeriesValue = prom.MetricValue<string> & { readonly metricName?: string };

/** outboundCounts maps `target operation outcome` to the count of requests that ended so (mdw_outbound_…_count). */
export async function outboundCounts(registry: prom.Registry): Promise<Record<string, number>> {
  const metric = registry.getSingleMetric(OUTBOUND_METRIC);
  if (metric === undefined) return {};
  const counts: Record<string, number> = {};
  for (const v of (await metric.get()).values as SeriesValue[]) {
    if (v.metricName !== `${OUTBOUND_METRIC}_count`) continue;
    const { target, operation, outcome } = v.labels;
    counts[`${target} ${operation} ${outcome}`] = v.value;
  }
  return counts;
}
