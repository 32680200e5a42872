/**
 * @module The variables the operator sets on the middleware's containers itself, which spec.server.env and
 * spec.populator.env may not name: each with the field that sets it (or why it is fixed). Pure.
 */

/** MANAGED_ENV_PREFIX starts every refusal, after the variable's name. */
export const MANAGED_ENV_PREFIX = 'is set by the operator';
const from = (field: string): string => `from ${field}: set that instead`;
const fixed = (why: string): string => `(${why}) and cannot be changed`;

/**
 * MANAGED_ENV: every variable a pod builder of src/operator/specs sets (test/operator/specs/roles.test.ts checks that
 * none is missing), mapped to the end of the sentence that refuses it in spec.*.env (after MANAGED_ENV_PREFIX).
 */
export const MANAGED_ENV: Readonly<Record<string, string>> = {
  NODE_URL: from('spec.nodeUrls'),
  NODE_URLS: from('spec.nodeUrls'),
  NODE_INTERNAL_URL: from('spec.nodeInternalUrl'),
  COMPILER_URL: from('spec.compilerUrl'),
  DATABASE_URL: from('spec.database.urlSecretRef'),
  DATABASE_SCHEMA: from('spec.database.schemaPrefix and the generation'),
  DATABASE_READ_URLS: from('spec.database.readReplicas'),
  READ_REPLICA_MAX_LAG_SECONDS: from('spec.database.readReplicas.maxLagSeconds'),
  CNPG_RO_USER: from('spec.database.readReplicas.cnpg'),
  CNPG_RO_PASSWORD: from('spec.database.readReplicas.cnpg'),
  CNPG_RO_DBNAME: from('spec.database.readReplicas.cnpg'),
  BATCH_TRANSACTIONS: from('spec.populator.batchTransactions'),
  FORK_WINDOW: from('spec.forkWindow'),
  STATUS_MAX_BLOCK_AGE: from('spec.statusMaxBlockAge'),
  LOG_LEVEL: from('spec.logLevel'),
  ROOT_V3: from('spec.server.rootV3'),
  TRUSTED_PROXIES: from('spec.server.trustedProxies'),
  PORT: fixed("the containers' ports; spec.server.http.port sets the Service's"),
  WEBSOCKET_ADDRESS: fixed("the containers' ports; spec.server.websocket.port sets the Service's"),
  NODE_OPTIONS: fixed("each role's V8 settings, measured in docs/benchmarks.md"),
  WRITER_LEASE_NAME: fixed("the generation's writer Lease"),
  POD_NAME: fixed("the pod's own name, for its Leases"),
  POD_NAMESPACE: fixed("the pod's own namespace, for its Leases"),
  MIDDLEWARE_UID: fixed("the Middleware's uid, the owner its schemas record"),
  MIDDLEWARE_NAME: fixed("the Middleware's namespace/name, the owner its schemas record"),
};

/** managedEnvProblem is why spec.*.env may not name `name`, or undefined when it may. */
export function managedEnvProblem(name: string): string | undefined {
  const rest = Object.hasOwn(MANAGED_ENV, name) ? MANAGED_ENV[name] : undefined;
  return rest === undefined ? undefined : `${name} ${MANAGED_ENV_PREFIX} ${rest}`;
}
