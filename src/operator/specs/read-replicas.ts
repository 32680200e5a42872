/** @module The servers' environment naming the PostgreSQL replicas they read from (spec.database.readReplicas). Pure. */
import type { V1EnvVar } from '@kubernetes/client-node';
import type { ResolvedReadReplicas } from '../api/defaults.ts';
import { secretEnv } from './pod.ts';

/** READ_URLS_ENV is the servers' list of replica URLs, comma-separated (src/config/). */
export const READ_URLS_ENV = 'DATABASE_READ_URLS';
/** MAX_LAG_ENV bounds how far behind the primary a replica may be and still be read from (src/config/). */
export const MAX_LAG_ENV = 'READ_REPLICA_MAX_LAG_SECONDS';
/** CNPG_PORT is the port of every CloudNativePG Service (`-rw`, `-ro`, `-r`). */
const CNPG_PORT = 5432;

/**
 * CNPG_PARTS: the variables the CNPG URL is put together from, by the kubelet's `$(VAR)` expansion, so that the
 * password stays in its Secret (never in the Deployment). The keys are those of CloudNativePG's `<cluster>-app` Secret;
 * its generated passwords are letters and digits, which need no escaping in a URL.
 */
const CNPG_PARTS = { user: 'CNPG_RO_USER', password: 'CNPG_RO_PASSWORD', dbname: 'CNPG_RO_DBNAME' } as const;

/** readReplicaEnv is the server container's env for its read replicas: none without spec.database.readReplicas. */
export function readReplicaEnv(replicas: ResolvedReadReplicas | undefined): V1EnvVar[] {
  if (replicas === undefined) return [];
  const env = 'cnpg' in replicas ? cnpgEnv(replicas.cnpg) : [secretEnv(READ_URLS_ENV, replicas.urlsSecretRef)];
  if (replicas.maxLagSeconds !== undefined) env.push({ name: MAX_LAG_ENV, value: String(replicas.maxLagSeconds) });
  return env;
}

/** cnpgEnv reads the cluster's `-ro` Service, which balances over its hot standbys, with the Secret's credentials. */
function cnpgEnv(cnpg: { cluster: string; credentialsSecretName: string }): V1EnvVar[] {
  const parts = Object.entries(CNPG_PARTS).map(([key, name]) =>
    secretEnv(name, { name: cnpg.credentialsSecretName, key }),
  );
  const { user, password, dbname } = CNPG_PARTS;
  const url = `postgresql://$(${user}):$(${password})@${cnpg.cluster}-ro:${CNPG_PORT}/$(${dbname})`;
  return [...parts, { name: READ_URLS_ENV, value: url }];
}
