/**
 * @module Metrics of a process whatever its roles: what went wrong outside any role's own handling, and surviving a
 * promise rejection nobody handled. Imported when a role starts, with prom-client (not by --help or -V).
 */
import type prom from 'prom-client';
import type { Logger } from '../base/log.ts';
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

/**
 * survivesUnhandledRejections makes a rejected promise nobody handles a logged and counted event
 * (`mdw_unhandled_rejections_total`) rather than the end of the process, Node's default: every background task
 * handles its own failures, and one that was missed must not take a serving process down with it. Returns the
 * function that removes the handler.
 */
export function survivesUnhandledRejections(
  log: Logger,
  registry: prom.Registry,
  proc: NodeJS.Process = process,
): () => void {
  const { unhandledRejections } = createProcessMetrics(registry);
  const onRejection = (reason: unknown): void => {
    unhandledRejections.inc();
    log.error({ err: reason }, 'unhandled promise rejection (a bug: please report it); the process keeps running');
  };
  proc.on('unhandledRejection', onRejection);
  return () => void proc.off('unhandledRejection', onRejection);
}
