/** @module Test fixtures: Middleware objects, minimal and with every option set. */
import type { Middleware, MiddlewareSpec } from '../../../src/operator/api/middleware-types.ts';
import type { KubeObject } from '../../../src/operator/kube/client.ts';
import { createBuildContext, serviceAccountName } from '../../../src/operator/specs/meta.ts';
import type { BuildContext } from '../../../src/operator/specs/meta.ts';
import { buildWorkloadRoleBinding } from '../../../src/operator/specs/service-account.ts';

/** TEST_IMAGE is the operator default image the fixtures build with. */
const TEST_IMAGE = 'ghcr.io/aeternity/mdw:0.1.0';

/** aMiddleware is a Middleware with only the required fields, plus the given spec fields. */
export function aMiddleware(spec: Partial<MiddlewareSpec> = {}, name = 'mainnet'): Middleware {
  return {
    apiVersion: 'middleware.aeternity.io/v1alpha1',
    kind: 'Middleware',
    metadata: { name, namespace: 'chain', uid: '3f1c2a9e-0000-4000-8000-000000000001', generation: 1 },
    spec: {
      nodeUrls: ['http://ae-node.chain.svc:3013'],
      database: { urlSecretRef: { name: 'mdw-db', key: 'url' } },
      ...spec,
    },
  };
}

/** aFullMiddleware sets every optional field (ingress, autoscaling, ServiceMonitor, a reload …). */
export function aFullMiddleware(): Middleware {
  return aMiddleware({
    nodeUrls: ['http://ae-node-0.chain.svc:3013', 'http://ae-node-1.chain.svc:3013'],
    nodeInternalUrl: 'http://ae-node-0.chain.svc:3113',
    compilerUrl: 'http://compiler.chain.svc:3080',
    database: {
      urlSecretRef: { name: 'mdw-db', key: 'url' },
      schemaPrefix: 'mainnet_g',
      readReplicas: { cnpg: { cluster: 'pg', credentialsSecretName: 'pg-app' }, maxLagSeconds: 30 },
    },
    image: 'registry.example.com/mdw:1.2.3',
    imagePullPolicy: 'Always',
    imagePullSecrets: [{ name: 'registry' }],
    server: {
      replicas: 3,
      resources: { requests: { cpu: '250m', memory: '256Mi' }, limits: { memory: '1Gi' } },
      http: { type: 'LoadBalancer', port: 8080 },
      websocket: { port: 3021 },
      ingress: {
        className: 'nginx',
        host: 'mdw.example.com',
        tlsSecretName: 'mdw-tls',
        annotations: { 'cert-manager.io/cluster-issuer': 'letsencrypt' },
        websocketPath: '/websocket',
      },
      pdb: { minAvailable: 2 },
      autoscaling: { minReplicas: 2, maxReplicas: 6, targetCPUUtilizationPercentage: 70 },
      previewReplicas: 2,
      nodeSelector: { 'kubernetes.io/os': 'linux' },
      tolerations: [{ key: 'dedicated', operator: 'Equal', value: 'mdw', effect: 'NoSchedule' }],
      affinity: {
        podAntiAffinity: {
          preferredDuringSchedulingIgnoredDuringExecution: [
            {
              weight: 100,
              podAffinityTerm: {
                topologyKey: 'kubernetes.io/hostname',
                labelSelector: { matchLabels: { 'app.kubernetes.io/component': 'server' } },
              },
            },
          ],
        },
      },
      topologySpreadConstraints: [
        {
          maxSkew: 1,
          topologyKey: 'topology.kubernetes.io/zone',
          whenUnsatisfiable: 'ScheduleAnyway',
          labelSelector: { matchLabels: { 'app.kubernetes.io/instance': 'mainnet' } },
        },
      ],
      priorityClassName: 'mdw-serving',
      podMetadata: { labels: { team: 'chain' }, annotations: { 'sidecar.istio.io/inject': 'true' } },
      trustedProxies: ['10.244.0.0/16', 'fd00:10:244::/56'],
      env: [
        { name: 'CORS_ORIGINS', value: 'https://aescan.io' },
        {
          name: 'WEBSOCKET_MDW_MAX_CONNECTIONS_PER_IP',
          valueFrom: { configMapKeyRef: { name: 'mdw-tuning', key: 'ws' } },
        },
      ],
    },
    populator: {
      resources: { requests: { cpu: '1', memory: '2Gi' } },
      batchTransactions: 1000,
      env: [{ name: 'FETCH_CONCURRENCY', value: '16' }],
      nodeSelector: { 'node.kubernetes.io/instance-type': 'm6i.xlarge' },
      podMetadata: { annotations: { 'vault.hashicorp.com/agent-inject': 'true' } },
    },
    jobs: {
      resources: { requests: { cpu: '100m', memory: '256Mi' }, limits: { memory: '512Mi' } },
      migrationDeadline: '3h',
      tolerations: [{ key: 'batch', operator: 'Exists' }],
      priorityClassName: 'mdw-batch',
    },
    serviceAccountTemplate: {
      metadata: { annotations: { 'iam.gke.io/gcp-service-account': 'mdw@project.iam.gserviceaccount.com' } },
    },
    metrics: { serviceMonitor: { enabled: true, interval: '15s' } },
    forkWindow: 50,
    statusMaxBlockAge: 600,
    logLevel: 'debug',
    paused: false,
    reload: { id: 'reindex-2026-11', strategy: 'BlueGreen', autoPromote: false, retainPrevious: '2h' },
    promotion: { syncedWithinBlocks: 5, stableWindowSeconds: 120 },
  });
}

/** contextOf builds with TEST_IMAGE as the operator's default image. */
export function contextOf(mw: Middleware): BuildContext {
  return createBuildContext(mw, TEST_IMAGE);
}

/**
 * olderWriterLeaseBinding is the RoleBinding versions before issue 43 made for mw: named after its ServiceAccount, to
 * a per-Middleware Role (whose Lease verbs the operator had to hold cluster-wide). The operator now prunes it.
 */
export function olderWriterLeaseBinding(mw: Middleware): KubeObject {
  const current = buildWorkloadRoleBinding(contextOf(mw));
  const name = serviceAccountName(mw);
  return { ...current, metadata: { ...current.metadata, name }, roleRef: { ...current.roleRef, kind: 'Role', name } };
}
