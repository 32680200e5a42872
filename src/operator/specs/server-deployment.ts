/** @module Builds the server Deployment (`mdw -s`) of one data generation. Pure: no I/O, clock or env. */
import type { V1Deployment, V1ResourceRequirements } from '@kubernetes/client-node';
import type { Built, BuildContext } from './meta.ts';
import { Component, childMeta, childName, generationSuffix, labelsFor, selectorFor } from './meta.ts';
import { httpProbe, middlewareContainer, podTemplate } from './pod.ts';
import { withInputHash } from './hash.ts';
import { readReplicaEnv } from './read-replicas.ts';
import { apiKeysMount } from './api-keys.ts';

/**
 * SERVER_NODE_OPTIONS are the V8 settings of server pods. V8 sizes the young generation from the
 * machine's memory (tens of MiB per semi-space on a server), and a server accepting thousands of
 * websocket clients keeps it committed: 8 MiB keeps one with 10k clients tens of MB smaller
 * (docs/benchmarks.md, Websocket; bench/websocket.ts runs the server with this value).
 */
export const SERVER_NODE_OPTIONS = '--max-semi-space-size=8';

/**
 * UNLIMITED_SERVER_HEAP caps V8's heap of a server pod without a memory limit. Node sizes the heap from the memory it
 * sees: a container's limit, else the machine's (4 GB on a 23 GB machine), and V8 lets the old generation grow to up
 * to 4 times what the last full collection kept on a heap of 2 GB or more, against 1.3–2 times below. A long export
 * promotes about 1 KB of garbage a row (its pages live across two scavenges): 108 MB above idle on such a machine
 * before a full collection took it back (to the 27 MB of an idle server), 19–34 MB with this cap (docs/benchmarks.md,
 * The export on the scale chain). A pod with a limit keeps Node's choice, which follows the limit.
 */
const UNLIMITED_SERVER_HEAP = '--max-old-space-size=1024';

/**
 * SERVER_STOP_SECONDS is how long the kubelet waits, after a server pod's shutdown delay (its SHUTDOWN_DELAY_MS,
 * spec.server.shutdownDelaySeconds), before SIGKILL: the requests in flight (a request's body is received within
 * 30 s, REQUEST_TIMEOUTS in src/api/server.ts; middleware queries are answered within 5 s, the node's within
 * NODE_TIMEOUT_MS, 10 s) and the pools' close, with 10 s to spare. Only a streamed export may run longer
 * (EXPORT_MAX_SECONDS); its client resumes after its last row. The pod's terminationGracePeriodSeconds is the delay
 * plus this: 45 s with the default delay of 5 s.
 */
export const SERVER_STOP_SECONDS = 40;

/** serverNodeOptions are a server pod's Node flags for its container's `resources`. */
export function serverNodeOptions(resources: V1ResourceRequirements | undefined): string {
  return resources?.limits?.memory === undefined
    ? `${SERVER_NODE_OPTIONS} ${UNLIMITED_SERVER_HEAP}`
    : SERVER_NODE_OPTIONS;
}

/** serverDeploymentName is `<name>-server-g<N>`. */
export function serverDeploymentName(ctx: BuildContext, generation: number): string {
  return childName(ctx.mw, Component.server, generationSuffix(generation));
}

/**
 * buildServerDeployment runs `replicas` read-only servers of a generation (default: spec.server.replicas, which the
 * HPA owns through the scale subresource when autoscaling is on). Rolling update without lowering capacity.
 */
export function buildServerDeployment(
  ctx: BuildContext,
  generation: number,
  replicas = ctx.spec.server.replicas,
): Built<V1Deployment> {
  const labels = labelsFor(ctx.mw, Component.server, generation);
  const keys = apiKeysMount(ctx.spec.api?.keysSecretRef);
  const container = middlewareContainer(ctx, {
    args: ['-s'],
    generation,
    resources: ctx.spec.server.resources,
    extraEnv: [
      { name: 'NODE_OPTIONS', value: serverNodeOptions(ctx.spec.server.resources) },
      { name: 'SHUTDOWN_DELAY_MS', value: String(ctx.spec.server.shutdownDelaySeconds * 1000) },
      // set only away from the default, so that servers of a Middleware without it keep their pod template
      ...(ctx.spec.server.rootV3 === 'node' ? [] : [{ name: 'ROOT_V3', value: ctx.spec.server.rootV3 }]),
      // only the servers read from replicas: whatever writes or migrates stays on the primary
      ...readReplicaEnv(ctx.spec.database.readReplicas),
      ...(ctx.spec.server.trustedProxies.length === 0
        ? []
        : [{ name: 'TRUSTED_PROXIES', value: ctx.spec.server.trustedProxies.join(',') }]),
      ...(keys?.env ?? []),
      // the user's own last: validation keeps them off every name above (managed-env.ts)
      ...ctx.spec.server.env,
    ],
    ports: true,
    readinessProbe: httpProbe('/readyz', 5, 3),
    livenessProbe: httpProbe('/healthz', 10, 6),
  });
  if (keys) container.volumeMounts = [...(container.volumeMounts ?? []), keys.mount];
  const template = podTemplate(ctx, labels, container, ctx.spec.server.scheduling);
  if (keys) template.spec!.volumes = [...(template.spec!.volumes ?? []), keys.volume];
  template.spec!.terminationGracePeriodSeconds = ctx.spec.server.shutdownDelaySeconds + SERVER_STOP_SECONDS;
  return withInputHash({
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: childMeta(ctx, serverDeploymentName(ctx, generation), labels),
    spec: {
      replicas,
      selector: { matchLabels: selectorFor(ctx.mw, Component.server, generation) },
      strategy: { type: 'RollingUpdate', rollingUpdate: { maxUnavailable: 0, maxSurge: 1 } },
      template,
    },
  });
}
