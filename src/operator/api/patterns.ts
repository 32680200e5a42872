/** @module Patterns and bounds of the Middleware spec, shared by validateMiddleware and the generated CRD schema. */

/** PATTERNS: regular expressions (ECMA and RE2 compatible) each string field must match. */
export const PATTERNS = {
  /** An http(s) URL without whitespace. */
  httpUrl: '^https?://[^\\s/?#]+[^\\s]*$',
  /** The instance name: a DNS-1035 label, because the stable Service carries it. */
  instanceName: '^[a-z]([-a-z0-9]*[a-z0-9])?$',
  /** A DNS-1123 subdomain (Secret names). */
  resourceName: '^[a-z0-9]([-a-z0-9.]*[a-z0-9])?$',
  /** A key of a Secret's data. */
  secretKey: '^[-._a-zA-Z0-9]+$',
  /** A lower-case SQL identifier prefix; the generation number is appended. */
  schemaPrefix: '^[a-z_][a-z0-9_]*$',
  /** A reload id: label-value syntax, so it can be copied into labels and Events. */
  reloadId: '^[A-Za-z0-9]([-A-Za-z0-9_.]*[A-Za-z0-9])?$',
  /** A height list as `mdw -H` takes it: "1,3-4,6,100-200". */
  heights: '^[0-9]+(-[0-9]+)?(,[0-9]+(-[0-9]+)?)*$',
  /** A host name for the Ingress, optionally a leading wildcard. */
  host: '^(\\*\\.)?[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$',
  /** A relative path inside a volume: segments of file-name characters, none beginning with a dot (no `..`). */
  relativePath: '^[A-Za-z0-9_-][A-Za-z0-9_.-]*(/[A-Za-z0-9_-][A-Za-z0-9_.-]*)*$',
  /** An absolute HTTP path. */
  path: '^/[^\\s]*$',
  /** A byte quantity as Kubernetes writes one: "500Gi", "1.5Ti", "2000G", "1073741824". */
  byteQuantity: '^[0-9]+(\\.[0-9]+)?(Ki|Mi|Gi|Ti|Pi|Ei|k|M|G|T|P|E)?$',
  /** A duration: "90s", "30m", "1h30m", "0s". */
  duration: '^([0-9]+(s|m|h))+$',
  /** An environment variable's name, as the middleware's are written (README's Configuration). */
  envName: '^[A-Za-z_][A-Za-z0-9_]*$',
  /** A label value: empty, or up to 63 alphanumerics, '-', '_' and '.' beginning and ending with an alphanumeric. */
  labelValue: '^(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?$',
  /** The characters of an IP address or CIDR network; the operator checks the rest (src/config/client-address.ts). */
  addressOrNetwork: '^[0-9A-Fa-f:.]+(/[0-9]{1,3})?$',
} as const;

/** BOUNDS: inclusive numeric ranges and lengths of the spec's fields. */
export const BOUNDS = {
  instanceNameLength: 63,
  labelValueLength: 63,
  /** A CloudNativePG cluster name, so that its `<cluster>-ro` Service name stays a 63-character label. */
  cnpgClusterLength: 60,
  resourceNameLength: 253,
  /** 63 (PostgreSQL identifiers) minus room for a ten-digit generation. */
  schemaPrefixLength: 53,
  reloadIdLength: 63,
  heightsLength: 4096,
  urlLength: 2048,
  nodeUrls: { min: 1, max: 16 },
  replicas: { min: 0, max: 1000 },
  autoscalingReplicas: { min: 1, max: 1000 },
  cpuPercent: { min: 1, max: 1000 },
  port: { min: 1, max: 65535 },
  pdbCount: { min: 0, max: 1000 },
  forkWindow: { min: 1, max: 100000 },
  batchTransactions: { min: 1, max: 1_000_000 },
  statusMaxBlockAge: { min: 1, max: 1_000_000_000 },
  syncedWithinBlocks: { min: 0, max: 100000 },
  stableWindowSeconds: { min: 0, max: 604800 },
  /**
   * A second at least: none would delete the servers a switch leaves while clients still reach them (issue 88); an
   * hour at most, which a rolled-back generation's drop waits for.
   */
  switchDrainSeconds: { min: 1, max: 3600 },
  replicaMaxLagSeconds: { min: 1, max: 86400 },
  /** SHUTDOWN_DELAY_MS's own range, in seconds (src/config/middleware.ts): a pod never gets a delay its server refuses. */
  shutdownDelaySeconds: { min: 0, max: 600 },
  /** Variables of spec.server.env and spec.populator.env each. */
  env: { min: 0, max: 128 },
  envNameLength: 128,
  envValueLength: 32768,
  trustedProxies: { min: 0, max: 64 },
  /** The longest IPv6 network: eight groups of four, seven colons and /128. */
  addressOrNetworkLength: 43,
} as const;
