/** @module The middleware's defaults, one per variable (README's configuration table lists the same). Pure. */

export type LogLevel = 'trace' | 'debug' | 'info' | 'warn' | 'error' | 'fatal' | 'silent';

export const LOG_LEVELS: readonly LogLevel[] = ['trace', 'debug', 'info', 'warn', 'error', 'fatal', 'silent'];

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
  // what a node admits at once by default (its regulators: http_read 5 running + 100 queued, http_update 5 + 50)
  NODE_MAX_READS: 105,
  NODE_MAX_DRY_RUNS: 55,
  POLL_INTERVAL_MS: 2000,
  MEMPOOL_POLL_INTERVAL_MS: 500,
  // as the populator's `catching up` line: a job of hours says where it is six times a minute
  PROGRESS_LOG_MS: 10_000,
  NODE_TIMEOUT_MS: 10000,
  // kube-apiserver ends a non-watch request itself after 60 s (--request-timeout); half that is a stuck one
  KUBE_REQUEST_TIMEOUT_MS: 30000,
  CORS_ORIGINS: '*',
  API_CACHE_MAX_BYTES: 64 * 1024 * 1024,
  // a plain process (make dev, the tests) stops at once; the operator's servers wait for their endpoints' removal
  SHUTDOWN_DELAY_MS: 0,
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
  // rows per statement: a statement's planning and round trip spread over 250 rows are a small part of its work (over
  // 100 they were two thirds of PostgreSQL's time per row); longer pages live long enough in the server to reach V8's
  // old generation: its peak RSS rose 6–10 MB above idle at 250, 20–124 MB at 500, 130 MB at 2000 (docs/benchmarks.md)
  EXPORT_PAGE_ROWS: 250,
  // API keys (docs/operations.md, "API keys and quotas"): off unless asked for or a keys file is given
  API_KEYS: 'off',
  // how often a server adds its counts to the shared ones and reads the others' (the bound of what replicas overrun)
  API_QUOTA_FLUSH_MS: 100,
  // how often a server rereads the keys (and the keys file): a revoked key is refused within this
  API_KEYS_REFRESH_MS: 2000,
  // webhooks (docs/webhooks.md): a receiver that has not answered in 10 s is counted as failed, its answer read to 64 KiB
  WEBHOOK_TIMEOUT_MS: 10_000,
  WEBHOOK_MAX_RESPONSE_BYTES: 64 * 1024,
  // hooks one sender sends to at once (each one delivery at a time, in order)
  WEBHOOK_CONCURRENCY: 256,
  // a sender that died frees its hooks after this long; it renews its hold before every attempt
  WEBHOOK_LEASE_MS: 60_000,
  WEBHOOK_POLL_MS: 200,
  // the first wait after a failed attempt; it doubles to 24 h, then the hook is disabled
  WEBHOOK_RETRY_INITIAL_MS: 60_000,
  WEBHOOK_MAX_REPLAY_HEIGHTS: 10_000,
  // a delivery sent or given up is kept a week after its last attempt (GET …/deliveries shows it), then pruned
  WEBHOOK_RETENTION_MS: 7 * 86_400_000,
} as const;
