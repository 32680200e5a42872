/**
 * @module The per-Middleware series the reconciler feeds from the status it writes: the reload state and the
 * conditions, each as kube-state-metrics spells a condition (1 on the current value, 0 on the others). Pure.
 */
import { ConditionStatus, ConditionType, ReloadState, type MiddlewareStatus } from '../api/middleware-types.ts';
import type { ObjectRef } from '../kube/client.ts';

/** SeriesGauge is the part of a prom-client Gauge the reconciler uses (tests pass a recording one). */
export interface SeriesGauge<L extends string> {
  set(labels: Record<L, string>, value: number): void;
  remove(labels: Record<L, string>): void;
}

/** MiddlewareSeries are the gauges with one series per Middleware (and state, or condition type and status). */
export interface MiddlewareSeries {
  /** 1 on the state of its last reload, 0 on the others. */
  readonly reloadState?: SeriesGauge<'middleware_namespace' | 'middleware' | 'state'>;
  /** 1 on the status of each condition it has, 0 on the other two statuses; none for a condition it lacks. */
  readonly condition?: SeriesGauge<'middleware_namespace' | 'middleware' | 'type' | 'status'>;
}

/**
 * reportStatusSeries sets the series of the Middleware `ref` from `status` (what the pass wrote, or found unchanged:
 * a new leader reports a status it did not write); `undefined` (the Middleware is gone) removes them all.
 */
export function reportStatusSeries(
  series: MiddlewareSeries | undefined,
  ref: ObjectRef,
  status: MiddlewareStatus | undefined,
): void {
  // not `namespace`: Prometheus' target label of that name would rename it
  const middleware = { middleware_namespace: ref.namespace ?? '', middleware: ref.name };
  const reload = status?.reload?.state;
  for (const state of Object.values(ReloadState)) {
    const labels = { ...middleware, state };
    if (status === undefined) series?.reloadState?.remove(labels);
    else series?.reloadState?.set(labels, state === reload ? 1 : 0);
  }
  for (const type of Object.values(ConditionType)) {
    const current = status?.conditions?.find((c) => c.type === type)?.status;
    for (const value of Object.values(ConditionStatus)) {
      const labels = { ...middleware, type, status: value };
      if (current === undefined) series?.condition?.remove(labels);
      else series?.condition?.set(labels, value === current ? 1 : 0);
    }
  }
}
