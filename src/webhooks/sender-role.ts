/** @module The `--webhooks` role: the webhook sender on its own pool, started and stopped as the CLI's roles are. */
import type prom from 'prom-client';
import type { Role } from '../base/roles.ts';
import type { Logger } from '../base/log.ts';
import type { Config } from '../config/middleware.ts';
import { createWritePool } from '../db/connection/pool.ts';
import { DeliveryPruner, PRUNE_PACE } from './delivery-pruner.ts';
import { createWebhookMetrics } from './metrics.ts';
import { MAX_ATTEMPTS, RETRY, WebhookSender } from './sender.ts';

/** startWebhookSender starts the sender with the settings of `cfg.webhooks`. */
export function startWebhookSender(deps: { cfg: Config; log: Logger; registry: prom.Registry }): Role {
  const { cfg, registry } = deps;
  const w = cfg.webhooks;
  const log = deps.log.child({ component: 'webhooks' });
  // each hook sent to at once holds a connection only between its statements: a few serve many hooks; one more LISTENs
  const pool = createWritePool(cfg, 'mdw-webhooks', log, Math.min(cfg.databasePoolSize, w.concurrency + 1) + 1);
  const sender = new WebhookSender({
    pool,
    schema: cfg.databaseSchema,
    log,
    metrics: createWebhookMetrics(registry),
    settings: {
      timeoutMs: w.timeoutMs,
      maxResponseBytes: w.maxResponseBytes,
      allowPrivate: w.allowPrivate,
      concurrency: w.concurrency,
      leaseMs: w.leaseMs,
      pollMs: w.pollMs,
      retry: { ...RETRY, initialMs: w.retryInitialMs },
      maxAttempts: MAX_ATTEMPTS,
    },
  });
  sender.start();
  // the rows done and past their retention go beside the sender, off the populator's path
  const pruner = new DeliveryPruner(pool, log, {
    ...PRUNE_PACE,
    retentionMs: w.retentionMs,
    forkWindow: cfg.forkWindow,
  });
  pruner.start();
  log.info({ concurrency: w.concurrency, allowPrivate: w.allowPrivate }, 'webhook sender started');
  return {
    name: 'webhooks',
    async stop() {
      await pruner.stop();
      await sender.stop();
      await pool.end();
    },
  };
}
