/** @module Configuration: the environment read once into one frozen, typed object. Pure. */
import { isEncoded } from './chain/encoding.ts';
import type { HardForkFile } from './chain/hard-forks.ts';
import { parseProxyEntry } from './client-address.ts';
import { AppError, ErrorCode } from './errors.ts';

export interface Config {
  /** External HTTP API of the node (port 3013). */
  readonly nodeUrl: string;
  /** Every node the indexer may read from, nodeUrl first (failover order); the server's proxy uses nodeUrl only. */
  readonly nodeUrls: readonly string[];
  /** Internal HTTP API of the node (port 3113); forwarded by the server only when set. */
  readonly nodeInternalUrl: string | undefined;
  /** Sophia compiler HTTP API; when unset, FATE calls are decoded in-process. */
  readonly compilerUrl: string | undefined;
  readonly databaseUrl: string;
  /** DATABASE_URL was given: `mdw dev` starts an embedded PostgreSQL only when it was not. */
  readonly databaseUrlSet: boolean;
  /** PostgreSQL schema holding this data generation (blue/green keeps several in one database). */
  readonly databaseSchema: string;
  readonly databasePoolSize: number;
  /**
   * PostgreSQL streaming replicas a server reads from (DATABASE_READ_URLS); empty: it reads the primary. The LISTEN
   * connection and the populator's own state stay on DATABASE_URL; the populator, -H, -v and migrations ignore these.
   */
  readonly databaseReadUrls: readonly string[];
  /** Seconds a server's replica may lag behind the primary before /readyz fails (READ_REPLICA_MAX_LAG_SECONDS). */
  readonly readReplicaMaxLagSeconds: number;
  readonly pidFile: string | undefined;
  readonly logDir: string | undefined;
  readonly logLevel: LogLevel;
  /** Human-readable logs instead of JSON lines. */
  readonly logPretty: boolean;
  /** `/middleware/status` answers 503 when the newest stored block is older than this many seconds. */
  readonly statusMaxBlockAge: number;
  readonly websocket: { readonly host: string; readonly port: number };
  readonly websocketMaxConnections: number;
  /** Bytes buffered for one websocket client before it is closed as too slow. */
  readonly websocketMaxBufferedBytes: number;
  /** Bytes buffered for all websocket clients together; beyond it the clients holding the most are closed. */
  readonly websocketMaxTotalBufferedBytes: number;
  /** The limits of ae_mdw's sockets (/mdw/v3/websocket, /mdw/v2/websocket), with ae_mdw's defaults. */
  readonly mdwWebsocket: MdwWebsocketLimits;
  /** HTTP API and /metrics. */
  readonly port: number;
  /** Address the HTTP API listens on; undefined: every interface. */
  readonly httpHost: string | undefined;
  /** Generations re-checked against the node at every poll; blocks deeper are final for caching. */
  readonly forkWindow: number;
  /**
   * Stored generations a fork may replace (MAX_FORK_DEPTH): a deeper one is a stop with an error, not a deletion; far
   * above any real reorg, it is what a node of another chain or a node resyncing from scratch looks like.
   */
  readonly maxForkDepth: number;
  /** ALLOW_DEEP_FORK: the operator allows the populator to follow a fork deeper than maxForkDepth. */
  readonly allowDeepFork: boolean;
  /**
   * The Middleware this binary runs for (MIDDLEWARE_UID, MIDDLEWARE_NAME `<namespace>/<name>`, set by the operator on
   * every pod and Job); undefined uid: run by hand. Recorded in the schema by the first write and checked by every role.
   */
  readonly owner: { readonly uid: string | undefined; readonly name: string | undefined };
  /** Generations written in one database transaction. */
  readonly batchSize: number;
  /** a batch stops taking generations once it holds this many transactions */
  readonly batchTransactions: number;
  /** Concurrent requests to the node while catching up. */
  readonly fetchConcurrency: number;
  readonly pollIntervalMs: number;
  /** How often a server reads the node's mempool (internal API) for pending tx_update events. */
  readonly mempoolPollIntervalMs: number;
  readonly nodeTimeoutMs: number;
  /** CORS allowed origins; `*` allows any origin. */
  readonly corsOrigins: readonly string[];
  /**
   * Proxies (addresses and CIDR networks) whose X-Forwarded-For is believed when a client's address is needed (ae_mdw
   * sockets per address); empty: a client is its TCP peer.
   */
  readonly trustedProxies: readonly string[];
  /** Bytes of final cached node answers (/v2, /v3) the server keeps in memory; 0 turns the cache off. */
  readonly apiCacheMaxBytes: number;
  /**
   * What the root /v3 serves: `node`, the node's API (cached queries, the rest forwarded), as an æternity gateway
   * lays it out; `mdw`, ae_mdw's API, for a deployment from before that layout. ae_mdw's is at /mdw/v3 either way.
   */
  readonly rootV3: 'node' | 'mdw';
  /**
   * How the chain pays its miners (internal transfers `reward_block`/`reward_dev`): the node's mainnet or testnet
   * rules, or the devnode's. A hyperchain pays none, whatever this says (its node detected at start).
   */
  readonly rewardRules: 'mainnet' | 'testnet' | 'devnode';
  /** whether the environment sets REWARD_RULES (a role's default does not count): on a hyperchain it is ignored, said once */
  readonly rewardRulesSet: boolean;
  /** The node's genesis accounts file (`{"ak_…": balance}`), for the `accounts_roma` transfers; none when unset. */
  readonly genesisAccountsFile: string | undefined;
  /**
   * The node's hard-fork files (its `data/aecore/.minerva/accounts*.json`, `.fortuna/…`, `.lima/accounts*.json`,
   * `extra_accounts*.json`, `contracts*.json`), for the `accounts_minerva`, `accounts_fortuna`, `accounts_lima`,
   * `accounts_extra_lima` and `contracts_lima` transfers at the key block where the chain enters that protocol;
   * a file not given credits nothing.
   */
  readonly hardForkFiles: Readonly<Partial<Record<HardForkFile, string>>>;
  /** Kubernetes settings: the populator's writer Lease, set by the operator on its pods. */
  readonly kube: KubeSettings;
  /**
   * The æternity DEX of the network: the factory whose PairCreated events count, and wrapped AE (BUY/SELL swaps;
   * its Deposit and Withdrawal events mint and burn AEX-9 balances).
   */
  readonly dex: { readonly factory: string; readonly wrappedAe: string };
  /** How /mdw/v3's streamed exports of an account's history are bounded (docs/api-v3.md, "Exports"). */
  readonly exports: ExportLimits;
}

/** ExportLimits bound the streamed exports (EXPORT_*): rows per request, exports at once, and each one's lifetime. */
export interface ExportLimits {
  /** rows one export sends at most; the client resumes after the last (EXPORT_MAX_ROWS) */
  readonly maxRows: number;
  /** exports running at once; one more is refused with 503 and Retry-After (EXPORT_MAX_RUNNING) */
  readonly maxRunning: number;
  /** seconds an export may run before it is cut off, its client resuming after its last row (EXPORT_MAX_SECONDS) */
  readonly maxSeconds: number;
  /** rows an export reads per statement, each page in one turn of the server's line (EXPORT_PAGE_ROWS) */
  readonly pageRows: number;
}

/** MdwWebsocketLimits bound ae_mdw's sockets as ae_mdw 1.107 does (its variable named on each). */
export interface MdwWebsocketLimits {
  /** connections to ae_mdw's sockets together (MAX_WS_CONNECTIONS) */
  readonly maxConnections: number;
  /** connections from one peer address (MAX_WS_CONNECTIONS_PER_IP) */
  readonly maxConnectionsPerIp: number;
  /** channels and targets one connection holds (MAX_SUBS_PER_CONN) */
  readonly maxSubscriptions: number;
  /** channels and targets of every connection together (MAX_TOTAL_WS_SUBS) */
  readonly maxTotalSubscriptions: number;
  /** subscriptions a Pong lists; `count` tells the rest (MAX_PING_LIMIT) */
  readonly pingLimit: number;
  /** heights a replay (`from_height`, ours alone) may reach below the top + 1 */
  readonly maxReplayHeights: number;
}

/** KubeSettings are set by the operator on the pods it runs (or by a user of the admin commands: KUBECONFIG). */
export interface KubeSettings {
  /** KUBECONFIG: a kubeconfig file; absent: ~/.kube/config, then the in-cluster service account. */
  readonly kubeconfig: string | undefined;
  /** WRITER_LEASE_NAME: the populator writes only while it holds this Lease. */
  readonly writerLeaseName: string | undefined;
  /** POD_NAMESPACE: where this pod's Leases live (default `default`). */
  readonly podNamespace: string;
  /** POD_NAME: this pod's identity in a Lease; absent: the caller uses the host name. */
  readonly podName: string | undefined;
  /** KUBE_REQUEST_TIMEOUT_MS: an API server request unanswered this long fails (watches excepted). */
  readonly requestTimeoutMs: number;
}

/** OperatorConfig is `mdw operator`'s environment, set by the chart or `mdw manifests`. */
export interface OperatorConfig {
  /** MIDDLEWARE_IMAGE: the image the Middleware's pods run when spec.image is unset (the operator's own image). */
  readonly image: string;
  /** WATCH_NAMESPACE: watch one namespace; undefined (empty) watches all. */
  readonly watchNamespace: string | undefined;
  /** POD_NAMESPACE: where the leader Lease lives, the operator's own namespace. */
  readonly leaseNamespace: string;
  /** LEADER_LEASE_NAME: the leader Lease (default: the name RBAC grants). */
  readonly leaseName: string | undefined;
  /** POD_NAME: this replica's identity in the Lease; absent: the caller uses the host name. */
  readonly identity: string | undefined;
  /** KUBECONFIG: absent in a pod (the in-cluster service account is used). */
  readonly kubeconfig: string | undefined;
  /** KUBE_REQUEST_TIMEOUT_MS: an API server request unanswered this long fails (watches excepted). */
  readonly requestTimeoutMs: number;
  /** PORT: /metrics, /healthz and /readyz. */
  readonly port: number;
  readonly logLevel: LogLevel;
}

export type LogLevel = 'trace' | 'debug' | 'info' | 'warn' | 'error' | 'fatal' | 'silent';
const LOG_LEVELS: readonly LogLevel[] = ['trace', 'debug', 'info', 'warn', 'error', 'fatal', 'silent'];

/** Defaults, one per variable; README's configuration table lists the same. */
export const DEFAULTS = {
  NODE_URL: 'http://localhost:3013',
  DATABASE_URL: 'postgres://postgres@localhost:5432/middleware',
  DATABASE_SCHEMA: 'public',
  DATABASE_POOL_SIZE: 10,
  READ_REPLICA_MAX_LAG_SECONDS: 30,
  LOG_LEVEL: 'info',
  STATUS_MAX_BLOCK_AGE: 900,
  WEBSOCKET_ADDRESS: '0.0.0.0:3020',
  WEBSOCKET_MAX_CONNECTIONS: 20000,
  WEBSOCKET_MAX_BUFFERED_BYTES: 4 * 1024 * 1024,
  WEBSOCKET_MAX_TOTAL_BUFFERED_BYTES: 64 * 1024 * 1024,
  // ae_mdw 1.107's defaults (config/runtime.exs)
  WEBSOCKET_MDW_MAX_CONNECTIONS: 1000,
  WEBSOCKET_MDW_MAX_CONNECTIONS_PER_IP: 50,
  WEBSOCKET_MDW_MAX_SUBSCRIPTIONS: 100_000,
  WEBSOCKET_MDW_MAX_TOTAL_SUBSCRIPTIONS: 2_000_000,
  WEBSOCKET_MDW_PING_LIMIT: 1000,
  WEBSOCKET_MDW_MAX_REPLAY_HEIGHTS: 10_000,
  PORT: 8080,
  FORK_WINDOW: 30,
  MAX_FORK_DEPTH: 1000,
  BATCH_SIZE: 500,
  BATCH_TRANSACTIONS: 2000,
  FETCH_CONCURRENCY: 8,
  POLL_INTERVAL_MS: 2000,
  MEMPOOL_POLL_INTERVAL_MS: 500,
  NODE_TIMEOUT_MS: 10000,
  // kube-apiserver ends a non-watch request itself after 60 s (--request-timeout); half that is a stuck one
  KUBE_REQUEST_TIMEOUT_MS: 30000,
  CORS_ORIGINS: '*',
  API_CACHE_MAX_BYTES: 64 * 1024 * 1024,
  ROOT_V3: 'node',
  // mainnet's (ae_mdw's dex_factories and ae_token)
  DEX_FACTORY: 'ct_2mfj3FoZxnhkSw5RZMcP8BfPoB1QR4QiYGNCdkAvLZ1zfF6paW',
  DEX_WRAPPED_AE: 'ct_J3zBY8xxjsRr3QojETNw48Eb38fjvEuJKkQ6KzECvubvEcvCa',
  REWARD_RULES: 'mainnet',
  // a spreadsheet's rows (1,048,576 in Excel and LibreOffice): one export opens as one sheet
  EXPORT_MAX_ROWS: 1_000_000,
  // an export reads its pages back to back: two keep the other requests' share of the pool and the CPU
  EXPORT_MAX_RUNNING: 2,
  // a stalled or trickling reader holds its export's place no longer than this
  EXPORT_MAX_SECONDS: 600,
  // a page is read and rendered in one turn: the largest page a list serves (limit=100), so a request waits behind an
  // export's page no longer than behind any other page
  EXPORT_PAGE_ROWS: 100,
} as const;

/** ConfigError lists every bad variable at once, each line naming the variable. */
export class ConfigError extends AppError {
  readonly problems: readonly string[];
  constructor(problems: readonly string[]) {
    super(ErrorCode.CONFIG_INVALID, 500, `invalid configuration:\n  ${problems.join('\n  ')}`);
    this.problems = problems;
  }
}

type Env = Readonly<Record<string, string | undefined>>;

/**
 * RoleDefaults are one kind of run's own defaults, as the variables' text: each stands in for its variable wherever
 * the environment leaves it unset, and is read and validated exactly as the variable would be.
 */
export type RoleDefaults = Readonly<Partial<Record<keyof typeof DEFAULTS | 'HTTP_HOST', string>>>;

/**
 * Defaults of `mdw dev`, where everything runs on one laptop: the websocket listens on loopback only (the HTTP API
 * does too, see the dev command), so a development environment is never reachable from the network by default.
 */
export const DEV_DEFAULTS = {
  WEBSOCKET_ADDRESS: '127.0.0.1:3020',
  HTTP_HOST: '127.0.0.1',
} as const satisfies RoleDefaults;

/**
 * loadConfig reads the variables from `env` (never from process.env itself) and validates all of them.
 * `defaults` replaces some of DEFAULTS for one kind of run (DEV_DEFAULTS); a variable that is set still wins. Every
 * variable is read through the one Reader, which consults `defaults` first, so no variable can miss its role's default.
 */
export function loadConfig(env: Env, defaults: RoleDefaults = {}): Config {
  const problems: string[] = [];
  const read = new Reader(env, problems, defaults);
  const ws = read.address('WEBSOCKET_ADDRESS', DEFAULTS.WEBSOCKET_ADDRESS);
  const extraNodes = read.urlList('NODE_URLS');
  const nodeUrl = read.url('NODE_URL', extraNodes[0] ?? DEFAULTS.NODE_URL);
  const config: Config = {
    nodeUrl,
    // NODE_URL is always first; NODE_URLS adds the others (a repeat of NODE_URL is dropped)
    nodeUrls: [...new Set([nodeUrl, ...extraNodes])],
    nodeInternalUrl: read.optionalUrl('NODE_INTERNAL_URL'),
    compilerUrl: read.optionalUrl('COMPILER_URL'),
    databaseUrl: read.databaseUrl('DATABASE_URL', DEFAULTS.DATABASE_URL),
    databaseUrlSet: read.isSet('DATABASE_URL'),
    databaseSchema: read.identifier('DATABASE_SCHEMA', DEFAULTS.DATABASE_SCHEMA),
    databasePoolSize: read.integer('DATABASE_POOL_SIZE', DEFAULTS.DATABASE_POOL_SIZE, 1, 1000),
    databaseReadUrls: read.databaseUrlList('DATABASE_READ_URLS'),
    readReplicaMaxLagSeconds: read.integer(
      'READ_REPLICA_MAX_LAG_SECONDS',
      DEFAULTS.READ_REPLICA_MAX_LAG_SECONDS,
      1,
      86_400,
    ),
    pidFile: read.optional('PID_FILE'),
    logDir: read.optional('LOG_DIR'),
    logLevel: read.oneOf('LOG_LEVEL', DEFAULTS.LOG_LEVEL, LOG_LEVELS),
    logPretty: read.boolean('LOG_PRETTY', false),
    statusMaxBlockAge: read.integer('STATUS_MAX_BLOCK_AGE', DEFAULTS.STATUS_MAX_BLOCK_AGE, 1, 10 ** 9),
    websocket: ws,
    websocketMaxConnections: read.integer('WEBSOCKET_MAX_CONNECTIONS', DEFAULTS.WEBSOCKET_MAX_CONNECTIONS, 1, 10 ** 7),
    websocketMaxBufferedBytes: read.integer(
      'WEBSOCKET_MAX_BUFFERED_BYTES',
      DEFAULTS.WEBSOCKET_MAX_BUFFERED_BYTES,
      1024,
      2 ** 31,
    ),
    websocketMaxTotalBufferedBytes: read.integer(
      'WEBSOCKET_MAX_TOTAL_BUFFERED_BYTES',
      DEFAULTS.WEBSOCKET_MAX_TOTAL_BUFFERED_BYTES,
      1024,
      2 ** 40,
    ),
    mdwWebsocket: readMdwWebsocketLimits(read),
    port: read.integer('PORT', DEFAULTS.PORT, 0, 65535),
    httpHost: read.optional('HTTP_HOST'),
    forkWindow: read.integer('FORK_WINDOW', DEFAULTS.FORK_WINDOW, 1, 100000),
    maxForkDepth: read.integer('MAX_FORK_DEPTH', DEFAULTS.MAX_FORK_DEPTH, 1, 10 ** 9),
    allowDeepFork: read.boolean('ALLOW_DEEP_FORK', false),
    owner: Object.freeze({ uid: read.optional('MIDDLEWARE_UID'), name: read.optional('MIDDLEWARE_NAME') }),
    batchSize: read.integer('BATCH_SIZE', DEFAULTS.BATCH_SIZE, 1, 10000),
    batchTransactions: read.integer('BATCH_TRANSACTIONS', DEFAULTS.BATCH_TRANSACTIONS, 1, 10 ** 6),
    fetchConcurrency: read.integer('FETCH_CONCURRENCY', DEFAULTS.FETCH_CONCURRENCY, 1, 256),
    pollIntervalMs: read.integer('POLL_INTERVAL_MS', DEFAULTS.POLL_INTERVAL_MS, 10, 3_600_000),
    mempoolPollIntervalMs: read.integer('MEMPOOL_POLL_INTERVAL_MS', DEFAULTS.MEMPOOL_POLL_INTERVAL_MS, 10, 3_600_000),
    nodeTimeoutMs: read.integer('NODE_TIMEOUT_MS', DEFAULTS.NODE_TIMEOUT_MS, 100, 600_000),
    corsOrigins: read.list('CORS_ORIGINS', DEFAULTS.CORS_ORIGINS),
    trustedProxies: read.proxyList('TRUSTED_PROXIES'),
    apiCacheMaxBytes: read.integer('API_CACHE_MAX_BYTES', DEFAULTS.API_CACHE_MAX_BYTES, 0, 2 ** 40),
    rootV3: read.oneOf<Config['rootV3']>('ROOT_V3', DEFAULTS.ROOT_V3, ['node', 'mdw']),
    rewardRules: read.oneOf<Config['rewardRules']>('REWARD_RULES', DEFAULTS.REWARD_RULES, [
      'mainnet',
      'testnet',
      'devnode',
    ]),
    rewardRulesSet: read.isSet('REWARD_RULES'),
    genesisAccountsFile: read.optional('GENESIS_ACCOUNTS_FILE'),
    hardForkFiles: readHardForkFiles(read),
    kube: readKubeSettings(read),
    dex: Object.freeze({
      factory: read.contractId('DEX_FACTORY', DEFAULTS.DEX_FACTORY),
      wrappedAe: read.contractId('DEX_WRAPPED_AE', DEFAULTS.DEX_WRAPPED_AE),
    }),
    exports: Object.freeze({
      maxRows: read.integer('EXPORT_MAX_ROWS', DEFAULTS.EXPORT_MAX_ROWS, 1, 10 ** 9),
      maxRunning: read.integer('EXPORT_MAX_RUNNING', DEFAULTS.EXPORT_MAX_RUNNING, 1, 1000),
      maxSeconds: read.integer('EXPORT_MAX_SECONDS', DEFAULTS.EXPORT_MAX_SECONDS, 1, 86_400),
      pageRows: read.integer('EXPORT_PAGE_ROWS', DEFAULTS.EXPORT_PAGE_ROWS, 1, 10_000),
    }),
  };
  if (problems.length > 0) throw new ConfigError(problems);
  return Object.freeze(config);
}

function readMdwWebsocketLimits(read: Reader): MdwWebsocketLimits {
  const limit = (name: keyof typeof DEFAULTS & `WEBSOCKET_MDW_${string}`): number =>
    read.integer(name, DEFAULTS[name], 1, 10 ** 9);
  return Object.freeze({
    maxConnections: limit('WEBSOCKET_MDW_MAX_CONNECTIONS'),
    maxConnectionsPerIp: limit('WEBSOCKET_MDW_MAX_CONNECTIONS_PER_IP'),
    maxSubscriptions: limit('WEBSOCKET_MDW_MAX_SUBSCRIPTIONS'),
    maxTotalSubscriptions: limit('WEBSOCKET_MDW_MAX_TOTAL_SUBSCRIPTIONS'),
    pingLimit: limit('WEBSOCKET_MDW_PING_LIMIT'),
    maxReplayHeights: limit('WEBSOCKET_MDW_MAX_REPLAY_HEIGHTS'),
  });
}

/** loadKubeSettings reads KUBECONFIG, WRITER_LEASE_NAME, POD_NAMESPACE and POD_NAME alone (the admin commands). */
export function loadKubeSettings(env: Env): KubeSettings {
  const problems: string[] = [];
  const settings = readKubeSettings(new Reader(env, problems));
  if (problems.length > 0) throw new ConfigError(problems);
  return settings;
}

/** loadOperatorConfig reads `mdw operator`'s variables from `env` and validates all of them. */
export function loadOperatorConfig(env: Env): OperatorConfig {
  const problems: string[] = [];
  const read = new Reader(env, problems);
  const image = read.optional('MIDDLEWARE_IMAGE');
  if (image === undefined) problems.push('MIDDLEWARE_IMAGE: required (the image the middleware pods run)');
  const kube = readKubeSettings(read);
  const config: OperatorConfig = {
    image: image ?? '',
    watchNamespace: read.optionalDnsLabel('WATCH_NAMESPACE'),
    leaseNamespace: kube.podNamespace,
    leaseName: read.optionalDnsName('LEADER_LEASE_NAME'),
    identity: kube.podName,
    kubeconfig: kube.kubeconfig,
    requestTimeoutMs: kube.requestTimeoutMs,
    port: read.integer('PORT', DEFAULTS.PORT, 0, 65535),
    logLevel: read.oneOf('LOG_LEVEL', DEFAULTS.LOG_LEVEL, LOG_LEVELS),
  };
  if (problems.length > 0) throw new ConfigError(problems);
  return Object.freeze(config);
}

/** HARD_FORK_FILE_VARIABLES: the variable naming each of the node's hard-fork files. */
export const HARD_FORK_FILE_VARIABLES: Readonly<Record<HardForkFile, string>> = {
  minervaAccounts: 'MINERVA_ACCOUNTS_FILE',
  fortunaAccounts: 'FORTUNA_ACCOUNTS_FILE',
  limaAccounts: 'LIMA_ACCOUNTS_FILE',
  limaExtraAccounts: 'LIMA_EXTRA_ACCOUNTS_FILE',
  limaContracts: 'LIMA_CONTRACTS_FILE',
};

function readHardForkFiles(read: Reader): Config['hardForkFiles'] {
  const files: Partial<Record<HardForkFile, string>> = {};
  for (const [file, variable] of Object.entries(HARD_FORK_FILE_VARIABLES) as [HardForkFile, string][]) {
    const path = read.optional(variable);
    if (path !== undefined && !path.endsWith('.json'))
      read.problem(variable, `expected a node's .json fork file, got ${JSON.stringify(path)}`);
    else if (path !== undefined) files[file] = path;
  }
  return Object.freeze(files);
}

function readKubeSettings(read: Reader): KubeSettings {
  return Object.freeze({
    kubeconfig: read.optional('KUBECONFIG'),
    writerLeaseName: read.optionalDnsName('WRITER_LEASE_NAME'),
    podNamespace: read.optionalDnsLabel('POD_NAMESPACE') ?? 'default',
    podName: read.optionalDnsName('POD_NAME'),
    requestTimeoutMs: read.integer('KUBE_REQUEST_TIMEOUT_MS', DEFAULTS.KUBE_REQUEST_TIMEOUT_MS, 100, 10 * 60_000),
  });
}

/** redactUrl hides the password of a connection URL for logs. */
export function redactUrl(url: string): string {
  try {
    const parsed = new URL(url);
    if (parsed.password) parsed.password = '***';
    return parsed.toString();
  } catch {
    return '<unparsable url>';
  }
}

class Reader {
  readonly #env: Env;
  readonly #problems: string[];
  readonly #defaults: Env;

  constructor(env: Env, problems: string[], defaults: Env = {}) {
    this.#env = env;
    this.#problems = problems;
    this.#defaults = defaults;
  }

  /** optional is every read's source: the variable when set (not blank), else the role's default, else undefined. */
  optional(name: string): string | undefined {
    return nonBlank(this.#env[name]) ?? nonBlank(this.#defaults[name]);
  }

  /** isSet tells whether the environment itself sets the variable (a role's default does not count). */
  isSet(name: string): boolean {
    return nonBlank(this.#env[name]) !== undefined;
  }

  /** problem records a variable that is set but wrong. */
  problem(name: string, message: string): void {
    this.#problems.push(`${name}: ${message}`);
  }

  #fail<T>(name: string, message: string, fallback: T): T {
    this.#problems.push(`${name}: ${message}`);
    return fallback;
  }

  url(name: string, fallback: string): string {
    return this.optionalUrl(name) ?? fallback;
  }

  optionalUrl(name: string): string | undefined {
    const value = this.optional(name);
    return value === undefined ? undefined : this.#parseUrl(name, value);
  }

  #parseUrl(name: string, value: string): string | undefined {
    try {
      const parsed = new URL(value);
      if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') {
        return this.#fail(name, `expected an http(s) URL, got ${JSON.stringify(value)}`, undefined);
      }
      // the URL parser reads `host:` as the default port: a port left out by mistake would pass unseen
      if (/^[a-z]+:\/\/[^/?#]*:(?:[/?#]|$)/i.test(value)) {
        return this.#fail(name, `empty port in ${JSON.stringify(value)}`, undefined);
      }
      return value.replace(/\/+$/, '');
    } catch {
      return this.#fail(name, `not a URL: ${JSON.stringify(value)}`, undefined);
    }
  }

  /** urlList reads comma-separated http(s) URLs, each validated like a single one. */
  urlList(name: string): string[] {
    return (this.optional(name) ?? '')
      .split(',')
      .map((s) => s.trim())
      .filter((s) => s !== '')
      .flatMap((value) => {
        const url = this.#parseUrl(name, value);
        return url === undefined ? [] : [url];
      });
  }

  databaseUrl(name: string, fallback: string): string {
    return this.#parseDatabaseUrl(name, this.optional(name) ?? fallback) ?? fallback;
  }

  /** databaseUrlList reads comma-separated PostgreSQL URLs, each validated like DATABASE_URL, repeats dropped. */
  databaseUrlList(name: string): string[] {
    const urls = (this.optional(name) ?? '')
      .split(',')
      .map((s) => s.trim())
      .filter((s) => s !== '')
      .flatMap((value) => this.#parseDatabaseUrl(name, value) ?? []);
    return [...new Set(urls)];
  }

  #parseDatabaseUrl(name: string, value: string): string | undefined {
    try {
      const parsed = new URL(value);
      if (parsed.protocol !== 'postgres:' && parsed.protocol !== 'postgresql:') {
        return this.#fail(name, 'expected a postgres:// or postgresql:// URL', undefined);
      }
      return value;
    } catch {
      return this.#fail(name, 'not a PostgreSQL connection URL', undefined);
    }
  }

  identifier(name: string, fallback: string): string {
    const value = this.optional(name) ?? fallback;
    if (!/^[a-z_][a-z0-9_]{0,62}$/.test(value)) {
      return this.#fail(
        name,
        `expected a lower-case SQL identifier (a-z, 0-9, _), got ${JSON.stringify(value)}`,
        fallback,
      );
    }
    return value;
  }

  contractId(name: string, fallback: string): string {
    const value = this.optional(name) ?? fallback;
    if (!isEncoded(value, ['ct']))
      return this.#fail(name, `expected a contract id (ct_…), got ${JSON.stringify(value)}`, fallback);
    return value;
  }

  integer(name: string, fallback: number, min: number, max: number): number {
    const value = this.optional(name);
    if (value === undefined) return fallback;
    if (!/^\d+$/.test(value)) return this.#fail(name, `expected an integer, got ${JSON.stringify(value)}`, fallback);
    const n = Number(value);
    if (n < min || n > max) return this.#fail(name, `expected ${min}..${max}, got ${n}`, fallback);
    return n;
  }

  /** optionalDnsLabel reads a namespace-like name (RFC 1123 label: a-z, 0-9, -, at most 63). */
  optionalDnsLabel(name: string): string | undefined {
    const value = this.optional(name);
    if (value === undefined || /^[a-z0-9]([-a-z0-9]{0,61}[a-z0-9])?$/.test(value)) return value;
    return this.#fail(name, `expected a DNS label (a-z, 0-9, -), got ${JSON.stringify(value)}`, undefined);
  }

  /** optionalDnsName reads an object name (RFC 1123 subdomain: labels joined by dots, at most 253). */
  optionalDnsName(name: string): string | undefined {
    const value = this.optional(name);
    if (value === undefined) return undefined;
    if (value.length <= 253 && /^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$/.test(value))
      return value;
    return this.#fail(name, `expected a DNS name (a-z, 0-9, -, .), got ${JSON.stringify(value)}`, undefined);
  }

  boolean(name: string, fallback: boolean): boolean {
    const value = this.optional(name)?.toLowerCase();
    if (value === undefined) return fallback;
    if (['1', 'true', 'yes'].includes(value)) return true;
    if (['0', 'false', 'no'].includes(value)) return false;
    return this.#fail(name, `expected true or false, got ${JSON.stringify(value)}`, fallback);
  }

  oneOf<T extends string>(name: string, fallback: T, allowed: readonly T[]): T {
    const value = this.optional(name) ?? fallback;
    if (!(allowed as readonly string[]).includes(value)) {
      return this.#fail(name, `expected one of ${allowed.join(', ')}, got ${JSON.stringify(value)}`, fallback);
    }
    return value as T;
  }

  list(name: string, fallback: string): string[] {
    return (this.optional(name) ?? fallback)
      .split(',')
      .map((s) => s.trim())
      .filter((s) => s !== '');
  }

  /** proxyList reads comma-separated addresses and CIDR networks, IPv4 or IPv6 (src/client-address.ts). */
  proxyList(name: string): string[] {
    return this.list(name, '').filter((entry) => {
      if (parseProxyEntry(entry) !== undefined) return true;
      this.problem(name, `expected an IP address or CIDR network (10.0.0.0/8, fd00::/8), got ${JSON.stringify(entry)}`);
      return false;
    });
  }

  address(name: string, fallback: string): { host: string; port: number } {
    const value = this.optional(name) ?? fallback;
    const match = /^(?:(\[[0-9a-fA-F:]+\]|[^:[\]]+):)?(\d+)$/.exec(value);
    const port = match ? Number(match[2]) : NaN;
    if (!match || port > 65535) {
      const [host, p] = fallback.split(':');
      return this.#fail(name, `expected host:port, got ${JSON.stringify(value)}`, { host: host!, port: Number(p) });
    }
    return { host: (match[1] ?? '0.0.0.0').replace(/^\[|\]$/g, ''), port };
  }
}

function nonBlank(value: string | undefined): string | undefined {
  const trimmed = value?.trim();
  return trimmed === '' ? undefined : trimmed;
}
