/** @module The cluster's configuration: the Kubernetes settings of the pods and `mdw operator`'s environment. Pure. */
import { type Env, Reader, ConfigError } from './env-reader.ts';
import { type LogLevel, LOG_LEVELS, DEFAULTS } from './defaults.ts';

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
  /** HTTP_HOST: the address PORT listens on; absent: every address (the pod's own, in a pod). */
  readonly httpHost: string | undefined;
  readonly logLevel: LogLevel;
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
    httpHost: read.optional('HTTP_HOST'),
    logLevel: read.oneOf('LOG_LEVEL', DEFAULTS.LOG_LEVEL, LOG_LEVELS),
  };
  if (problems.length > 0) throw new ConfigError(problems);
  return Object.freeze(config);
}

export function readKubeSettings(read: Reader): KubeSettings {
  return Object.freeze({
    kubeconfig: read.optional('KUBECONFIG'),
    writerLeaseName: read.optionalDnsName('WRITER_LEASE_NAME'),
    podNamespace: read.optionalDnsLabel('POD_NAMESPACE') ?? 'default',
    podName: read.optionalDnsName('POD_NAME'),
    requestTimeoutMs: read.integer('KUBE_REQUEST_TIMEOUT_MS', DEFAULTS.KUBE_REQUEST_TIMEOUT_MS, 100, 10 * 60_000),
  });
}
