/** @module `mdw dev` (`make dev`): embedded PostgreSQL + devnode + populator + server on one laptop. */
import { Command, Flags } from '@oclif/core';
import { collectDefaultMetrics, Registry } from 'prom-client';
import { createLogger } from '../../log.ts';
import type { Role } from '../../roles.ts';
import { configFromEnv } from '../env.ts';
import { runUntilSignal, stopAll } from '../lifecycle.ts';
import { VERSION } from '../version.ts';

export default class Dev extends Command {
  static override summary =
    'Run everything locally: embedded PostgreSQL, a devnode with traffic, the populator and the server.';
  static override description =
    'Data is kept under .data/ between runs (delete it to start over). Set DATABASE_URL to use your own PostgreSQL instead. Ctrl-C stops everything.';
  static override flags = {
    'data-dir': Flags.string({ description: 'where the embedded PostgreSQL keeps its data', default: '.data' }),
    'pg-port': Flags.integer({ description: 'port of the embedded PostgreSQL', default: 54320 }),
    'key-block-interval': Flags.integer({ description: 'devnode key block interval (ms)', default: 15000, min: 100 }),
    'micro-block-interval': Flags.integer({
      description: 'devnode micro block interval (ms)',
      default: 3000,
      min: 100,
    }),
    traffic: Flags.boolean({
      description: 'post a little traffic (spends, an oracle round trip, a name claim)',
      default: true,
      allowNo: true,
    }),
  };

  async run(): Promise<void> {
    const { flags } = await this.parse(Dev);
    const { startDevnode } = await import('../../devnode/index.ts');
    const { startPopulator } = await import('../../indexer/populator.ts');
    const { startServer } = await import('../../api/server.ts');
    const { startEmbeddedPostgres } = await import('../dev/embedded-postgres.ts');
    const { startTraffic } = await import('../dev/traffic.ts');
    const roles: Role[] = [];
    const base = configFromEnv();
    const logger = createLogger({ ...base, logPretty: base.logPretty || process.stdout.isTTY === true }, 'dev');
    const { log } = logger;
    try {
      let databaseUrl = base.databaseUrlSet ? base.databaseUrl : undefined;
      if (!databaseUrl) {
        const db = await startEmbeddedPostgres({
          dataDir: flags['data-dir'],
          port: flags['pg-port'],
          database: 'middleware',
        });
        roles.push(db);
        databaseUrl = db.url;
      }
      const devnode = await startDevnode(
        {
          port: 3013,
          internalPort: 3113,
          keyBlockIntervalMs: flags['key-block-interval'],
          microBlockIntervalMs: flags['micro-block-interval'],
        },
        log.child({ component: 'devnode' }),
      );
      roles.push(devnode);
      const cfg = configFromEnv({
        DATABASE_URL: databaseUrl,
        NODE_URL: devnode.externalUrl,
        NODE_INTERNAL_URL: devnode.internalUrl,
      });
      const registry = new Registry();
      collectDefaultMetrics({ register: registry }); // process_* and nodejs_* series, as every Node service exposes
      roles.push(await startPopulator({ cfg, log: log.child({ component: 'populator' }), registry }));
      const server = await startServer({ cfg, log: log.child({ component: 'server' }), registry, version: VERSION });
      roles.push(server);
      if (flags.traffic) {
        roles.push(
          startTraffic({
            externalUrl: devnode.externalUrl,
            internalUrl: devnode.internalUrl,
            networkId: 'ae_devnet',
            accounts: devnode.accounts,
            intervalMs: 2000,
            log: log.child({ component: 'traffic' }),
          }),
        );
      }
      this.log(
        [
          '',
          'æternity middleware dev environment is up:',
          `  API            ${server.httpUrl}/middleware/status   (node queries: ${server.httpUrl}/v2/generations/current)`,
          `  websocket      ${server.wsUrl.replace('//0.0.0.0:', '//127.0.0.1:')}`,
          `  metrics        ${server.httpUrl}/metrics`,
          `  OpenAPI        ${server.httpUrl}/middleware/api`,
          `  devnode        ${devnode.externalUrl} (internal ${devnode.internalUrl})`,
          `  PostgreSQL     ${databaseUrl.replace(/:[^:@/]+@/, ':***@')}`,
          'Ctrl-C stops everything.',
          '',
        ].join('\n'),
      );
    } catch (err) {
      await stopAll(roles, log);
      throw err;
    }
    await runUntilSignal(roles, logger);
  }
}
