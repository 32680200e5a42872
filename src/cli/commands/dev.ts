/** @module `mdw dev` (`make dev`): embedded PostgreSQL + devnode (or a node of yours) + populator + server on one laptop. */
import { MemoryAccount } from '@aeternity/aepp-sdk';
import { Command, Flags } from '@oclif/core';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { constants as osConstants, tmpdir } from 'node:os';
import { join } from 'node:path';
import { collectDefaultMetrics, Registry } from 'prom-client';
import { createLogger, type Logger } from '../../log.ts';
import type { Role } from '../../roles.ts';
import type { HardForkFile } from '../../chain/hard-forks.ts';
import { DEFAULTS, DEV_DEFAULTS, HARD_FORK_FILE_VARIABLES, type RoleDefaults } from '../../config.ts';
import { NodeClient } from '../../node/client.ts';
import { parseAccountFlag } from '../account-flag.ts';
import { bannerLines, type BannerFacts } from '../dev/banner.ts';
import { chainSchema, DEVNODE_SCHEMA_PREFIX, devSettings } from '../dev/settings.ts';
import { configFromEnv } from '../env.ts';
import { choosePort, freePort, PortInUseError, type PortChoice } from '../free-port.ts';
import { runUntilSignal, stopAll } from '../lifecycle.ts';
import { VERSION } from '../../version.ts';

/** The developer's own funded accounts, beside the two the dev traffic signs with. */
const DEVELOPER_ACCOUNTS = 3;

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
    'own-group': Flags.boolean({ hidden: true, description: 'this process already leads its own process group' }),
  };

  async run(): Promise<void> {
    const { flags } = await this.parse(Dev);
    if (!flags['own-group']) {
      this.exit(await runInOwnGroup(['dev', ...this.argv, '--own-group']));
    }
    const {
      startDevnode,
      genesisAccountsJson,
      hardForkFilesJson,
      parseHardForkSchedule,
      deployDex,
      parseSecretKey,
      DEFAULT_ACCOUNT_BALANCE,
    } = await import('../../devnode/index.ts');
    let hardForks;
    let ownAccounts;
    try {
      if (flags['hard-forks']) hardForks = parseHardForkSchedule(await readFile(flags['hard-forks'], 'utf8'));
      ownAccounts = (flags.account ?? []).map(parseAccountFlag);
    } catch (err) {
      this.error((err as Error).message, { exit: 2 });
    }
    const { startPopulator } = await import('../../indexer/sync/populator.ts');
    const { startServer } = await import('../../api/server.ts');
    const { startEmbeddedPostgres } = await import('../dev/embedded-postgres.ts');
    const { startTraffic } = await import('../dev/traffic.ts');
    const { dropSchemasExcept } = await import('../../db/admin.ts');
    const roles: Role[] = [];
    // flags win over the environment, which wins over the dev defaults (loopback)
    const flagged = {
      HTTP_HOST: flags.host,
      PORT: flags.port === undefined ? undefined : String(flags.port),
      WEBSOCKET_ADDRESS: flags.websocket,
    };
    const base = configFromEnv(flagged, DEV_DEFAULTS);
    const logger = createLogger({ ...base, logPretty: base.logPretty || process.stdout.isTTY === true }, 'dev');
    const { log } = logger;
    const host = flags.host;
    const movedPorts: BannerFacts['movedPorts'][number][] = [];
    const port = async (choice: PortChoice, on = host): Promise<number> => {
      const chosen = await choosePort(on, choice).catch((err: unknown) =>
        this.error(err instanceof PortInUseError ? err.message : String(err), { exit: 2 }),
      );
      if (chosen.replaced) movedPorts.push({ setting: choice.setting, from: choice.port, to: chosen.port });
      return chosen.port;
    };
    const defaultWebsocket = `${base.websocket.host}:${base.websocket.port}` === DEV_DEFAULTS.WEBSOCKET_ADDRESS;
    const httpPort = await port({
      setting: flags.port === undefined ? 'PORT' : '--port',
      port: base.port,
      explicit: flags.port !== undefined || base.port !== DEFAULTS.PORT,
    });
    const wsPort = await port(
      {
        setting: flags.websocket === undefined ? 'WEBSOCKET_ADDRESS' : '--websocket',
        port: base.websocket.port,
        explicit: flags.websocket !== undefined || !defaultWebsocket,
      },
      base.websocket.host,
    );
    const listeners = {
      ...flagged,
      PORT: String(httpPort),
      WEBSOCKET_ADDRESS: `${base.websocket.host.includes(':') ? `[${base.websocket.host}]` : base.websocket.host}:${wsPort}`,
    };
    try {
      let databaseUrl = base.databaseUrlSet ? base.databaseUrl : undefined;
      if (!databaseUrl) {
        const pgPort = await port(
          { setting: '--pg-port', port: flags['pg-port'] ?? 54320, explicit: flags['pg-port'] !== undefined },
          '127.0.0.1',
        );
        // PostgreSQL needs its number before it starts: 0 (any free port) is chosen here
        const db = await startEmbeddedPostgres({
          dataDir: flags['data-dir'],
          port: pgPort || (await freePort()),
          database: 'middleware',
        });
        roles.push(db);
        databaseUrl = db.url;
      }
      const nodeUrl = flags['node-url'];
      const traffic = Array.from({ length: 2 }, () => MemoryAccount.generate());
      const dexOwner = MemoryAccount.generate();
      const yours = [
        ...Array.from({ length: DEVELOPER_ACCOUNTS }, () => ({
          secretKey: MemoryAccount.generate().secretKey,
          balance: DEFAULT_ACCOUNT_BALANCE,
        })),
        ...(ownAccounts ?? []),
      ];
      let devnodeSettings;
      let node: BannerFacts['node'];
      let devnode;
      let dex;
      if (nodeUrl === undefined) {
        devnode = await startDevnode(
          {
            host,
            port: await port({
              setting: '--node-port',
              port: flags['node-port'] ?? 3013,
              explicit: flags['node-port'] !== undefined,
            }),
            internalPort: await port({
              setting: '--node-internal-port',
              port: flags['node-internal-port'] ?? 3113,
              explicit: flags['node-internal-port'] !== undefined,
            }),
            keyBlockIntervalMs: flags['key-block-interval'],
            microBlockIntervalMs: flags['micro-block-interval'],
            // the traffic's two accounts first (startTraffic signs with those), the DEX's owner, then the developer's
            accounts: [
              ...[...traffic, dexOwner].map((a) => ({ secretKey: a.secretKey, balance: DEFAULT_ACCOUNT_BALANCE })),
              ...yours,
            ],
            ...(hardForks ? { hardForks } : {}),
          },
          log.child({ component: 'devnode' }),
        );
        roles.push(devnode);
        dex = deployDex(devnode.chain, parseSecretKey(dexOwner.secretKey));
        if (!dex) log.info('no DEX on the devnode: its protocol at genesis takes no contracts');
        devnodeSettings = {
          internalUrl: devnode.internalUrl,
          ...(dex ? { dex } : {}),
          ...(await writeDevnodeFiles(genesisAccountsJson(devnode.chain), hardForkFilesJson(devnode.chain.schedule))),
        };
        node = { external: devnode.externalUrl, internal: devnode.internalUrl, devnode: true };
      } else {
        node = { external: nodeUrl.replace(/\/+$/, ''), devnode: false };
      }
      const schema = chainSchema(devnode ? 'devnode' : 'node', await genesisHash(node.external, log));
      if (devnode) {
        const dropped = await dropSchemasExcept(databaseUrl, DEVNODE_SCHEMA_PREFIX, schema);
        if (dropped.length > 0) log.info({ schemas: dropped }, 'dropped the schemas of earlier devnode chains');
      }
      const { overrides, defaults } = devSettings({
        databaseUrl,
        schema,
        nodeUrl: node.external,
        ...(devnodeSettings ? { devnode: devnodeSettings } : {}),
      });
      const cfg = configFromEnv({ ...listeners, ...overrides }, defaults);
      const registry = new Registry();
      collectDefaultMetrics({ register: registry }); // process_* and nodejs_* series, as every Node service exposes
      roles.push(await startPopulator({ cfg, log: log.child({ component: 'populator' }), registry }));
      const server = await startServer({ cfg, log: log.child({ component: 'server' }), registry, version: VERSION });
      roles.push(server);
      if (devnode && flags.traffic) {
        roles.push(
          startTraffic({
            externalUrl: devnode.externalUrl,
            internalUrl: devnode.internalUrl,
            networkId: 'ae_devnet',
            accounts: devnode.accounts.slice(0, traffic.length),
            intervalMs: 2000,
            log: log.child({ component: 'traffic' }),
          }),
        );
      }
      const byKey = new Map(yours.map((a) => [a.secretKey, a.balance]));
      this.log(
        bannerLines({
          http: server.httpUrl,
          websocket: server.wsUrl.replace('//0.0.0.0:', '//127.0.0.1:'),
          node,
          databaseUrl,
          embeddedDatabase: !base.databaseUrlSet,
          schema,
          settings: { ...overrides, ...chainDefaults(defaults) },
          ...(dex ? { dex } : {}),
          accounts: (devnode?.accounts ?? []).flatMap((a) => {
            const balance = byKey.get(a.secretKey);
            return balance === undefined ? [] : [{ ...a, balance }];
          }),
          movedPorts,
        }).join('\n'),
      );
    } catch (err) {
      await stopAll(roles, log);
      throw err;
    }
    await runUntilSignal(roles, logger);
  }
}

/** chainDefaults are the role's defaults that concern the chain (not the listeners): `mdw -v` needs them too. */
function chainDefaults(defaults: RoleDefaults): Record<string, string> {
  const { WEBSOCKET_ADDRESS: _websocket, HTTP_HOST: _host, ...chain } = defaults;
  return Object.fromEntries(Object.entries(chain).filter((e): e is [string, string] => e[1] !== undefined));
}

/** genesisHash reads the hash of the node's genesis key block: the chain's identity, which names its schema. */
async function genesisHash(nodeUrl: string, log: Logger): Promise<string> {
  const genesis = await new NodeClient({ url: nodeUrl, timeoutMs: 10_000 }, log).keyBlock(0);
  if (typeof genesis.hash !== 'string') throw new Error(`${nodeUrl} sent no genesis key block hash`);
  return genesis.hash;
}

/** writeDevnodeFiles writes the devnode's genesis accounts and hard-fork files as the node's, for the transfers. */
async function writeDevnodeFiles(
  genesisAccounts: string,
  hardForkFiles: Readonly<Partial<Record<HardForkFile, string>>>,
): Promise<{ genesisAccountsFile: string; forkFiles: Record<string, string> }> {
  const dir = join(tmpdir(), `mdw-dev-${process.pid}`);
  await mkdir(dir, { recursive: true });
  const genesisAccountsFile = join(dir, 'genesis-accounts.json');
  await writeFile(genesisAccountsFile, genesisAccounts);
  const forkFiles: Record<string, string> = {};
  for (const [file, text] of Object.entries(hardForkFiles) as [HardForkFile, string][]) {
    const path = join(dir, `${file}.json`);
    await writeFile(path, text);
    forkFiles[HARD_FORK_FILE_VARIABLES[file]] = path;
  }
  return { genesisAccountsFile, forkFiles };
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
