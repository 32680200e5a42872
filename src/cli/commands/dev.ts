/** @module `mdw dev` (`make dev`): embedded PostgreSQL + devnode (or a node of yours) + populator + server on one laptop. */
import { Command, Flags } from '@oclif/core';
import { readFile } from 'node:fs/promises';
import { createLogger } from '../../base/log.ts';
import { DEV_DEFAULTS } from '../../config/middleware.ts';
import { parseAccountFlag } from '../account-flag.ts';
import { bannerLines } from '../dev/banner.ts';
import { chooseListeners } from '../dev/listeners.ts';
import { configFromEnv } from '../env.ts';
import { runUntilSignal } from '../lifecycle.ts';

export default class Dev extends Command {
  static override summary =
    'Run everything locally: embedded PostgreSQL, a devnode with traffic (or a node of yours), the populator and the server.';
  static override description = [
    'The devnode makes a new chain at every start, and the middleware stores each chain in a schema of its own',
    '(devnode_<genesis>): a restart starts from an empty schema and drops the schemas of earlier devnode chains, so',
    'it never serves a chain the node does not have. The embedded PostgreSQL keeps its data under --data-dir',
    '(.data/); with --node-url the chain of that node keeps its schema (node_<genesis>) between runs. Set',
    'DATABASE_URL to use your own PostgreSQL instead. A default port another process holds is replaced by a free',
    'one (the banner says which); a port you give that is taken is an error. Ctrl-C stops everything.',
  ].join(' ');
  static override examples = [
    'mdw dev',
    'mdw dev --port 9080 --node-port 0 --account sk_…:5000000000000000000000',
    'mdw dev --node-url http://localhost:3013',
  ];
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
    'node-url': Flags.string({
      description:
        'an æternity node of yours (its external API) instead of the devnode: for contracts of your own, which the devnode cannot run',
      exclusive: [
        'node-port',
        'node-internal-port',
        'hard-forks',
        'account',
        'key-block-interval',
        'micro-block-interval',
      ],
    }),
    'node-port': Flags.integer({
      description: 'devnode external API port (default 3013); 0: any free port',
      min: 0,
      max: 65535,
    }),
    'node-internal-port': Flags.integer({
      description: 'devnode internal API port (default 3113); 0: any free port',
      min: 0,
      max: 65535,
    }),
    'pg-port': Flags.integer({
      description: 'port of the embedded PostgreSQL (default 54320); 0: any free port',
      min: 0,
      max: 65535,
    }),
    account: Flags.string({
      description:
        'one more funded account for you, SECRET:BALANCE (sk_… and aettos; repeatable); three are made and printed anyway',
      multiple: true,
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
      description:
        'post a little devnode traffic (spends, an oracle round trip, a name claim) from accounts of its own',
      default: true,
      allowNo: true,
    }),
    // run.ts starts this command in a process group of its own, with this flag (own-group.ts)
    'own-group': Flags.boolean({ hidden: true, description: 'this process already leads its own process group' }),
  };

  async run(): Promise<void> {
    const { flags } = await this.parse(Dev);
    // flags win over the environment, which wins over the dev defaults (loopback)
    const base = configFromEnv(
      {
        HTTP_HOST: flags.host,
        PORT: flags.port === undefined ? undefined : String(flags.port),
        WEBSOCKET_ADDRESS: flags.websocket,
      },
      DEV_DEFAULTS,
    );
    // the listeners' ports before the devnode and the environment are loaded: a port given that is taken exits 2 at once
    const listeners = await chooseListeners(
      {
        host: flags.host,
        ...(flags.port === undefined ? {} : { port: flags.port }),
        ...(flags.websocket === undefined ? {} : { websocket: flags.websocket }),
      },
      base,
    );
    let hardForks;
    let accounts;
    try {
      if (flags['hard-forks']) {
        const { parseHardForkSchedule } = await import('../../devnode/index.ts');
        hardForks = parseHardForkSchedule(await readFile(flags['hard-forks'], 'utf8'));
      }
      accounts = (flags.account ?? []).map(parseAccountFlag);
    } catch (err) {
      this.error((err as Error).message, { exit: 2 });
    }
    const { DevEnvironment } = await import('../dev/environment.ts');
    const logger = createLogger({ ...base, logPretty: base.logPretty || process.stdout.isTTY === true }, 'dev');
    const dev = new DevEnvironment({
      options: {
        host: flags.host,
        dataDir: flags['data-dir'],
        ...(flags['pg-port'] === undefined ? {} : { pgPort: flags['pg-port'] }),
        ...(flags['node-url'] === undefined ? {} : { nodeUrl: flags['node-url'] }),
        ...(flags['node-port'] === undefined ? {} : { nodePort: flags['node-port'] }),
        ...(flags['node-internal-port'] === undefined ? {} : { nodeInternalPort: flags['node-internal-port'] }),
        keyBlockIntervalMs: flags['key-block-interval'],
        microBlockIntervalMs: flags['micro-block-interval'],
        ...(hardForks ? { hardForks } : {}),
        accounts: accounts ?? [],
        traffic: flags.traffic,
      },
      base,
      listeners,
      configure: configFromEnv,
      log: logger.log,
    });
    this.log(bannerLines(await dev.start()).join('\n'));
    await runUntilSignal([dev], logger);
  }
}
