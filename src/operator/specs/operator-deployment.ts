/** @module Builds the operator's own Deployment (`mdw operator`, two replicas behind leader election), its PDB and metrics Service. Pure. */
import type {
  V1Deployment,
  V1EnvVar,
  V1PodDisruptionBudget,
  V1ResourceRequirements,
  V1Service,
} from '@kubernetes/client-node';
import { DEFAULTS } from '../../config/defaults.ts';
import type { Built } from './meta.ts';
import { LABEL_COMPONENT, LABEL_INSTANCE, LABEL_MANAGED_BY, LABEL_NAME, LABEL_PART_OF, APP_NAME } from './meta.ts';
import { LEADER_LEASE_NAME, OPERATOR_NAME } from './rbac.ts';
import { containerSecurityContext, downwardEnv, httpProbe, podSecurityContext } from './pod.ts';

/** OPERATOR_PORT serves the operator's /metrics, /healthz and /readyz. */
const OPERATOR_PORT = 8080;

/** OperatorDeploymentOptions: what `mdw manifests` (and the chart's values) can set. */
export interface OperatorDeploymentOptions {
  readonly namespace: string;
  /** The operator image; also the default image of every Middleware (MIDDLEWARE_IMAGE). */
  readonly image: string;
  readonly replicas?: number;
  readonly watchNamespace?: string | undefined;
  readonly logLevel?: string;
  /** KUBE_REQUEST_TIMEOUT_MS of the operator: its API server requests (watches excepted) fail after this long. */
  readonly requestTimeoutMs?: number;
  readonly imagePullPolicy?: string;
  readonly resources?: V1ResourceRequirements;
}

/** operatorSelector: the operator pods' immutable selector (no version, no chart label). */
function operatorSelector(): Record<string, string> {
  return { [LABEL_NAME]: OPERATOR_NAME, [LABEL_INSTANCE]: OPERATOR_NAME };
}

/** operatorLabels: selector plus descriptive labels. */
export function operatorLabels(): Record<string, string> {
  return {
    ...operatorSelector(),
    [LABEL_COMPONENT]: 'operator',
    [LABEL_PART_OF]: APP_NAME,
    [LABEL_MANAGED_BY]: 'mdw-manifests',
  };
}

/** operatorEnv is the environment `mdw operator` reads. */
function operatorEnv(o: OperatorDeploymentOptions): V1EnvVar[] {
  const env: V1EnvVar[] = [
    ...downwardEnv(),
    { name: 'MIDDLEWARE_IMAGE', value: o.image },
    { name: 'LEADER_LEASE_NAME', value: LEADER_LEASE_NAME },
    { name: 'PORT', value: String(OPERATOR_PORT) },
    { name: 'LOG_LEVEL', value: o.logLevel ?? 'info' },
    {
      name: 'KUBE_REQUEST_TIMEOUT_MS',
      value: String(o.requestTimeoutMs ?? DEFAULTS.KUBE_REQUEST_TIMEOUT_MS),
    },
  ];
  if (o.watchNamespace !== undefined) env.push({ name: 'WATCH_NAMESPACE', value: o.watchNamespace });
  return env;
}

/** buildOperatorDeployment runs `mdw operator` replicas (default 2: one leads, one waits), spread over nodes. */
export function buildOperatorDeployment(o: OperatorDeploymentOptions): Built<V1Deployment> {
  const labels = operatorLabels();
  return {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name: OPERATOR_NAME, namespace: o.namespace, labels },
    spec: {
      replicas: o.replicas ?? 2,
      selector: { matchLabels: operatorSelector() },
      template: {
        metadata: { labels: { ...labels } },
        spec: {
          serviceAccountName: OPERATOR_NAME,
          securityContext: podSecurityContext(),
          affinity: {
            podAntiAffinity: {
              preferredDuringSchedulingIgnoredDuringExecution: [
                {
                  weight: 100,
                  podAffinityTerm: {
                    topologyKey: 'kubernetes.io/hostname',
                    labelSelector: { matchLabels: operatorSelector() },
                  },
                },
              ],
            },
          },
          containers: [
            {
              name: 'operator',
              image: o.image,
              imagePullPolicy: o.imagePullPolicy ?? 'IfNotPresent',
              args: ['operator'],
              env: operatorEnv(o),
              ports: [{ name: 'http', containerPort: OPERATOR_PORT, protocol: 'TCP' }],
              livenessProbe: httpProbe('/healthz', 10, 3),
              readinessProbe: httpProbe('/readyz', 10, 3),
              securityContext: containerSecurityContext(),
              volumeMounts: [{ name: 'tmp', mountPath: '/tmp' }],
              ...(o.resources ? { resources: o.resources } : {}),
            },
          ],
          volumes: [{ name: 'tmp', emptyDir: { sizeLimit: '64Mi' } }],
        },
      },
    },
  };
}

/** buildOperatorMetricsService exposes the operator's /metrics on port 8080 named http. */
export function buildOperatorMetricsService(namespace: string): Built<V1Service> {
  return {
    apiVersion: 'v1',
    kind: 'Service',
    metadata: { name: `${OPERATOR_NAME}-metrics`, namespace, labels: operatorLabels() },
    spec: {
      selector: operatorSelector(),
      ports: [{ name: 'http', port: OPERATOR_PORT, targetPort: 'http', protocol: 'TCP' }],
    },
  };
}

/**
 * buildOperatorPdb lets a drain take one operator replica at a time, never all of them (the chart's pdb.yaml); a
 * single replica gets none, which would block every drain of its node.
 */
export function buildOperatorPdb(o: OperatorDeploymentOptions): Built<V1PodDisruptionBudget> | undefined {
  if ((o.replicas ?? 2) < 2) return undefined;
  return {
    apiVersion: 'policy/v1',
    kind: 'PodDisruptionBudget',
    metadata: { name: OPERATOR_NAME, namespace: o.namespace, labels: operatorLabels() },
    spec: { maxUnavailable: 1, selector: { matchLabels: operatorSelector() } },
  };
}
