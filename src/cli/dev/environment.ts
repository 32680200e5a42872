/**
 * @module DevEnvironment: what `mdw dev` runs (embedded PostgreSQL, a devnode or a node of yours, the populator, the
 * server, the webhook sender, the devnode's traffic) as one Role whose parts push their stop on one StopList.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { collectDefaultMetrics, Registry } from '../../base/prom.ts';
import { startServer } from '../../api/server.ts';
import { DEV_DEFAULTS, type Config, type RoleDefaults } from '../../config/middleware.ts';
import { dropSchemasExcept } from '../../db/schema/admin.ts';
import {
  DEFAULT_ACCOUNT_BALANCE,
  deployDex,
  randomKeyPair,
  startDevnode,
  type Devnode,
  type DevnodeHardFork,
} from '../../devnode/index.ts';
import { startPopulator } from '../../indexer/sync/populator.ts';
import type { Logger } from '../../base/log.ts';
import { NodeClient } from '../../node/client.ts';
import type { Role } from '../../base/roles.ts';
import { StopList } from '../../base/stop-list.ts';
import { VERSION } from '../../base/version.ts';
import { startWebhookSender } from '../../webhooks/sender-role.ts';
import { freePort, type PortChoice } from '../free-port.ts';
import { stopRole } from '../lifecycle.ts';
import type { BannerFacts } from './banner.ts';
import { startEmbeddedPostgres } from './embedded-postgres.ts';
import type { DevListeners } from './listeners.ts';
import { chainSchema, DEVNODE_SCHEMA_PREFIX, devSettings } from './settings.ts';
import { startTraffic } from './traffic.ts';
import { writeNodeFiles } from './node-files.ts';

/** DevEnvironmentOptions are `mdw dev`'s flags; a port left out is the default, moved when another process holds it. */
export interface DevEnvironmentOptions {
  /** the address the HTTP API and the devnode listen on */
  readonly host: string;
  /** where the embedded PostgreSQL keeps its data */
  readonly dataDir: string;
  readonly pgPort?: number;
  /** a node of the developer's own instead of the devnode (--node-url) */
  readonly nodeUrl?: string;
  readonly nodePort?: number;
  readonly nodeInternalPort?: number;
  readonly keyBlockIntervalMs: number;
  readonly microBlockIntervalMs: number;
  readonly hardForks?: readonly DevnodeHardFork[];
  /** the developer's accounts beyond the three made for them (--account) */
  readonly accounts: readonly { readonly secretKey: string; readonly balance: bigint }[];
  /** the devnode's traffic (--traffic) */
  readonly traffic: boolean;
}

/** DevEnvironmentDeps is what `mdw dev` hands its environment: its flags, the configuration read so far, its log. */
export interface DevEnvironmentDeps {
  readonly options: DevEnvironmentOptions;
  /** the environment and the listener flags over the dev defaults: the database and listeners asked for */
  readonly base: Config;
  /** the HTTP API's and the websocket's ports, chosen before the environment was loaded (chooseListeners) */
  readonly listeners: DevListeners;
  /** configure reads the middleware's configuration: `overrides` over the environment over `defaults` */
  readonly configure: (overrides: Readonly<Record<string, string>>, defaults: RoleDefaults) => Config;
  readonly log: Logger;
}

/** The developer's own funded accounts, beside the two the dev traffic signs with. */
const DEVELOPER_ACCOUNTS = 3;

/** Accounts the devnode's traffic signs with. */
const TRAFFIC_ACCOUNTS = 2;

/**
 * DevEnvironment starts PostgreSQL (embedded unless DATABASE_URL names one), the devnode (unless --node-url names a
 * node), the populator, the server, the webhook sender (as `mdw -p -s --webhooks` would) and the traffic, in that order. Each part started pushes its stop on one list,
 * which a failed start and stop() run last first: PostgreSQL stops after the roles that use it.
 */
export class DevEnvironment implements Role {
  readonly name = 'dev';
  readonly #deps: DevEnvironmentDeps;
  readonly #stops = new StopList();

  constructor(deps: DevEnvironmentDeps) {
    this.#deps = deps;
  }

  /** start starts every part and resolves with what the banner shows; a port given that is taken exits 2. */
  start(): Promise<BannerFacts> {
    return this.#stops.starting(() => this.#start());
  }

  stop(): Promise<void> {
    return this.#stops.unwind();
  }

  async #start(): Promise<BannerFacts> {
    const { options, base, log, listeners } = this.#deps;
    const embeddedDatabase = !base.databaseUrlSet;
    const databaseUrl = embeddedDatabase ? await this.#embeddedPostgres() : base.databaseUrl;
    const yours = [
      ...Array.from({ length: DEVELOPER_ACCOUNTS }, () => ({
        secretKey: randomKeyPair().secretKey,
        balance: DEFAULT_ACCOUNT_BALANCE,
      })),
      ...options.accounts,
    ];
    const devnode = options.nodeUrl === undefined ? await this.#devnode(yours) : undefined;
    const node: BannerFacts['node'] = devnode
      ? { external: devnode.node.externalUrl, internal: devnode.node.internalUrl, devnode: true }
      : { external: options.nodeUrl!.replace(/\/+$/, ''), devnode: false };
    const schema = chainSchema(devnode ? 'devnode' : 'node', await genesisHash(node.external, log));
    if (devnode) {
      const dropped = await dropSchemasExcept(databaseUrl, DEVNODE_SCHEMA_PREFIX, schema);
      if (dropped.length > 0) log.info({ schemas: dropped }, 'dropped the schemas of earlier devnode chains');
    }
    const { overrides, defaults } = devSettings({
      databaseUrl,
      schema,
      nodeUrl: node.external,
      ...(devnode ? { devnode: devnode.settings } : {}),
    });
    const cfg = this.#deps.configure({ ...listeners.settings, ...overrides }, defaults);
    const registry = new Registry();
    collectDefaultMetrics(registry); // process_* and nodejs_* series, as every Node service exposes
    this.#started(await startPopulator({ cfg, log: log.child({ component: 'populator' }), registry }));
    const server = this.#started(
      await startServer({ cfg, log: log.child({ component: 'server' }), registry, version: VERSION }),
    );
    this.#started(startWebhookSender({ cfg, log, registry }));
    if (devnode && options.traffic) {
      this.#started(
        startTraffic({
          externalUrl: devnode.node.externalUrl,
          internalUrl: devnode.node.internalUrl,
          networkId: 'ae_devnet',
          accounts: devnode.node.accounts.slice(0, TRAFFIC_ACCOUNTS),
          intervalMs: 2000,
          log: log.child({ component: 'traffic' }),
        }),
      );
    }
    const byKey = new Map(yours.map((a) => [a.secretKey, a.balance]));
    return {
      http: server.httpUrl,
      websocket: server.wsUrl.replace('//0.0.0.0:', '//127.0.0.1:'),
      node,
      databaseUrl,
      embeddedDatabase,
      schema,
      settings: { ...overrides, ...chainDefaults(defaults) },
      apiKeys: cfg.apiKeys.enabled,
      webhooksAllowPrivate: cfg.webhooks.allowPrivate,
      ...(devnode?.dex ? { dex: devnode.dex } : {}),
      accounts: (devnode?.node.accounts ?? []).flatMap((a) => {
        const balance = byKey.get(a.secretKey);
        return balance === undefined ? [] : [{ ...a, balance }];
      }),
      movedPorts: listeners.ports.moved,
    };
  }

  /** #embeddedPostgres starts the embedded PostgreSQL and resolves with its database's URL. */
  async #embeddedPostgres(): Promise<string> {
    const { pgPort } = this.#deps.options;
    const port = await this.#port(
      { setting: '--pg-port', port: pgPort ?? 54320, explicit: pgPort !== undefined },
      '127.0.0.1',
    );
    // PostgreSQL needs its number before it starts: 0 (any free port) is chosen here
    const db = this.#started(
      await startEmbeddedPostgres({
        dataDir: this.#deps.options.dataDir,
        port: port || (await freePort()),
        database: 'middleware',
      }),
    );
    return db.url;
  }

  /** #devnode starts the devnode with the traffic's accounts, the DEX's owner's and `yours`, and deploys the DEX. */
  async #devnode(yours: readonly { secretKey: string; balance: bigint }[]) {
    const { options, log } = this.#deps;
    const traffic = Array.from({ length: TRAFFIC_ACCOUNTS }, () => randomKeyPair());
    const dexOwner = randomKeyPair();
    const node: Devnode = this.#started(
      await startDevnode(
        {
          host: options.host,
          port: await this.#port({
            setting: '--node-port',
            port: options.nodePort ?? 3013,
            explicit: options.nodePort !== undefined,
          }),
          internalPort: await this.#port({
            setting: '--node-internal-port',
            port: options.nodeInternalPort ?? 3113,
            explicit: options.nodeInternalPort !== undefined,
          }),
          keyBlockIntervalMs: options.keyBlockIntervalMs,
          microBlockIntervalMs: options.microBlockIntervalMs,
          // the traffic's two accounts first (startTraffic signs with those), the DEX's owner, then the developer's
          accounts: [
            ...[...traffic, dexOwner].map((a) => ({ secretKey: a.secretKey, balance: DEFAULT_ACCOUNT_BALANCE })),
            ...yours,
          ],
          ...(options.hardForks ? { hardForks: options.hardForks } : {}),
        },
        log.child({ component: 'devnode' }),
      ),
    );
    const dex = deployDex(node.chain, dexOwner);
    if (!dex) log.info('no DEX on the devnode: its protocol at genesis takes no contracts');
    const settings = {
      internalUrl: node.internalUrl,
      ...(dex ? { dex } : {}),
      ...(await writeNodeFiles(await this.#temporaryDirectory(), node.chain)),
    };
    return { node, dex, settings };
  }

  /**
   * #temporaryDirectory makes a directory of this environment's own for the devnode's node files, removed when it
   * stops (after the populator, which reads them), a failed start's stop too: each `mdw dev` and each test's left one.
   */
  async #temporaryDirectory(): Promise<string> {
    const dir = await mkdtemp(join(tmpdir(), 'mdw-dev-'));
    this.#stops.push(() => rm(dir, { recursive: true, force: true }));
    return dir;
  }

  /** #port is the port for one listener (DevPorts.choose), on the environment's host unless `on` says otherwise. */
  #port(choice: PortChoice, on = this.#deps.options.host): Promise<number> {
    return this.#deps.listeners.ports.choose(choice, on);
  }

  /** #started records a part just started: its stop runs (logged as the CLI logs a role's) before those before it. */
  #started<T extends Role>(part: T): T {
    this.#stops.push(() => stopRole(part, this.#deps.log));
    return part;
  }
}

/**
 * chainDefaults are the role's defaults beyond DEV_DEFAULTS (the listeners', the webhooks' and the pace's): those of
 * the chain (the devnode's rewards and DEX), which `mdw -v` needs too.
 */
function chainDefaults(defaults: RoleDefaults): Record<string, string> {
  return Object.fromEntries(
    Object.entries(defaults).filter((e): e is [string, string] => e[1] !== undefined && !(e[0] in DEV_DEFAULTS)),
  );
}

/** genesisHash reads the hash of the node's genesis key block: the chain's identity, which names its schema. */
async function genesisHash(nodeUrl: string, log: Logger): Promise<string> {
  const genesis = await new NodeClient({ url: nodeUrl, timeoutMs: 10_000 }, log).keyBlock(0);
  if (typeof genesis.hash !== 'string') throw new Error(`${nodeUrl} sent no genesis key block hash`);
  return genesis.hash;
}
