/**
 * @module Where the writer Lease's client (lease-client.ts) finds the API server and its credentials: where
 * @kubernetes/client-node's KubeConfig would (loadKubeConfig without a context), read the same way. Only what that
 * client reads plainly is read here: a kubeconfig whose cluster and user name nothing but a server, a CA, a
 * certificate check, a bearer token (or its file) and a client certificate and key, or the pod's service account. For
 * anything else (an exec plugin, an auth provider, a password, impersonation, a proxy, plain HTTP without
 * insecure-skip-tls-verify, which it refuses, a list of files, a file missing or unreadable) leaseAccess says undefined and the caller uses the full client, as before.
 */
import { existsSync, readFileSync } from 'node:fs';
import { isIPv6 } from 'node:net';
import { dirname, isAbsolute, join } from 'node:path';
import type { ApiAccess, Material } from './lease-client.ts';

/** SERVICE_ACCOUNT_DIR holds a pod's service account: token, ca.crt (client-node's and client-go's paths). */
export const SERVICE_ACCOUNT_DIR = '/var/run/secrets/kubernetes.io/serviceaccount';

/**
 * leaseAccess reads the access the full client would use: the kubeconfig file `kubeconfig` (KUBECONFIG), else
 * $HOME/.kube/config, else the service account in `serviceAccountDir` when its token is there; undefined when the
 * full client must serve (see the module).
 */
export async function leaseAccess(
  kubeconfig: string | undefined,
  env: Readonly<Record<string, string | undefined>>,
  serviceAccountDir = SERVICE_ACCOUNT_DIR,
): Promise<ApiAccess | undefined> {
  if (kubeconfig !== undefined && kubeconfig !== '') return fileAccess(kubeconfig);
  const home = env.HOME === undefined || env.HOME === '' ? undefined : join(env.HOME, '.kube', 'config');
  if (home !== undefined && existsSync(home)) return fileAccess(home);
  if (existsSync(join(serviceAccountDir, 'token'))) return inClusterAccess(env, serviceAccountDir);
  return undefined;
}

/** inClusterAccess is client-node's loadFromCluster: the service's address, the account's CA and (rotated) token. */
function inClusterAccess(
  env: Readonly<Record<string, string | undefined>>,
  serviceAccountDir: string,
): ApiAccess | undefined {
  const host = env.KUBERNETES_SERVICE_HOST;
  const port = env.KUBERNETES_SERVICE_PORT;
  if (host === undefined || host === '' || port === undefined || port === '') return undefined;
  // client-node speaks HTTP to these ports, and then refuses to (its certificate check is not skipped)
  if (port === '80' || port === '8080' || port === '8001') return undefined;
  return {
    server: `https://${isIPv6(host) ? `[${host}]` : host}:${port}`,
    ca: { file: join(serviceAccountDir, 'ca.crt') },
    token: { file: join(serviceAccountDir, 'token') },
  };
}

const CLUSTER_FIELDS = new Set([
  'server',
  'certificate-authority',
  'certificate-authority-data',
  'insecure-skip-tls-verify',
  'tls-server-name',
  'extensions',
]);
const USER_FIELDS = new Set([
  'token',
  'token-file',
  'client-certificate',
  'client-certificate-data',
  'client-key',
  'client-key-data',
  'extensions',
]);

type Fields = Record<string, unknown>;

async function fileAccess(file: string): Promise<ApiAccess | undefined> {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch {
    return undefined;
  }
  const { parse } = await import('yaml');
  let doc: unknown;
  try {
    doc = parse(text);
  } catch {
    return undefined;
  }
  return kubeconfigAccess(doc, dirname(file));
}

/**
 * kubeconfigAccess is the access of a parsed kubeconfig's current context, its relative files under `dir` (the
 * kubeconfig's own directory, as client-node makes them absolute); undefined when it says more than this client reads.
 */
export function kubeconfigAccess(doc: unknown, dir: string): ApiAccess | undefined {
  if (!isFields(doc)) return undefined;
  const context = named(doc.contexts, doc['current-context'], 'context');
  if (context === undefined) return undefined;
  const cluster = named(doc.clusters, context.cluster, 'cluster');
  const user = named(doc.users, context.user, 'user');
  if (cluster === undefined || user === undefined) return undefined;
  if (!onlyFields(cluster, CLUSTER_FIELDS) || !onlyFields(user, USER_FIELDS)) return undefined;
  const server = cluster.server;
  const insecure = cluster['insecure-skip-tls-verify'] === true;
  // client-node refuses plain HTTP unless the certificate check is skipped
  if (typeof server !== 'string' || !(server.startsWith('https://') || (insecure && server.startsWith('http://'))))
    return undefined;
  const access: {
    server: string;
    ca?: Material;
    cert?: Material;
    key?: Material;
    token?: Material;
    rejectUnauthorized?: boolean;
    servername?: string;
  } = { server: server.replace(/\/$/, '') };
  const ca = material(cluster['certificate-authority'], cluster['certificate-authority-data'], dir);
  const cert = material(user['client-certificate'], user['client-certificate-data'], dir);
  const key = material(user['client-key'], user['client-key-data'], dir);
  if (ca !== undefined) access.ca = ca;
  if (cert !== undefined) access.cert = cert;
  if (key !== undefined) access.key = key;
  if (insecure) access.rejectUnauthorized = false;
  if (typeof cluster['tls-server-name'] === 'string') access.servername = cluster['tls-server-name'];
  // a token-file is read as client-node reads it: its path as written
  if (typeof user.token === 'string' && user.token !== '') access.token = { data: Buffer.from(user.token) };
  else if (typeof user['token-file'] === 'string') access.token = { file: user['token-file'] };
  return access;
}

/** named is the `what` (a context's, cluster's or user's fields) of the entry of `list` named `name`. */
function named(list: unknown, name: unknown, what: string): Fields | undefined {
  if (!Array.isArray(list) || typeof name !== 'string') return undefined;
  const entry: unknown = list.find((e) => isFields(e) && e.name === name);
  if (!isFields(entry)) return undefined;
  const fields = entry[what];
  return isFields(fields) ? fields : undefined;
}

function onlyFields(fields: Fields, known: ReadonlySet<string>): boolean {
  return Object.keys(fields).every((k) => known.has(k));
}

/** material is a file's (relative to `dir`) or base64 data's bytes; the file wins, as in client-node. */
function material(file: unknown, data: unknown, dir: string): Material | undefined {
  if (typeof file === 'string' && file !== '') return { file: isAbsolute(file) ? file : join(dir, file) };
  if (typeof data === 'string' && data !== '') return { data: Buffer.from(data, 'base64') };
  return undefined;
}

function isFields(value: unknown): value is Fields {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
