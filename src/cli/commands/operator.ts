/** @module `mdw operator`: the in-cluster controller of Middleware resources. */
import { Command } from '@oclif/core';
import { hostname } from 'node:os';
import { createLogger } from '../../base/log.ts';
import { loadOperatorConfig } from '../../config/cluster.ts';
import { kubeClientFor } from '../kube-flags.ts';
import { runUntilSignal } from '../lifecycle.ts';

export default class Operator extends Command {
  static override summary = 'Run the Kubernetes operator that reconciles Middleware resources.';
  static override description =
    'Configured by the environment the chart sets: MIDDLEWARE_IMAGE (required), WATCH_NAMESPACE, POD_NAME, POD_NAMESPACE, LEADER_LEASE_NAME, PORT (/metrics, /healthz), LOG_LEVEL, KUBE_REQUEST_TIMEOUT_MS (every API request but the watches), and KUBECONFIG outside a cluster. Replicas elect a leader on a Lease; only the leader reconciles.';

  async run(): Promise<void> {
    let cfg;
    try {
      cfg = loadOperatorConfig(process.env);
    } catch (err) {
      this.error((err as Error).message, { exit: 2 });
    }
    const { OperatorRuntime } = await import('../../operator/runtime/main.ts');
    const { createOperatorMetrics } = await import('../../operator/runtime/metrics.ts');
    const { createReconciler } = await import('../../operator/controller/reconcile.ts');
    const { createStatusProbe } = await import('../../operator/controller/status-probe.ts');
    // imported here, not at the top: every command's module is loaded for any command (oclif's explicit discovery)
    const { collectDefaultMetrics, Registry } = await import('../../base/prom.ts');
    const { survivesUnhandledRejections } = await import('../process-metrics.ts');
    const logger = createLogger({ logDir: undefined, logLevel: cfg.logLevel, logPretty: false }, 'operator');
    const kube = await kubeClientFor({}, cfg);
    const registry = new Registry();
    collectDefaultMetrics(registry);
    survivesUnhandledRejections(logger.log, registry);
    const metrics = createOperatorMetrics(registry);
    const identity = cfg.identity ?? hostname();
    const reconcile = createReconciler({
      kube,
      log: logger.log,
      metrics,
      probe: createStatusProbe(),
      clock: () => new Date(),
      config: { image: cfg.image, home: { namespace: cfg.leaseNamespace, pod: identity } },
    });
    const role = new OperatorRuntime({
      kube,
      log: logger.log,
      registry,
      metrics,
      identity,
      reconcile,
      namespace: cfg.watchNamespace,
      leaseNamespace: cfg.leaseNamespace,
      metricsPort: cfg.port,
      metricsHost: cfg.httpHost,
      ...(cfg.leaseName ? { leaseName: cfg.leaseName } : {}),
    });
    await role.start();
    await runUntilSignal([role], logger);
  }
}
