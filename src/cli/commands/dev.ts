/** @module `mdw dev` (`make dev`): embedded PostgreSQL + devnode + populator + server on one laptop. */
import { Command, Flags } from '@oclif/core';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { constants as osConstants, tmpdir } from 'node:os';
import { join } from 'node:path';
import { collectDefaultMetrics, Registry } from 'prom-client';
import { createLogger } from '../../log.ts';
import type { Role } from '../../roles.ts';
import type { HardForkFile } from '../../chain/hard-forks.ts';
import { DEV_DEFAULTS, HARD_FORK_FILE_VARIABLES } from '../../config.ts';
import { configFromEnv } from '../env.ts';
import { freePort } from '../free-port.ts';
import { runUntilSignal, stopAll } from '../lifecycle.ts';
import { VERSION } from '../version.ts';

export default class Dev extends Command {
  static override summary =
    'Run everything locally: embedded PostgreSQL, a devnode with traffic, the populator and the server.';
  static override description =
    'Data is kept under .data/ between runs (delete it to start over). Set DATABASE_URL to use your own PostgreSQL instead. Ctrl-C stops everything.';
  static override flags = {
    'data-dir': Flags.string({ description: 'where the embedded PostgreSQL keeps its data', default: '.data' }),
    host: Flags.string({
      description: 'address the HTTP API and the devnode listen on (HTTP_HOST)',
      default: DEV_DEFAULTS.HTTP_HOST,
    }),
    port: Flags.integer({ description: 'HTTP API port (PORT, default 8080); 0: any free port', min: 0, max: 65535 }),
    websocket: Flags.string({
      description: `websocket address, host:port (WEBSOCKET_ADDRESS, default ${DEV_DEFAULTS.WEBSOCKET_ADDRESS}); port 0: any free port`,
    }),
    'node-port': Flags.integer({
      description: 'devnode external API port; 0: any free port',
      default: 3013,
      min: 0,
      max: 65535,
    }),
    'node-internal-port': Flags.integer({
      description: 'devnode internal API port; 0: any free port',
      default: 3113,
      min: 0,
      max: 65535,
    }),
    'pg-port': Flags.integer({
      description: 'port of the embedded PostgreSQL; 0: any free port',
      default: 54320,
      min: 0,
      max: 65535,
    }),
    'key-block-interval': Flags.integer({ description: 'devnode key block interval (ms)', default: 15000, min: 100 }),
    'micro-block-interval': Flags.integer({
      description: 'devnode micro block interval (ms)',
      default: 3000,
      min: 100,
    }),
    'hard-forks': Flags.string({
      description:
        "the devnode's protocol schedule with hard forks, a file as for `mdw devnode --hard-forks`; the middleware is given the forks' accounts and contracts files",
    }),
    traffic: Flags.boolean({
      description: 'post a little traffic (spends, an oracle round trip, a name claim)',
      default: true,
      allowNo: true,
    }),
    'own-group': Flags.boolean({ hidden: true, description: 'this process already leads its own process group' }),
  };

  async run(): Promise<void> {
    const { flags } = await this.parse(Dev);
    if (!flags['own-group']) {
      this.exit(await runInOwnGroup(['dev', ...this.argv, '--own-group']));
    }
    const { startDevnode, genesisAccountsJson, hardForkFilesJson, parseHardForkSchedule } =
      await import('../../devnode/index.ts');
    let hardForks;
    try {
      if (flags['hard-forks']) hardForks = parseHardForkSchedule(await readFile(flags['hard-forks'], 'utf8'));
    } catch (err) {
      this.error((err as Error).message, { exit: 2 });
    }
    const { startPopulator } = await import('../../indexer/sync/populator.ts');
    const { startServer } = await import('../../api/server.ts');
    const { startEmbeddedPostgres } = await import('../dev/embedded-postgres.ts');
    const { startTraffic } = await import('../dev/traffic.ts');
    const roles: Role[] = [];
    // flags win over the environment, which wins over the dev defaults (loopback)
    const overrides = {
      HTTP_HOST: flags.host,
      PORT: flags.port === undefined ? undefined : String(flags.port),
      WEBSOCKET_ADDRESS: flags.websocket,
    };
    const base = configFromEnv(overrides, DEV_DEFAULTS);
    const logger = createLogger({ ...base, logPretty: base.logPretty || process.stdout.isTTY === true }, 'dev');
    const { log } = logger;
    try {
      let databaseUrl = base.databaseUrlSet ? base.databaseUrl : undefined;
      if (!databaseUrl) {
        const db = await startEmbeddedPostgres({
          dataDir: flags['data-dir'],
          port: flags['pg-port'] || (await freePort()),
          database: 'middleware',
        });
        roles.push(db);
        databaseUrl = db.url;
      }
      const devnode = await startDevnode(
        {
          host: flags.host,
          port: flags['node-port'],
          internalPort: flags['node-internal-port'],
          keyBlockIntervalMs: flags['key-block-interval'],
          microBlockIntervalMs: flags['micro-block-interval'],
          ...(hardForks ? { hardForks } : {}),
        },
        log.child({ component: 'devnode' }),
      );
      roles.push(devnode);
      // the forks' accounts and contracts as the node's files, for the hard-fork transfers
      const forkFiles: Record<string, string> = {};
      if (hardForks) {
        const dir = join(tmpdir(), `mdw-dev-forks-${process.pid}`);
        await mkdir(dir, { recursive: true });
        for (const [file, text] of Object.entries(hardForkFilesJson(devnode.chain.schedule)) as [
          HardForkFile,
          string,
        ][]) {
          const path = join(dir, `${file}.json`);
          await writeFile(path, text);
          forkFiles[HARD_FORK_FILE_VARIABLES[file]] = path;
        }
      }
      // the devnode's reward rules (unless REWARD_RULES says otherwise) and genesis accounts, for the internal transfers
      const genesisFile = join(tmpdir(), `mdw-dev-genesis-${process.pid}.json`);
      await writeFile(genesisFile, genesisAccountsJson(devnode.chain));
      const cfg = configFromEnv(
        {
          ...overrides,
          GENESIS_ACCOUNTS_FILE: genesisFile,
          ...forkFiles,
          DATABASE_URL: databaseUrl,
          NODE_URL: devnode.externalUrl,
          NODE_INTERNAL_URL: devnode.internalUrl,
        },
        { ...DEV_DEFAULTS, REWARD_RULES: 'devnode' },
      );
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
      const wsUrl = server.wsUrl.replace('//0.0.0.0:', '//127.0.0.1:');
      const http = server.httpUrl;
      // laid out as an æternity gateway: the URLs an aepp gives the SDK's clients come first
      this.log(
        [
          '',
          'æternity middleware dev environment is up:',
          `  new Node(url)         ${http}   (the node's API, /v2 and /v3: cached queries from PostgreSQL, the rest forwarded to the devnode)`,
          `  new Middleware(url)   ${http}/mdw   (ae_mdw's API at /mdw/v3; OpenAPI: ${http}/mdw/v3/api, Swagger UI: ${http}/mdw/swagger)`,
          `  MiddlewareSubscriber  ${http.replace(/^http/, 'ws')}/mdw/v3/websocket`,
          `  API                   ${http}/middleware/status   (the original middleware API; OpenAPI: ${http}/middleware/api, Swagger UI: ${http}/middleware/swagger)`,
          `  websocket             ${wsUrl}   (the seed's chain events; ae_mdw's at ${wsUrl}/v3/websocket too)`,
          `  metrics               ${http}/metrics`,
          `  devnode               ${devnode.externalUrl} (internal ${devnode.internalUrl})`,
          `  PostgreSQL            ${databaseUrl.replace(/:[^:@/]+@/, ':***@')}`,
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

/**
 * runInOwnGroup runs `mdw <args>` in a process group of its own and hands it this process's signals, resolving with
 * its exit status. A terminal's Ctrl-C signals its whole foreground group: the embedded PostgreSQL, a child, would
 * shut down at once, under the populator and the server. In its own group it hears nothing from the terminal and
 * is stopped last, by the ordered stop the signal starts.
 */
async function runInOwnGroup(args: readonly string[]): Promise<number> {
  const child = spawn(process.execPath, [...process.execArgv, process.argv[1]!, ...args], {
    detached: true,
    stdio: 'inherit',
  });
  const forward = (signal: NodeJS.Signals) => child.kill(signal);
  const signals = ['SIGINT', 'SIGTERM', 'SIGHUP'] as const;
  for (const signal of signals) process.on(signal, forward);
  const [code, signal] = (await once(child, 'exit')) as [number | null, NodeJS.Signals | null];
  for (const s of signals) process.off(s, forward);
  return code ?? 128 + (signal ? osConstants.signals[signal] : 0);
}
