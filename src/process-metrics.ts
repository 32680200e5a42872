/** @module Metrics of a process whatever its roles: what went wrong outside any role's own handling. */
import prom from 'prom-client';

export interface ProcessMetrics {
  /** promise rejections no code handled: each a bug, logged and survived */
  readonly unhandledRejections: prom.Counter;
}

/** createProcessMetrics registers the process's own metrics in the given registry. */
export function createProcessMetrics(registry: prom.Registry): ProcessMetrics {
  return {
    unhandledRejections: new prom.Counter({
      name: 'mdw_unhandled_rejections_total',
      help: 'Promise rejections no code handled (each logged with its stack); a bug, never fatal.',
      registers: [registry],
    }),
  };
}
