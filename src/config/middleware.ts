/** @module The middleware's configuration: the environment read once into one frozen, typed object. Pure. */
import type { HardForkFile } from '../chain/hard-forks.ts';
import { type Env, Reader, ConfigError } from './env-reader.ts';
import { type LogLevel, LOG_LEVELS, DEFAULTS } from './defaults.ts';
import { type KubeSettings, readKubeSettings } from './cluster.ts';

/**
 * Admitted: how many requests of each kind a node takes at once (running and queued) before it refuses: `read` (its
 * `http_read` queue: every GET), `dryRun` (its `http_update`: the POSTs, dry-runs among them). node-pace.ts.
 */
export interface Admitted {
  readonly read: number;
  readonly dryRun: number;
}

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
  /**
   * PostgreSQL schema of the users' configuration (API keys, quota counters, webhooks), shared by the data generations
   * so that a blue/green reload keeps it (DATABASE_CONFIG_SCHEMA; default: the generation's own schema).
   */
  readonly databaseConfigSchema: string;
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
  /**
   * How long a server keeps serving after SIGTERM, not ready and closing each connection after its answer, before it
   * stops (SHUTDOWN_DELAY_MS): the time Kubernetes takes to stop sending it traffic. 0: it stops at once.
   */
  readonly shutdownDelayMs: number;
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
  /**
   * What each node admits in flight before it refuses at once (its regulators, running and queued): the populator's
   * reads (GETs) and dry-runs (POSTs) each stay within theirs, per node (node-pace.ts).
   */
  readonly nodeAdmits: Admitted;
  readonly pollIntervalMs: number;
  /** How often a server reads the node's mempool (internal API) for pending tx_update events. */
  readonly mempoolPollIntervalMs: number;
  /** At most one progress line per this many ms from a long one-shot job (-v, -H); 0: one per step (tests). */
  readonly progressLogMs: number;
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
   * The æternity DEX of the network, overrides of what the code says (a factory or a wrapped AE is known by its code
   * on any network): a factory whose PairCreated events count, and a wrapped AE (BUY/SELL swaps; its Deposit and
   * Withdrawal events mint and burn AEX-9 balances).
   */
  readonly dex: { readonly factory: string; readonly wrappedAe: string };
  /** How /mdw/v3's streamed exports of an account's history are bounded (docs/api-v3.md, "Exports"). */
  readonly exports: ExportLimits;
  /** API keys, tiers and quotas (docs/operations.md, "API keys and quotas"); off: every request as before. */
  readonly apiKeys: ApiKeySettings;
  /** The webhooks API and sender (docs/webhooks.md). */
  readonly webhooks: WebhookSettings;
}

/** ApiKeySettings turn API keys on and say where their keys and tiers come from (API_KEYS*, API_TIERS_FILE). */
export interface ApiKeySettings {
  /** API_KEYS=on, or a keys file given: requests are counted against their key's or their address's tier */
  readonly enabled: boolean;
  /** a JSON file of keys a server keeps in the database, reread live (API_KEYS_FILE; the operator's Secret) */
  readonly file: string | undefined;
  /** a JSON file of tiers replacing the default ones (API_TIERS_FILE) */
  readonly tiersFile: string | undefined;
  /** the same JSON as the variable's text (API_TIERS: a ConfigMap's key under the operator) */
  readonly tiersJson: string | undefined;
  /** how often a server flushes its counts to the shared ones and reads the others' (API_QUOTA_FLUSH_MS) */
  readonly flushMs: number;
  /** how often a server rereads the keys: a revoked key is refused within this (API_KEYS_REFRESH_MS) */
  readonly refreshMs: number;
}

/** WebhookSettings: who may create hooks without an API key, and how the sender delivers (WEBHOOK_*, WEBHOOKS_*). */
export interface WebhookSettings {
  /** the webhooks API answers requests without an API key, their hooks owned by no one (WEBHOOKS_ANONYMOUS) */
  readonly anonymous: boolean;
  /** receivers at private, loopback and link-local addresses are delivered to (WEBHOOKS_ALLOW_PRIVATE) */
  readonly allowPrivate: boolean;
  readonly timeoutMs: number;
  readonly maxResponseBytes: number;
  readonly concurrency: number;
  readonly leaseMs: number;
  readonly pollMs: number;
  readonly retryInitialMs: number;
  readonly maxReplayHeights: number;
  /** how long a delivery sent or given up is kept after its last attempt (WEBHOOK_RETENTION_MS) */
  readonly retentionMs: number;
}

/** ExportLimits bound the streamed exports (EXPORT_*): rows per request, exports at once, and each one's lifetime. */
export interface ExportLimits {
  /** rows one export sends at most; the client resumes after the last (EXPORT_MAX_ROWS) */
  readonly maxRows: number;
  /** exports running at once; one more is refused with 503 and Retry-After (EXPORT_MAX_RUNNING) */
  readonly maxRunning: number;
  /** seconds an export may run before it is cut off, its client resuming after its last row (EXPORT_MAX_SECONDS) */
  readonly maxSeconds: number;
  /** rows an export reads per statement, each statement in one turn of the server's line (EXPORT_PAGE_ROWS) */
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

/**
 * RoleDefaults are one kind of run's own defaults, as the variables' text: each stands in for its variable wherever
 * the environment leaves it unset, and is read and validated exactly as the variable would be.
 */
export type RoleDefaults = Readonly<
  Partial<Record<keyof typeof DEFAULTS | 'HTTP_HOST' | 'WEBHOOKS_ALLOW_PRIVATE', string>>
>;

/**
 * Defaults of `mdw dev`, where everything runs on one laptop: the websocket listens on loopback only (the HTTP API
 * does too, see the dev command), so a development environment is never reachable from the network by default. Its
 * webhook sender delivers to the developer's receiver on localhost (a loopback address, refused elsewhere: SSRF), and
 * retries a failed delivery after a second rather than a minute: the receiver is being written and restarted. The
 * populator asks the node on loopback for new blocks every 0.5 s rather than 2: a spend reaches a webhook's receiver
 * within a second of its micro block (test/e2e/dev-webhooks.test.ts: 0.6 s, 2.3 s at 2 s).
 */
export const DEV_DEFAULTS = {
  WEBSOCKET_ADDRESS: '127.0.0.1:3020',
  HTTP_HOST: '127.0.0.1',
  WEBHOOKS_ALLOW_PRIVATE: 'true',
  WEBHOOK_RETRY_INITIAL_MS: '1000',
  POLL_INTERVAL_MS: '500',
} as const satisfies RoleDefaults;

/**
 * loadConfig reads the variables from `env` (never from process.env itself) and validates all of them.
 * `defaults` replaces some of DEFAULTS for one kind of run (DEV_DEFAULTS); a variable that is set still wins. Every
 * variable is read through the one Reader, which consults `defaults` first, so no variable can miss its role's default.
 */
export function loadConfig(env: Env, defaults: RoleDefaults = {}): Config {
  const problems: string[] = [];
  const read = new Reader(env, problems, defaults);
  const config: Config = {
    ...readNodeAndDatabase(read),
    ...readLogsAndWebsocket(read),
    ...readServing(read),
    ...readChainRules(read),
    ...readServices(read),
  };
  if (problems.length > 0) throw new ConfigError(problems);
  return Object.freeze(config);
}

/** readNodeAndDatabase reads where the nodes and the databases are. */
function readNodeAndDatabase(read: Reader) {
  const extraNodes = read.urlList('NODE_URLS');
  const nodeUrl = read.url('NODE_URL', extraNodes[0] ?? DEFAULTS.NODE_URL);
  return {
    nodeUrl,
    // NODE_URL is always first; NODE_URLS adds the others (a repeat of NODE_URL is dropped)
    nodeUrls: [...new Set([nodeUrl, ...extraNodes])],
    nodeInternalUrl: read.optionalUrl('NODE_INTERNAL_URL'),
    compilerUrl: read.optionalUrl('COMPILER_URL'),
    databaseUrl: read.databaseUrl('DATABASE_URL', DEFAULTS.DATABASE_URL),
    databaseUrlSet: read.isSet('DATABASE_URL'),
    databaseSchema: read.identifier('DATABASE_SCHEMA', DEFAULTS.DATABASE_SCHEMA),
    databaseConfigSchema: read.identifier(
      'DATABASE_CONFIG_SCHEMA',
      read.identifier('DATABASE_SCHEMA', DEFAULTS.DATABASE_SCHEMA),
    ),
    databasePoolSize: read.integer('DATABASE_POOL_SIZE', DEFAULTS.DATABASE_POOL_SIZE, 1, 1000),
    databaseReadUrls: read.databaseUrlList('DATABASE_READ_URLS'),
    readReplicaMaxLagSeconds: read.integer(
      'READ_REPLICA_MAX_LAG_SECONDS',
      DEFAULTS.READ_REPLICA_MAX_LAG_SECONDS,
      1,
      86_400,
    ),
  } satisfies Partial<Config>;
}

/** readLogsAndWebsocket reads the process's files and logs, the status's age and the websockets' limits. */
function readLogsAndWebsocket(read: Reader) {
  return {
    pidFile: read.optional('PID_FILE'),
    logDir: read.optional('LOG_DIR'),
    logLevel: read.oneOf('LOG_LEVEL', DEFAULTS.LOG_LEVEL, LOG_LEVELS),
    logPretty: read.boolean('LOG_PRETTY', false),
    statusMaxBlockAge: read.integer('STATUS_MAX_BLOCK_AGE', DEFAULTS.STATUS_MAX_BLOCK_AGE, 1, 10 ** 9),
    websocket: read.address('WEBSOCKET_ADDRESS', DEFAULTS.WEBSOCKET_ADDRESS),
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
  } satisfies Partial<Config>;
}

/** readServing reads the HTTP API's and the populator's settings: port, forks, batches, polls, CORS and caches. */
function readServing(read: Reader) {
  return {
    port: read.integer('PORT', DEFAULTS.PORT, 0, 65535),
    httpHost: read.optional('HTTP_HOST'),
    shutdownDelayMs: read.integer('SHUTDOWN_DELAY_MS', DEFAULTS.SHUTDOWN_DELAY_MS, 0, 600_000),
    forkWindow: read.integer('FORK_WINDOW', DEFAULTS.FORK_WINDOW, 1, 100000),
    maxForkDepth: read.integer('MAX_FORK_DEPTH', DEFAULTS.MAX_FORK_DEPTH, 1, 10 ** 9),
    allowDeepFork: read.boolean('ALLOW_DEEP_FORK', false),
    owner: Object.freeze({ uid: read.optional('MIDDLEWARE_UID'), name: read.optional('MIDDLEWARE_NAME') }),
    batchSize: read.integer('BATCH_SIZE', DEFAULTS.BATCH_SIZE, 1, 10000),
    batchTransactions: read.integer('BATCH_TRANSACTIONS', DEFAULTS.BATCH_TRANSACTIONS, 1, 10 ** 6),
    fetchConcurrency: read.integer('FETCH_CONCURRENCY', DEFAULTS.FETCH_CONCURRENCY, 1, 256),
    nodeAdmits: Object.freeze({
      read: read.integer('NODE_MAX_READS', DEFAULTS.NODE_MAX_READS, 1, 10_000),
      dryRun: read.integer('NODE_MAX_DRY_RUNS', DEFAULTS.NODE_MAX_DRY_RUNS, 1, 10_000),
    }),
    pollIntervalMs: read.integer('POLL_INTERVAL_MS', DEFAULTS.POLL_INTERVAL_MS, 10, 3_600_000),
    mempoolPollIntervalMs: read.integer('MEMPOOL_POLL_INTERVAL_MS', DEFAULTS.MEMPOOL_POLL_INTERVAL_MS, 10, 3_600_000),
    progressLogMs: read.integer('PROGRESS_LOG_MS', DEFAULTS.PROGRESS_LOG_MS, 0, 3_600_000),
    nodeTimeoutMs: read.integer('NODE_TIMEOUT_MS', DEFAULTS.NODE_TIMEOUT_MS, 100, 600_000),
    corsOrigins: read.list('CORS_ORIGINS', DEFAULTS.CORS_ORIGINS),
    trustedProxies: read.proxyList('TRUSTED_PROXIES'),
    apiCacheMaxBytes: read.integer('API_CACHE_MAX_BYTES', DEFAULTS.API_CACHE_MAX_BYTES, 0, 2 ** 40),
    rootV3: read.oneOf<Config['rootV3']>('ROOT_V3', DEFAULTS.ROOT_V3, ['node', 'mdw']),
  } satisfies Partial<Config>;
}

/** readChainRules reads the chain's rules: rewards, genesis accounts, hard forks, the operator's cluster and the DEX. */
function readChainRules(read: Reader) {
  return {
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
  } satisfies Partial<Config>;
}

/** readServices reads the exports', API keys' and webhooks' settings. */
function readServices(read: Reader) {
  return {
    exports: Object.freeze({
      maxRows: read.integer('EXPORT_MAX_ROWS', DEFAULTS.EXPORT_MAX_ROWS, 1, 10 ** 9),
      maxRunning: read.integer('EXPORT_MAX_RUNNING', DEFAULTS.EXPORT_MAX_RUNNING, 1, 1000),
      maxSeconds: read.integer('EXPORT_MAX_SECONDS', DEFAULTS.EXPORT_MAX_SECONDS, 1, 86_400),
      pageRows: read.integer('EXPORT_PAGE_ROWS', DEFAULTS.EXPORT_PAGE_ROWS, 1, 10_000),
    }),
    apiKeys: readApiKeySettings(read),
    webhooks: Object.freeze({
      anonymous: read.boolean('WEBHOOKS_ANONYMOUS', false),
      allowPrivate: read.boolean('WEBHOOKS_ALLOW_PRIVATE', false),
      timeoutMs: read.integer('WEBHOOK_TIMEOUT_MS', DEFAULTS.WEBHOOK_TIMEOUT_MS, 100, 600_000),
      maxResponseBytes: read.integer('WEBHOOK_MAX_RESPONSE_BYTES', DEFAULTS.WEBHOOK_MAX_RESPONSE_BYTES, 0, 2 ** 30),
      concurrency: read.integer('WEBHOOK_CONCURRENCY', DEFAULTS.WEBHOOK_CONCURRENCY, 1, 10_000),
      leaseMs: read.integer('WEBHOOK_LEASE_MS', DEFAULTS.WEBHOOK_LEASE_MS, 1000, 3_600_000),
      pollMs: read.integer('WEBHOOK_POLL_MS', DEFAULTS.WEBHOOK_POLL_MS, 10, 60_000),
      retryInitialMs: read.integer('WEBHOOK_RETRY_INITIAL_MS', DEFAULTS.WEBHOOK_RETRY_INITIAL_MS, 10, 86_400_000),
      maxReplayHeights: read.integer('WEBHOOK_MAX_REPLAY_HEIGHTS', DEFAULTS.WEBHOOK_MAX_REPLAY_HEIGHTS, 1, 10 ** 7),
      retentionMs: read.integer('WEBHOOK_RETENTION_MS', DEFAULTS.WEBHOOK_RETENTION_MS, 0, 10 * 365 * 86_400_000),
    }),
  } satisfies Partial<Config>;
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

function readApiKeySettings(read: Reader): ApiKeySettings {
  const file = read.optional('API_KEYS_FILE');
  const mode = read.oneOf<'on' | 'off'>('API_KEYS', DEFAULTS.API_KEYS, ['on', 'off']);
  if (mode === 'off' && file !== undefined && read.isSet('API_KEYS'))
    read.problem('API_KEYS', 'is off, but API_KEYS_FILE gives keys: set API_KEYS=on or leave it unset');
  const tiersFile = read.optional('API_TIERS_FILE');
  const tiersJson = read.optional('API_TIERS');
  if (tiersFile !== undefined && tiersJson !== undefined)
    read.problem('API_TIERS', 'and API_TIERS_FILE are both set: give the tiers once');
  return Object.freeze({
    enabled: mode === 'on' || file !== undefined,
    file,
    tiersFile,
    tiersJson,
    flushMs: read.integer('API_QUOTA_FLUSH_MS', DEFAULTS.API_QUOTA_FLUSH_MS, 10, 60_000),
    refreshMs: read.integer('API_KEYS_REFRESH_MS', DEFAULTS.API_KEYS_REFRESH_MS, 100, 3_600_000),
  });
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
