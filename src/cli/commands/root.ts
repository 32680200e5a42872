/**
 * @module `mdw [-p] [-s] [-H list] [-v] [-d]`: the seed's flags, roles combined in one process.
 * Role modules are imported when used, so `mdw -V` and `mdw --help` start fast.
 */
import { Command, Flags } from '@oclif/core';
import { hostname } from 'node:os';
import { createLogger, type Logger } from '../../base/log.ts';
import type { KubeSettings } from '../../config/cluster.ts';
import type { Role } from '../../base/roles.ts';
import { parseHeights } from '../../indexer/sync/heights.ts';
import { startOpsServer } from '../../base/ops-server.ts';
import { configFromEnv } from '../env.ts';
import { ensureSchema } from '../ensure-schema.ts';
import { daemonize, removeOwnPidFile, withoutDaemonFlag } from '../daemonize.ts';
import { SignalsAtStart, stopAll } from '../lifecycle.ts';
import { VERSION } from '../../base/version.ts';
import { AppError } from '../../base/errors.ts';
import { exitIfAway, exitIfRefused } from '../refusal.ts';
import type { VerifyReport } from '../../indexer/maintenance/verify.ts';

export default class Root extends Command {
  static override summary = 'Run the middleware: populate (-p), serve (-s), reload heights (-H), verify (-v).';
  static override description = [
    'Roles combine: `mdw -p -s` populates and serves in one process. Configuration comes from the environment (see README). `mdw run` is the same command.',
    '',
    'Other commands (each with --help): mdw migrate, mdw devnode, mdw dev, mdw operator, mdw manifests, mdw reload, mdw status. Version: mdw -V.',
  ].join('\n');
  static override usage = [
    '[-p] [-s] [--webhooks] [-H <heights>] [-v [--full | --state] [--sample <n>]] [-d] [--schema <name>]',
  ];
  static override examples = [
    'mdw -p -s',
    'mdw -s',
    'mdw -H 1,3-4,6,100-200',
    'mdw -v',
    'mdw -v -H 100-200 --full',
    'mdw -v --full --sample 10000',
    'mdw -v --state --sample 10000',
    'mdw -d -p',
  ];
  static override flags = {
    populate: Flags.boolean({ char: 'p', description: 'populate the database and follow the chain' }),
    server: Flags.boolean({ char: 's', description: 'serve the HTTP API and the websocket' }),
    heights: Flags.string({ char: 'H', description: 'add or replace heights: 1,3-4,6,100-200' }),
    verify: Flags.boolean({ char: 'v', description: 'check the database against the node; exits 1 on a difference' }),
    full: Flags.boolean({
      description:
        "with -v: compare the full stored JSON and every derived row too, and the derived state with the chain's",
      dependsOn: ['verify'],
    }),
    state: Flags.boolean({
      description:
        "with -v: only compare the derived state at the stored top with the chain's (what --full ends with: minutes, not a sync's time)",
      dependsOn: ['verify'],
      exclusive: ['full', 'heights'],
    }),
    sample: Flags.integer({
      description:
        "with -v --full or --state: compare the AE balances of this many accounts drawn at random (default: every account's)",
      min: 1,
      relationships: [{ type: 'some', flags: ['full', 'state'] }],
    }),
    schema: Flags.string({
      description: 'database schema to use (overrides DATABASE_SCHEMA; -H into a new schema is the blue/green reload)',
    }),
    daemonize: Flags.boolean({ char: 'd', description: 'detach, write the pid to PID_FILE, log to LOG_DIR' }),
    webhooks: Flags.boolean({ description: "send the webhooks' deliveries (docs/webhooks.md); with -p or alone" }),
  };

  async run(): Promise<void> {
    // a start refused for what the schema holds is one line and exit 2, never a stack (docs/operations.md)
    await this.runRoles().catch((err: unknown) => {
      exitIfRefused(this, err);
      // only -v and -H get here with these: the populator and the server wait for the database and the node
      exitIfAway(this, err);
      throw err;
    });
  }

  async runRoles(): Promise<void> {
    const { flags } = await this.parse(Root);
    if (!flags.populate && !flags.server && !flags.webhooks && !flags.verify && flags.heights === undefined) {
      this.error('nothing to do: give at least one of -p, -s, --webhooks, -H or -v (see mdw --help)', { exit: 2 });
    }
    const heights = flags.heights === undefined ? undefined : this.heightsOrExit(flags.heights);
    const cfg = configFromEnv({ DATABASE_SCHEMA: flags.schema });
    if (flags.daemonize) {
      const pid = daemonize({ args: withoutDaemonFlag(this.argv), pidFile: cfg.pidFile, logDir: cfg.logDir });
      this.log(`started in the background, pid ${pid}${cfg.pidFile ? ` (written to ${cfg.pidFile})` : ''}`);
      return;
    }
    const logger = createLogger(cfg, roleName(flags));
    const { log } = logger;
    log.info({ version: VERSION, schema: cfg.databaseSchema, nodes: cfg.nodeUrls }, 'starting');

    if (heights !== undefined && !flags.verify) {
      const { reloadHeights } = await import('../../indexer/maintenance/reload.ts');
      const { reloaded, rederived, callInfoPruned } = await reloadHeights({ cfg, log }, heights).catch(
        (err: unknown) => {
          exitIfRefused(this, err);
          exitIfAway(this, err);
          if (err instanceof AppError) this.error(`${err.message} (${err.code})`, { exit: err.status === 400 ? 2 : 1 });
          throw err;
        },
      );
      log.info({ reloaded, rederived, callInfoPruned }, 'heights reloaded');
    }
    if (flags.verify) {
      const { verifyChain } = await import('../../indexer/maintenance/verify.ts');
      const report = await verifyChain(
        { cfg, log, out: (line) => this.log(line) },
        { heights, full: flags.full, state: flags.state, sample: flags.sample },
      );
      for (const c of report.state)
        this.log(`state of ${c.items} ${c.what} compared with the chain: ${c.requests} node request(s), ${c.ms} ms`);
      this.log(verifiedLine(report, flags.state));
      logger.flush();
      if (report.differences > 0) {
        removeOwnPidFile(cfg.pidFile);
        this.exit(1);
      }
    }
    if (!flags.populate && !flags.server && !flags.webhooks) return removeOwnPidFile(cfg.pidFile);

    // prom-client only where a role serves /metrics: not for --help, -V, -v, -H
    const { collectDefaultMetrics, Registry } = await import('../../base/prom.ts');
    const { survivesUnhandledRejections } = await import('../process-metrics.ts');
    const registry = new Registry();
    collectDefaultMetrics(registry); // process_* and nodejs_* series, as every Node service exposes
    survivesUnhandledRejections(log, registry);
    const roles: Role[] = [];
    const atStart = new SignalsAtStart(roles, logger, () => {
      removeOwnPidFile(cfg.pidFile);
      process.exit(0);
    });
    atStart.start();
    try {
      if (flags.populate) {
        const { startPopulator } = await import('../../indexer/sync/populator.ts');
        const populate = () => startPopulator({ cfg, log, registry });
        roles.push(
          await (cfg.kube.writerLeaseName
            ? underWriterLease(cfg.kube, cfg.kube.writerLeaseName, populate, log)
            : populate()),
        );
      }
      if (flags.webhooks) {
        const { startWebhookSender } = await import('../../webhooks/sender-role.ts');
        // alone, it waits for a schema the populator migrated, as the server does
        if (!flags.populate) {
          const { guardSchema } = await import('../../indexer/identity/guard.ts');
          await guardSchema(cfg, log, { writes: false, waitForNodes: false, migrate: () => ensureSchema(cfg, log) });
        }
        roles.push(startWebhookSender({ cfg, log, registry }));
      }
      if (flags.server) {
        const { guardSchema } = await import('../../indexer/identity/guard.ts');
        await guardSchema(cfg, log, { writes: false, waitForNodes: false, migrate: () => ensureSchema(cfg, log) });
        // the API's modules after the check: a refused start (exit 2) never loads them
        const { startServer } = await import('../../api/server.ts');
        roles.push(await startServer({ cfg, log, registry, version: VERSION }));
      } else roles.push(await startOpsServer({ port: cfg.port, host: cfg.httpHost, registry, log }));
    } catch (err) {
      await stopAll(roles, log);
      throw err;
    }
    // undefined: a signal came while the roles started; they are being stopped, and the process exits then
    const running = atStart.handOver();
    if (running === undefined) return;
    await running;
    removeOwnPidFile(cfg.pidFile);
  }

  heightsOrExit(list: string): number[] {
    try {
      return parseHeights(list);
    } catch (err) {
      this.error(`invalid -H/--heights: ${(err as Error).message}`, { exit: 2 });
    }
  }
}

/**
 * underWriterLease starts the populator only while this pod holds the Lease (on Kubernetes, where
 * the operator sets WRITER_LEASE_NAME, POD_NAME and POD_NAMESPACE). Losing it stops the process with
 * status 1, so the Deployment restarts the pod and it contends again.
 */
async function underWriterLease(
  kube: KubeSettings,
  name: string,
  start: () => Promise<Role>,
  log: Logger,
): Promise<Role> {
  const { holdWriterLease } = await import('../writer-lease.ts');
  const { leaseKubeFor } = await import('../kube-flags.ts');
  return holdWriterLease({
    kube: await leaseKubeFor(kube),
    namespace: kube.podNamespace,
    name,
    identity: kube.podName ?? hostname(),
    log,
    start,
    onLost: () => {
      process.exitCode = 1;
      process.kill(process.pid, 'SIGTERM');
    },
  });
}

/**
 * verifiedLine is -v's last line: what was verified, the differences, what could not be (garbage-collected state), and
 * a top generation stored while open, counted apart (issue 79).
 */
function verifiedLine(report: VerifyReport, stateOnly: boolean): string {
  const { checked, differences, unverifiable, stateAt } = report;
  if (stateOnly)
    return (
      (stateAt === undefined
        ? 'verified no state (no stored height, or heights missing)'
        : `verified the state at height ${stateAt}`) +
      `: ${differences} difference(s)` +
      (unverifiable > 0 ? `, ${unverifiable} unverifiable (garbage-collected state: listed above)` : '')
    );
  return (
    `verified ${checked} heights: ${differences} difference(s)` +
    (unverifiable > 0 ? `, ${unverifiable} height(s) unverifiable (garbage-collected state)` : '') +
    (report.openTop ? `, 1 top generation stored while open (height ${report.openTop.height}: not a difference)` : '')
  );
}

function roleName(flags: { populate: boolean; server: boolean; webhooks: boolean; verify: boolean }): string {
  if (flags.populate && flags.server) return 'mdw';
  if (flags.populate) return 'populator';
  if (flags.server) return 'server';
  if (flags.webhooks) return 'webhooks';
  return flags.verify ? 'verify' : 'reload';
}
