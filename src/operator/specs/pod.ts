/** @module The pod template every middleware container shares: env, security context, /tmp volume, ports. Pure. */
import type {
  V1Container,
  V1EnvVar,
  V1PodSecurityContext,
  V1PodSpec,
  V1PodTemplateSpec,
  V1Probe,
  V1ResourceRequirements,
  V1SecurityContext,
} from '@kubernetes/client-node';
import type { PodScheduling, SecretKeyRef } from '../api/middleware-types.ts';
import type { BuildContext } from './meta.ts';
import { configSchemaName, ownerName, schemaName, serviceAccountName } from './meta.ts';

/** HTTP_PORT is the container's PORT: the HTTP API, /healthz, /readyz and /metrics. */
export const HTTP_PORT = 8080;
/** WEBSOCKET_PORT is the container's websocket listener (WEBSOCKET_ADDRESS). */
const WEBSOCKET_PORT = 3020;
/** PORT_NAME names container and Service ports; Services and probes refer to these names. */
export const PORT_NAME = { http: 'http', websocket: 'websocket' } as const;
/** RUN_AS_USER is the uid of the image's non-root user (the node image's `node`, 1000). */
const RUN_AS_USER = 1000;
/** MAIN_CONTAINER is the container name in every operand pod. */
const MAIN_CONTAINER = 'mdw';

/** ContainerOptions: what differs between roles. */
export interface ContainerOptions {
  readonly args: readonly string[];
  readonly generation: number;
  readonly resources?: V1ResourceRequirements | undefined;
  readonly extraEnv?: readonly V1EnvVar[];
  readonly ports?: boolean;
  readonly readinessProbe?: V1Probe;
  readonly livenessProbe?: V1Probe;
  readonly startupProbe?: V1Probe;
}

/** middlewareEnv is the environment src/config/ reads, for one data generation. */
function middlewareEnv(ctx: BuildContext, generation: number): V1EnvVar[] {
  const { spec } = ctx;
  const env: V1EnvVar[] = [{ name: 'NODE_URL', value: spec.nodeUrls[0] ?? '' }];
  if (spec.nodeUrls.length > 1) env.push({ name: 'NODE_URLS', value: spec.nodeUrls.join(',') });
  if (spec.nodeInternalUrl !== undefined) env.push({ name: 'NODE_INTERNAL_URL', value: spec.nodeInternalUrl });
  if (spec.compilerUrl !== undefined) env.push({ name: 'COMPILER_URL', value: spec.compilerUrl });
  // read by whatever loads the chain (populator, -H Jobs); unset: the middleware's own default
  if (spec.populator.batchTransactions !== undefined)
    env.push({ name: 'BATCH_TRANSACTIONS', value: String(spec.populator.batchTransactions) });
  // the servers answer the webhooks API, the populator sends the deliveries (docs/webhooks.md); unset: off
  if (spec.webhooks.anonymous) env.push({ name: 'WEBHOOKS_ANONYMOUS', value: 'true' });
  if (spec.webhooks.allowPrivate) env.push({ name: 'WEBHOOKS_ALLOW_PRIVATE', value: 'true' });
  env.push(
    secretEnv('DATABASE_URL', spec.database.urlSecretRef),
    { name: 'DATABASE_SCHEMA', value: schemaName(spec, generation) },
    { name: 'DATABASE_CONFIG_SCHEMA', value: configSchemaName(spec) },
    { name: 'PORT', value: String(HTTP_PORT) },
    { name: 'WEBSOCKET_ADDRESS', value: `0.0.0.0:${WEBSOCKET_PORT}` },
    { name: 'FORK_WINDOW', value: String(spec.forkWindow) },
    { name: 'STATUS_MAX_BLOCK_AGE', value: String(spec.statusMaxBlockAge) },
    { name: 'LOG_LEVEL', value: spec.logLevel },
    // the schema records its owner and every role checks it, so no other Middleware's pod writes or drops it
    { name: 'MIDDLEWARE_UID', value: ctx.mw.metadata.uid ?? '' },
    { name: 'MIDDLEWARE_NAME', value: ownerName(ctx.mw) },
  );
  return env;
}

/** secretEnv is a variable read from one key of a Secret: the kubelet resolves it, the pod template holds no value. */
export function secretEnv(name: string, ref: SecretKeyRef): V1EnvVar {
  return { name, valueFrom: { secretKeyRef: { name: ref.name, key: ref.key } } };
}

/**
 * downwardEnv exposes the pod's own name and namespace (the writer Lease's holder identity and namespace). A fieldRef
 * is atomic in server-side apply: its apiVersion, which the API server defaults, is written out, so that another
 * manager applying the same manifest does not conflict on it.
 */
export function downwardEnv(): V1EnvVar[] {
  return [
    { name: 'POD_NAME', valueFrom: { fieldRef: { apiVersion: 'v1', fieldPath: 'metadata.name' } } },
    { name: 'POD_NAMESPACE', valueFrom: { fieldRef: { apiVersion: 'v1', fieldPath: 'metadata.namespace' } } },
  ];
}

/** podSecurityContext: non-root, RuntimeDefault seccomp. */
export function podSecurityContext(): V1PodSecurityContext {
  return {
    runAsNonRoot: true,
    runAsUser: RUN_AS_USER,
    runAsGroup: RUN_AS_USER,
    seccompProfile: { type: 'RuntimeDefault' },
  };
}

/** containerSecurityContext: read-only root, no privilege escalation, every capability dropped. */
export function containerSecurityContext(): V1SecurityContext {
  return {
    runAsNonRoot: true,
    allowPrivilegeEscalation: false,
    readOnlyRootFilesystem: true,
    capabilities: { drop: ['ALL'] },
  };
}

/** middlewareContainer is the one container of an operand pod. */
export function middlewareContainer(ctx: BuildContext, o: ContainerOptions): V1Container {
  const container: V1Container = {
    name: MAIN_CONTAINER,
    image: ctx.image,
    imagePullPolicy: ctx.spec.imagePullPolicy,
    args: [...o.args],
    env: [...middlewareEnv(ctx, o.generation), ...(o.extraEnv ?? [])],
    securityContext: containerSecurityContext(),
    // The root filesystem is read-only; /tmp is the one writable place.
    volumeMounts: [{ name: 'tmp', mountPath: '/tmp' }],
  };
  if (o.ports) {
    container.ports = [
      { name: PORT_NAME.http, containerPort: HTTP_PORT, protocol: 'TCP' },
      { name: PORT_NAME.websocket, containerPort: WEBSOCKET_PORT, protocol: 'TCP' },
    ];
  }
  if (o.resources) container.resources = o.resources;
  if (o.readinessProbe) container.readinessProbe = o.readinessProbe;
  if (o.livenessProbe) container.livenessProbe = o.livenessProbe;
  if (o.startupProbe) container.startupProbe = o.startupProbe;
  return container;
}

/**
 * podTemplate wraps the container with labels, the ServiceAccount, security context and the /tmp emptyDir, placed
 * and labelled as the component's scheduling fields say (the operator's own labels win: the selectors read them).
 */
export function podTemplate(
  ctx: BuildContext,
  labels: Record<string, string>,
  container: V1Container,
  scheduling: PodScheduling,
  opts: { restartPolicy?: 'Always' | 'Never'; kubeApiAccess?: boolean } = {},
): V1PodTemplateSpec {
  const { podMetadata, ...placement } = scheduling;
  const spec: V1PodSpec = {
    serviceAccountName: serviceAccountName(ctx.mw),
    // Only the populator talks to the API server (its writer Lease); the others get no token.
    automountServiceAccountToken: opts.kubeApiAccess ?? false,
    securityContext: podSecurityContext(),
    containers: [container],
    volumes: [{ name: 'tmp', emptyDir: { sizeLimit: '256Mi' } }],
  };
  if (opts.restartPolicy) spec.restartPolicy = opts.restartPolicy;
  if (ctx.spec.imagePullSecrets.length > 0)
    spec.imagePullSecrets = ctx.spec.imagePullSecrets.map((s) => ({ name: s.name }));
  Object.assign(spec, structuredClone(placement));
  const annotations = podMetadata?.annotations;
  return {
    metadata: {
      labels: { ...podMetadata?.labels, ...labels },
      ...(annotations === undefined ? {} : { annotations: { ...annotations } }),
    },
    spec,
  };
}

/** httpProbe checks an HTTP path on the http port. */
export function httpProbe(path: string, periodSeconds: number, failureThreshold: number): V1Probe {
  return { httpGet: { path, port: PORT_NAME.http }, periodSeconds, failureThreshold, timeoutSeconds: 2 };
}
