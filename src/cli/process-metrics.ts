/** @module Metrics of a process whatever its roles: what went wrong outside any role's own handling. */
import type prom from 'prom-client';
import { registerMetrics, type MetricsOf } from '../base/metric-table.ts';

const PROCESS_METRICS = {
  /** promise rejections no code handled: each a bug, logged and survived */
  unhandledRejections: {
    type: 'counter',
    name: 'mdw_unhandled_rejections_total',
    help: 'Promise rejections no code handled (each logged with its stack); a bug, never fatal.',
  },
} as const;

export type ProcessMetrics = MetricsOf<typeof PROCESS_METRICS>;

/** createProcessMetrics registers the process's own metrics in the given registry. */
export function createProcessMetrics(registry: prom.Registry): ProcessMetrics {
  return registerMetrics(registry, PROCESS_METRICS);
}
